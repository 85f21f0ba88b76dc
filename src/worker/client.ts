/**
 * The page side of a prover in a Web Worker: the same Prover type, each call posted to the
 * worker's WorkerHost (src/worker/host.ts) through comlink. Arguments are encoded as codec.ts
 * says (typed arrays cloned, or transferred with `{ transfer: true }`); results come back
 * transferred. Handles are small proxies holding an id; one the page drops is freed in the
 * worker (FinalizationRegistry). A job's AbortSignal rejects here at once and is forwarded;
 * its progress arrives through a comlink proxy released when the job settles.
 * @module
 */
import * as Comlink from 'comlink';
import { ProverError, type ProverErrorCode } from '../errors.js';
import { abortError } from '../sched/job.js';
import type { Capabilities, Prover, ProverInfo, ProverOptions } from '../prover.js';
import { curveLoaded, encodeArgs, loadCurve, mayHoldPoints, unpackPoint, type ArgHooks } from './codec.js';
import { isTypedArray, optionalOut } from '../validate.js';
import { HANDLE_METHODS, PROVER_CALLS, type Family, type HandleKind } from '../methods.js';
import { whirInstance } from '../whir/facade.js';
import type { WhirOptions } from '../whir/options.js';
import { CORRUPT_FAMILY } from '../checks/corrupt.js';
import { LOSE_DEVICE } from '../device-recovery.js';
import type { Reply, Stats, WireError, WorkerHost } from './host.js';

/** Calls whose results are noble points (MSMs): noble's curve is loaded before they are sent. */
const POINT_METHODS: ReadonlySet<string> = new Set(['msm', 'msmProfiled']);

