/**
 * The worker side: an in-thread prover serving the client's calls (src/worker/client.ts) through
 * comlink. It keeps the GPU handles it returned in a table (the client holds ids), one
 * AbortController per job id (the client forwards aborts), and answers every call with a reply
 * record instead of throwing, so a ProverError's code, name and message cross intact.
 * @module
 */
import * as Comlink from 'comlink';
import { createLocalProver, type Capabilities, type Prover, type ProverInfo, type ProverOptions } from '../prover.js';
import { isProverError, ProverError } from '../errors.js';
import { decodeArgs, holdsPoint, isPoint, loadCurve, packPoint, type Tagged } from './codec.js';
import { handleKind, HANDLE_METHODS, PROVER_CALLS, type Family, type HandleKind } from '../methods.js';
import { CORRUPT_FAMILY } from '../checks/corrupt.js';
import type { ChallengerState, DuplexChallenger } from '../ref/challenger.js';
import { LOSE_DEVICE } from '../device-recovery.js';

/** Methods the client may call on the prover (target 0) or on a handle of `kind`. */
function callable(kind: 'Prover' | HandleKind, method: string): boolean {
  if (kind === 'Prover') return (PROVER_CALLS as readonly string[]).includes(method);
  const m = HANDLE_METHODS[kind];
  return method === m.free || (m.calls as readonly string[]).includes(method);
}

export interface WireError {
  name: string;
  message: string;
  code?: string;
}

export type Stats = ReturnType<Prover['stats']>;

/** What every reply carries besides the answer: the prover's state after the call, for the client's mirrors. */
export interface After {
  stats: Stats | undefined;
  capabilities: Capabilities | undefined;
  challengers: ChallengerState[];
}

export type Reply = After & ({ ok: true; value: unknown } | { ok: false; error: WireError });

type Progress = ((p: unknown) => void) & Partial<Record<typeof Comlink.releaseProxy, () => void>>;

export class WorkerHost {
  private prover: Prover | undefined;
  private readonly handles = new Map<number, { kind: HandleKind; obj: Record<string, unknown> }>();
  private nextId = 1;
  /** Controllers of the jobs in progress; the client posts a job's abort after its call. */
  private readonly jobs = new Map<number, AbortController>();

  async init(
    options: ProverOptions,
  ): Promise<{ ok: true; info: ProverInfo; stats: Stats; capabilities: Capabilities } | { ok: false; error: WireError }> {
    try {
      this.prover = await createLocalProver(options);
      return { ok: true, info: this.prover.info, stats: this.prover.stats(), capabilities: this.prover.capabilities() };
    } catch (e) {
      return { ok: false, error: wireError(e) };
    }
  }

  async call(target: number, method: string, args: unknown[], jobId: number, aborted: boolean, progress?: Progress): Promise<Reply> {
    const controller = new AbortController();
    if (aborted) controller.abort(); // the caller's signal had fired before the call
    this.jobs.set(jobId, controller);
    const challengers: DuplexChallenger[] = [];
    const after = (): After => ({
      stats: this.prover?.stats(),
      capabilities: this.prover?.capabilities(),
      challengers: challengers.map((c) => c.snapshot()),
    });
    try {
      const { obj, kind } = this.target(target);
      if (!callable(kind, method)) throw new ProverError('INVALID_ARGUMENT', `${kind} has no method ${method}`);
      // Points are decoded and encoded synchronously: noble's curve is loaded first for the MSM's
      // calls (its code loads noble anyway) and calls that carry a point, never for a page without them.
      if (kind === 'MsmBases' || method.startsWith('msm') || holdsPoint(args)) await loadCurve();
      const onProgress = progress && ((p: unknown) => void Promise.resolve(progress(p)).catch(() => {}));
      const decoded = decodeArgs(args, {
        handle: (id) => this.handles.get(id)?.obj ?? this.released(),
        signal: controller.signal,
        onProgress,
        challengers,
      });
      const value = await (obj[method] as (...a: unknown[]) => unknown)(...decoded);
      const transfer = new Set<ArrayBuffer>();
      const encoded = this.encodeResult(value, transfer);
      const reply: Reply = { ok: true, value: encoded, ...after() };
      return Comlink.transfer(reply, [...transfer]);
    } catch (e) {
      return { ok: false, error: wireError(e), ...after() };
    } finally {
      this.jobs.delete(jobId);
      progress?.[Comlink.releaseProxy]?.();
    }
  }

  /** Abort job `jobId` if it is still in progress (an abort after it settled changes nothing). */
  abort(jobId: number): void {
    this.jobs.get(jobId)?.abort();
  }

  /** The client dropped handle `id` (garbage-collected on its side): free its GPU memory. */
  release(id: number): void {
    const h = this.handles.get(id);
    this.handles.delete(id);
    if (h) (h.obj[HANDLE_METHODS[h.kind].free] as () => void)();
  }

  /** The test hook LOSE_DEVICE, forwarded from the page. */
  loseDevice(): void {
    (this.prover as unknown as Record<symbol, (() => void) | undefined> | undefined)?.[LOSE_DEVICE]?.();
  }

  /** The test hook CORRUPT_FAMILY, forwarded from the page. */
  corruptFamily(family: Family): void {
    (this.prover as unknown as Record<symbol, ((f: Family) => void) | undefined> | undefined)?.[CORRUPT_FAMILY]?.(family);
  }

  lost(): Promise<string> {
    return this.prover?.lost ?? new Promise(() => {});
  }

  destroy(): void {
    this.prover?.destroy();
    this.handles.clear();
  }

  private target(id: number): { obj: Record<string, unknown>; kind: 'Prover' | HandleKind } {
    if (id === 0) {
      if (!this.prover) throw new ProverError('DESTROYED', 'This prover was destroyed; call createProver() again.');
      return { obj: this.prover as unknown as Record<string, unknown>, kind: 'Prover' };
    }
    const h = this.handles.get(id);
    if (!h) this.released();
    return h!;
  }

  private released(): never {
    throw new ProverError('DESTROYED', 'this handle was released; create it again');
  }

  /** Results as clonable data: typed arrays transferred, handles into the table, points packed. */
  private encodeResult(v: unknown, transfer: Set<ArrayBuffer>): unknown {
    if (typeof v !== 'object' || v === null) return v;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) transfer.add(v.buffer);
      return v;
    }
    if (isPoint(v)) return { $point: packPoint(v) } satisfies Tagged;
    const kind = handleKind(v as Record<string, unknown>);
    if (kind) {
      const id = this.nextId++;
      const obj = v as Record<string, unknown>;
      this.handles.set(id, { kind, obj });
      const props: Record<string, unknown> = {};
      for (const k of ['height', 'width', 'n']) if (typeof obj[k] === 'number') props[k] = obj[k];
      if (typeof obj.field === 'string') props.field = obj.field; // an NttMatrix's field
      if (obj.root instanceof Uint32Array) props.root = obj.root.slice();
      // What a handle's fixed methods return (an MsmBases' stats): sent once, read by the page without a round trip.
      const fixed: Record<string, unknown> = {};
      for (const k of HANDLE_METHODS[kind].fixed) fixed[k] = (obj[k] as () => unknown)();
      props.fixed = fixed;
      return { $h: id, kind, props } satisfies Tagged;
    }
    if (Array.isArray(v)) return v.map((x) => this.encodeResult(x, transfer));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = this.encodeResult(x, transfer);
    return out;
  }
}

export function wireError(e: unknown): WireError {
  if (isProverError(e)) return { name: e.name, message: e.message, code: e.code };
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}