/** Rebuild the worker's error here: a ProverError keeps its code, name (AbortError) and message. */
function rebuild(e: WireError): Error {
  if (e.code) return new ProverError(e.code as ProverErrorCode, e.message);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

const destroyedError = () => new ProverError('DESTROYED', 'This prover was destroyed; call createProver() again.');

/** A GPU handle living in the worker. */
class RemoteHandle {
  dead = false;
  constructor(
    readonly client: WorkerClient,
    readonly id: number,
    readonly kind: HandleKind,
  ) {}
}

class WorkerClient {
  private destroyed = false;
  private lastStats: Stats;
  private lastCapabilities: Capabilities;
  private nextJob = 1;
  private readonly pending = new Set<(e: Error) => void>();
  // The worker frees a handle's GPU memory once the page drops its proxy.
  private readonly registry = new FinalizationRegistry<number>((id) => {
    if (!this.destroyed) void this.remote.release(id).catch(() => {});
  });

  constructor(
    private readonly worker: Worker,
    private readonly remote: Comlink.Remote<WorkerHost>,
    stats: Stats,
    capabilities: Capabilities,
  ) {
    this.lastStats = stats;
    this.lastCapabilities = capabilities;
    // An uncaught error in the worker may leave calls unanswered: fail them instead of hanging.
    worker.addEventListener('error', (e) => {
      const err = new ProverError('WORKER_FAILED', `the prover's worker failed${e.message ? ` (${e.message})` : ''}; create a new prover`);
      for (const fail of this.pending) fail(err);
      this.pending.clear();
    });
  }

  stats(): Stats {
    return this.lastStats;
  }

  /** As of the last reply (a family moves to the CPU during a call, which then replies). */
  capabilities(): Capabilities {
    return this.lastCapabilities;
  }

  /**
   * Call `method` on the prover (target 0) or on the handle `target`, as the caller passed the
   * arguments. A caller's `out` array stays here: the worker's result is copied into it.
   */
  call(target: number, method: string, given: unknown[]): Promise<unknown> {
    if (this.destroyed) return Promise.reject(destroyedError());
    let args = given;
    let out: Uint32Array | undefined;
    try {
      ({ args, out } = takeOut(given));
    } catch (e) {
      return Promise.reject(e);
    }
    const posted = this.inOrder(!curveLoaded() && (POINT_METHODS.has(method) || mayHoldPoints(args)), () =>
      this.post(target, method, args),
    );
    return posted.then((v) => (out ? intoOut(out, v, (x) => this.releaseHandles(x)) : v));
  }

  /** A load of noble's curve in flight: later calls wait for it too, so calls reach the worker in call order. */
  private curveGate: Promise<void> | undefined;

  private inOrder(needsCurve: boolean, post: () => Promise<unknown>): Promise<unknown> {
    if (needsCurve && !this.curveGate) {
      const gate: Promise<void> = loadCurve().finally(() => {
        if (this.curveGate === gate) this.curveGate = undefined;
      });
      this.curveGate = gate;
    }
    const gate = this.curveGate;
    if (!gate) return post();
    // A call that needs no point goes on even if the curve's chunk failed to load.
    return needsCurve ? gate.then(post) : gate.then(post, post);
  }

  private post(target: number, method: string, args: unknown[]): Promise<unknown> {
    const hooks: ArgHooks = {
      challengers: [],
      handleId: (v) => (v instanceof RemoteHandle ? (v.client === this ? v.id : 'foreign') : undefined),
    };
    let encoded: unknown[];
    try {
      encoded = encodeArgs(args, hooks);
    } catch (e) {
      return Promise.reject(e);
    }
    const transfer = wantsTransfer(args) ? buffersOf(encoded) : [];
    const jobId = this.nextJob++;
    const signal = hooks.signal;
    const progress = hooks.onProgress && Comlink.proxy(hooks.onProgress);
    return new Promise<unknown>((resolve, rejectOnce) => {
      // Rejected here first (abort, destroy), the caller must not see the worker's late answer
      // either: not its result, and not a challenger advanced by a job it was told was aborted.
      let rejected = false;
      const reject = (e: unknown) => {
        rejected = true;
        rejectOnce(e);
      };
      const fail = (e: Error) => reject(e);
      this.pending.add(fail);
      const onAbort = () => {
        void this.remote.abort(jobId).catch(() => {});
        reject(abortError(method, signal));
      };
      let posted: Promise<Reply>;
      try {
        posted = this.remote.call(target, method, Comlink.transfer(encoded, transfer), jobId, signal?.aborted === true, progress);
      } catch (e) {
        posted = Promise.reject(e);
      }
      // After the call is posted, so the worker has the job's controller when a later abort arrives.
      if (signal?.aborted) reject(abortError(method, signal));
      else signal?.addEventListener('abort', onAbort, { once: true });
      posted
        .then(
          (reply) => {
            if (reply.stats) this.lastStats = reply.stats;
            if (reply.capabilities) this.lastCapabilities = reply.capabilities;
            // Rejected here already (an abort raced the job's end): free the handles it made.
            if (rejected) {
              if (reply.ok) this.releaseHandles(reply.value);
              return;
            }
            reply.challengers.forEach((s, i) => hooks.challengers[i]?.restore(s));
            if (reply.ok) resolve(this.decode(reply.value));
            else reject(rebuild(reply.error));
          },
          (e: unknown) => {
            // postMessage refused an argument (a Proxy, a class with private state): bad input.
            reject(
              e instanceof Error && e.name === 'DataCloneError'
                ? new ProverError(
                    'INVALID_ARGUMENT',
                    `${method}: an argument cannot be sent to the prover's worker (${e.message}); pass plain arrays, typed arrays and option objects`,
                  )
                : e,
            );
          },
        )
        .finally(() => {
          this.pending.delete(fail);
          signal?.removeEventListener('abort', onAbort);
        });
    });
  }

  /** Free in the worker every handle a result holds that no caller will see. */
  private releaseHandles(v: unknown): void {
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return;
    const t = v as Record<string, unknown>;
    if (Object.hasOwn(t, '$h')) void this.remote.release(t.$h as number).catch(() => {});
    else for (const x of Object.values(t)) this.releaseHandles(x);
  }

  /** Results as the caller's objects: handles as proxies, points as the caller's noble points. */
  private decode(v: unknown): unknown {
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return v;
    const t = v as Record<string, unknown>;
    if (Object.hasOwn(t, '$point')) return unpackPoint(t.$point as Uint8Array);
    if (Object.hasOwn(t, '$h')) return this.handle(t.$h as number, t.kind as HandleKind, t.props as Record<string, unknown>);
    if (Array.isArray(v)) return v.map((x) => this.decode(x));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(t)) out[k] = this.decode(x);
    return out;
  }

  private handle(id: number, kind: HandleKind, props: Record<string, unknown>): object {
    const h = new RemoteHandle(this, id, kind);
    const call =
      (method: string) =>
      (...args: unknown[]) =>
        this.call(id, method, args);
    const free = (method: string) => () => {
      if (h.dead) return;
      h.dead = true;
      if (!this.destroyed) void this.call(id, method, []).catch(() => {});
    };
    const { calls, free: freeName } = HANDLE_METHODS[kind];
    const { fixed, ...rest } = props as { fixed: Record<string, unknown> };
    Object.assign(h, rest, Object.fromEntries(calls.map((m) => [m, call(m)])), { [freeName]: free(freeName) });
    for (const [k, v] of Object.entries(fixed)) Object.assign(h, { [k]: () => structuredClone(v) });
    this.registry.register(h, id);
    return h;
  }

  lost(): Promise<string> {
    return this.remote.lost();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const fail of this.pending) fail(destroyedError());
    this.pending.clear();
    const end = () => {
      this.remote[Comlink.releaseProxy]();
      this.worker.terminate();
    };
    this.remote.destroy().then(end, end);
  }
}

/** The caller's `out` (checked as in-thread: a Uint32Array, never with gpu: true), and the arguments without it. */
function takeOut(args: unknown[]): { args: unknown[]; out?: Uint32Array } {
  const i = args.findIndex(
    (a) => typeof a === 'object' && a !== null && !ArrayBuffer.isView(a) && !Array.isArray(a) && (a as { out?: unknown }).out !== undefined,
  );
  if (i < 0) return { args };
  const opts = args[i] as { out: unknown; gpu?: unknown };
  const out = optionalOut(opts.out, isTypedArray(opts.out, 'Uint32Array') ? opts.out.length : 0);
  if (opts.gpu === true)
    throw new ProverError('INVALID_ARGUMENT', 'out and gpu: true exclude each other (a result kept on the GPU is not written to an array)');
  const copy = [...args];
  copy[i] = { ...opts, out: undefined };
  return { args: copy, out };
}

/** The worker's result written into the caller's `out` (INVALID_LENGTH, as in-thread, when it is not the result's length). */
function intoOut(out: Uint32Array, v: unknown, release: (v: unknown) => void): Uint32Array {
  if (!(v instanceof Uint32Array)) {
    release(v);
    throw new ProverError('INVALID_ARGUMENT', 'out was given to a call whose result is not an array');
  }
  optionalOut(out, v.length); // the length check and message validation gives in-thread
  out.set(v);
  return out;
}

/** `{ transfer: true }` in any top-level options argument: the caller gives up its input buffers. */
function wantsTransfer(args: readonly unknown[]): boolean {
  return args.some((a) => typeof a === 'object' && a !== null && !ArrayBuffer.isView(a) && (a as { transfer?: unknown }).transfer === true);
}

function buffersOf(encoded: readonly unknown[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown) => {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && !(v.buffer as ArrayBuffer & { resizable?: boolean }).resizable) out.add(v.buffer);
    } else if (typeof v === 'object' && v !== null) {
      for (const x of Object.values(v)) visit(x);
    }
  };
  encoded.forEach(visit);
  return [...out];
}

/** A prover served by `worker` (started by createProver or by the caller). */
export async function workerProver(worker: Worker, options: ProverOptions): Promise<Prover> {
  const remote = Comlink.wrap<WorkerHost>(worker);
  const { gpu: _gpu, worker: _worker, ...rest } = options;
  // A worker script that does not load (a 404, a wrong MIME type, a bundler that did not emit it)
  // fires 'error' and never answers: without this race createProver would never settle.
  let onError: (e: Event) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    onError = (e) =>
      reject(
        new ProverError(
          'WORKER_FAILED',
          `the prover's worker did not start${(e as ErrorEvent).message ? ` (${(e as ErrorEvent).message})` : ''}; ` +
            "check that your bundler emitted webgpu-prover's worker (docs/worker.md), or pass { worker } with one you start, or { worker: false }",
        ),
      );
    worker.addEventListener('error', onError, { once: true });
  });
  const init = await Promise.race([remote.init(rest), failed])
    .catch((e: unknown) => {
      remote[Comlink.releaseProxy]();
      worker.terminate();
      throw e;
    })
    .finally(() => worker.removeEventListener('error', onError));
  if (!init.ok) {
    remote[Comlink.releaseProxy]();
    worker.terminate();
    throw rebuild(init.error);
  }
  const client = new WorkerClient(worker, remote, init.stats, init.capabilities);
  const info: ProverInfo = { ...init.info, worker: true };
  const m =
    (name: string) =>
    (...args: unknown[]) =>
      client.call(0, name, args);
  const prover = {
    info,
    stats: () => client.stats(),
    capabilities: () => client.capabilities(),
    lost: client.lost(),
    destroy: () => client.destroy(),
    ...Object.fromEntries(PROVER_CALLS.map((name) => [name, m(name)])),
    whir: (o: WhirOptions) => whirInstance(prover as unknown as Prover, o),
    [LOSE_DEVICE]: () => void remote.loseDevice(),
    [CORRUPT_FAMILY]: (f: Family) => remote.corruptFamily(f),
  };
  return prover as unknown as Prover;
}
