/**
 * The family router: the Prover callers get, joining the GPU path and the CPU path. Each kernel
 * family (methods.ts) runs on the GPU until its self-check (checks/known-answer.ts) or a run-time
 * check of a result (checks/result-checks.ts) finds a wrong answer; from then on it runs on the
 * CPU (prover.capabilities() says which and why). Without WebGPU and with `fallback: 'cpu'`,
 * every family runs on the CPU. docs/checks.md is the user's side of this.
 * @module
 */
import { checkThreadStats } from './checks/check-thread-state.js';
import { isProverError, ProverError } from './errors.js';
import { FAMILIES, FAMILY_METHODS, HANDLE_METHODS, METHOD_FAMILY, type Family, type FamilyMethod } from './methods.js';
import type { Backend, Capabilities, CheckStats, Jobs, Prover } from './prover.js';
import { requireJobOptions, settledOrAborted, type CheckMode } from './sched/job.js';
import { DuplexChallenger } from './ref/challenger.js';
import { KNOWN_ANSWER } from './checks/known-answer.js';
import { nttCallSpec, poseidon2CallSpec } from './kernels/first-call.js';
import type { FirstShape } from './checks/known-jobs.js';
import {
  checkUnits,
  fullCheck,
  nttSample,
  sampleCheck,
  type CheckedCall,
  type CheckPaths,
  type NttSample,
} from './checks/result-checks.js';
import { CORRUPT_FAMILY, corrupting } from './checks/corrupt.js';
import type { CpuMatrix } from './cpu/ntt.js';
import { LOSE_DEVICE } from './device-recovery.js';
import type { MerkleTree } from './api/merkle.js';
import type { MsmBases } from './api/msm.js';
import type { MsmPoints } from './api/msm-encode.js';
import type { WhirMethods } from './whir/whir.js';
import { LIVE_DEVICE, type LiveDevice } from './device-recovery.js';
import { whirInstance } from './whir/facade.js';
import { loadPart } from './lazy.js';
import type { WhirOptions } from './whir/options.js';
import type { FileBytes, Groth16Key } from './groth16/key.js';
import type { Groth16FullProve } from './groth16/full-prove.js';
import { CheckBudget } from './checks/budget.js';

export interface RouterOptions {
  check: CheckMode;
  selfCheck: boolean;
}

interface FamilyState {
  path: 'gpu' | 'cpu';
  reason?: string;
  selfCheck?: Promise<void>;
  /** the first call's pipelines were requested (Backend.prefetch) */
  prefetched?: boolean;
  budget: CheckBudget;
}

/** The per-call options object of a call (the one carrying check, signal or onProgress), if any. */
function callOptions(args: readonly unknown[]): { check?: CheckMode; signal?: AbortSignal; out?: unknown } | undefined {
  for (let i = args.length - 1; i >= 0; i--) {
    const a = args[i];
    if (typeof a === 'object' && a !== null && !ArrayBuffer.isView(a) && !Array.isArray(a) && !(a instanceof DuplexChallenger))
      return a as never;
  }
  return undefined;
}

/**
 * Arguments for the GPU path: a CPU-path NttMatrix goes as its values (with its width). Known by
 * its peek() (the GPU's NttMatrix has none): cpu/ntt.ts loads with the NTT's CPU path, not here.
 */
function gpuArgs(args: unknown[]): unknown[] {
  const m = args[0] as CpuMatrix;
  if (typeof m !== 'object' || m === null || typeof m.peek !== 'function') return args;
  const opts = typeof args[1] === 'object' && args[1] !== null ? args[1] : {};
  return [m.peek(), { ...opts, width: m.width }, ...args.slice(2)];
}

/** Free the handles a rejected result holds. */
function release(v: unknown): void {
  const o = v as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || ArrayBuffer.isView(o)) return;
  const tree = o.tree as MerkleTree | undefined;
  tree?.dispose?.();
  for (const { free } of Object.values(HANDLE_METHODS)) if (typeof o[free] === 'function') (o[free] as () => void)();
}

/** Codes a known-answer job shaped after a bad call can get, as that call does. */
const INPUT_FAULTS: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'INVALID_LENGTH', 'NON_CANONICAL', 'TOO_LARGE']);

export function routeFamilies(gpu: Backend | undefined, cpu: Backend, opts: RouterOptions, noGpu?: string): Prover {
  const state = Object.fromEntries(
    FAMILIES.map((f): [Family, FamilyState] => [
      f,
      {
        path: gpu ? 'gpu' : 'cpu',
        ...(gpu ? {} : { reason: `no WebGPU (fallback: 'cpu'): ${noGpu ?? ''}`.trim() }),
        budget: new CheckBudget(),
      },
    ]),
  ) as Record<Family, FamilyState>;
  const corrupted = new Set<Family>();
  const checks: Omit<CheckStats, 'thread'> = { run: 0, ms: 0, failed: 0 };
  /** The GPU path as every call and check uses it (the test hook's corruption included). */
  const gpuPath: Jobs | undefined = gpu && corrupting(gpu, corrupted);
  const paths = { cpu, gpu: gpuPath } as CheckPaths;

  const moveToCpu = (f: Family, reason: string) => {
    state[f].path = 'cpu';
    state[f].reason = reason;
  };

  /**
   * The family's known-answer job on both paths, once (a failed GPU run counts as a wrong answer),
   * started by its first call: `m` and `args` (that call's), whose shape some families' jobs take.
   */
  const selfCheck = (f: Family, m?: FamilyMethod, args?: readonly unknown[]): Promise<void> =>
    (state[f].selfCheck ??= (async () => {
      const call: FirstShape | undefined = m && args ? { ntt: nttCallSpec(m, args), poseidon2: poseidon2CallSpec(m, args) } : undefined;
      try {
        // Side by side: the CPU half runs while the GPU's pipelines compile.
        const answers = (shape?: FirstShape) => Promise.all([KNOWN_ANSWER[f](gpuPath!, shape), KNOWN_ANSWER[f](cpu, shape, true)]);
        // A job shaped after a call whose input is bad (known-jobs.ts screens most) is refused as
        // the call will be: that is the call's fault, not the family's, so the fixed jobs run.
        const [onGpu, onCpu] = await answers(call).catch((e: unknown) => {
          if (call && isProverError(e) && INPUT_FAULTS.has(e.code)) return answers(undefined);
          throw e;
        });
        if (onGpu !== onCpu) moveToCpu(f, "self-check: the GPU's known-answer job differs from the CPU reference");
      } catch (e) {
        if (isProverError(e) && (e.code === 'DEVICE_LOST' || e.code === 'DESTROYED' || e.code === 'LOAD_FAILED')) {
          state[f].selfCheck = undefined; // not the family's fault: check again on the next job
          throw e;
        }
        moveToCpu(f, `self-check: the GPU's known-answer job failed (${e instanceof Error ? e.message : String(e)})`);
      }
    })());

  /** Check a GPU result as `mode` says; a wrong one is freed, moves the family and throws CHECK_FAILED. */
  async function check(
    f: Family,
    call: CheckedCall,
    mode: CheckMode,
    jobMs: number,
    early?: Promise<NttSample | undefined>,
  ): Promise<void> {
    if (mode === 'off' && call.method !== 'grind') return;
    if (call.method === 'groth16') return; // a key: its proofs are checked (groth16Prove)
    const units = checkUnits(call);
    // A grinding witness and a Groth16 proof are checked every time (their checks are cheap and sound).
    const always = call.method === 'grind' || call.method === 'groth16Prove';
    if (mode === 'sample' && !always && !state[f].budget.due(jobMs, units)) return;
    const sample = await early;
    const t0 = performance.now();
    const problem = await (mode === 'full' ? fullCheck(call, paths) : sampleCheck(call, paths, sample));
    // A sample computed while the GPU worked (nttSample) cost its time too: the next check's price.
    const ms = performance.now() - t0 + (sample?.ms ?? 0);
    // Only sampled checks price the next sample ('full' and the grind witness cost otherwise).
    if (mode === 'sample' && !always) state[f].budget.spent(ms, units);
    checks.run++;
    checks.ms += ms;
    if (!problem) return;
    checks.failed++;
    release(call.result);
    moveToCpu(f, `run-time check: ${problem}`);
    throw new ProverError(
      'CHECK_FAILED',
      `${f}: ${problem}; the ${f} family runs on the CPU from now on (prover.capabilities()). Please report your GPU and browser.`,
    );
  }

  /** A GPU-path result's handles, with their own calls checked (tree openings, MSMs on the bases, Groth16 proofs). */
  function wrapHandles(f: Family, result: unknown, points?: MsmPoints, groth16?: { zkey: FileBytes; gate?: Promise<void> }): unknown {
    if (typeof result !== 'object' || result === null || ArrayBuffer.isView(result)) return result;
    if (f === 'groth16' && groth16) {
      const { zkey, gate } = groth16;
      const key = result as Groth16Key;
      let gateSettled = false;
      void gate?.finally(() => (gateSettled = true)).catch(() => {});
      // The family's self-check, when this key's call started it (`gate`): an unverified proof waits
      // for it, and once it has moved the family, the key's proofs run on a key of the CPU path (as
      // the call would have).
      let onCpu: Promise<Groth16Key> | undefined;
      const cpuKey = () => {
        if (!onCpu) {
          key.destroy();
          onCpu = cpu.groth16(zkey);
        }
        return onCpu;
      };
      const prove: Groth16Key['prove'] = async (witness, jobIn) => {
        const job = requireJobOptions('prove job options', jobIn);
        const mode = job.check ?? opts.check;
        // A proof that will be verified needs no verdict of the self-check: it starts at once. One
        // that will not ('off') waits for it.
        if (mode === 'off') await settledOrAborted(gate, 'groth16 prove', job.signal);
        if ((state.groth16.path as FamilyState['path']) === 'cpu') return (await cpuKey()).prove(witness, job);
        const checking = gate !== undefined && !gateSettled;
        const t0 = performance.now();
        try {
          // The key learns the mode the proof is checked with (a checked proof starts its check early).
          const out = await key.prove(witness, { ...job, check: mode });
          await check(f, { method: 'groth16Prove', args: [witness], result: out, key, zkey }, mode, performance.now() - t0);
          return out;
        } catch (e) {
          // A proof made while the self-check ran that failed its check (or lost its key to the
          // family's move): once the family is on the CPU, the CPU serves it, as after the check.
          if (!checking || (isProverError(e) && (INPUT_FAULTS.has(e.code) || e.code === 'UNSATISFIED' || e.code === 'ABORTED'))) throw e;
          await gate.catch(() => {});
          if ((state.groth16.path as FamilyState['path']) !== 'cpu') throw e;
          return (await cpuKey()).prove(witness, job);
        }
      };
      const destroy = () => {
        key.destroy();
        onCpu?.then(
          (k) => k.destroy(),
          () => {},
        );
      };
      return { ...key, prove, destroy };
    }
    const o = result as { root?: Uint32Array; tree?: MerkleTree } | MsmBases;
    if ('tree' in o && o.tree) {
      const tree = o.tree;
      const open: MerkleTree['open'] = async (index, job) => {
        const t0 = performance.now();
        const opening = await tree.open(index, job);
        await check(
          f,
          { method: 'open', args: [index], result: opening, root: tree.root },
          job?.check ?? opts.check,
          performance.now() - t0,
        );
        return opening;
      };
      const openMany: MerkleTree['openMany'] = async (indices, job) => {
        const t0 = performance.now();
        const openings = await tree.openMany(indices, job);
        const each = (performance.now() - t0) / Math.max(1, openings.length);
        for (const [k, opening] of openings.entries()) {
          await check(f, { method: 'open', args: [indices[k]], result: opening, root: tree.root }, job?.check ?? opts.check, each);
        }
        return openings;
      };
      return { ...o, tree: { ...tree, open, openMany } };
    }
    if (f === 'msm' && 'msm' in o) {
      const bases = o;
      const msm: MsmBases['msm'] = async (scalars, o) => {
        const t0 = performance.now();
        const point = await bases.msm(scalars, o);
        await check(f, { method: 'basesMsm', args: [scalars, o], result: point, points }, o?.check ?? opts.check, performance.now() - t0);
        return point;
      };
      // Each vector of a batch is checked as the msm of its own it equals.
      const msmBatch: MsmBases['msmBatch'] = async (list, o) => {
        const t0 = performance.now();
        const out = await bases.msmBatch(list, o);
        const each = (performance.now() - t0) / Math.max(1, out.length);
        for (const [k, point] of out.entries()) {
          await check(f, { method: 'basesMsm', args: [list[k], o], result: point, points }, o?.check ?? opts.check, each);
        }
        return out;
      };
      return { ...bases, msm, msmBatch };
    }
    return result;
  }

  const route =
    (m: FamilyMethod) =>
    async (...args: unknown[]): Promise<unknown> => {
      const f = METHOD_FAMILY[m];
      if (!gpuPath || state[f].path !== 'gpu' || state[f].prefetched) return run(m, f, args);
      // The family's first call: compile all it and its self-check (when on) need in one wave.
      // Awaited until the requests are out (not compiled): the call's host work comes after them.
      // Background compiles it starts (an MSM walker's) wait until this call has settled.
      state[f].prefetched = true;
      let settled!: () => void;
      const done = new Promise<void>((r) => (settled = r));
      try {
        await gpu!.prefetch?.(m, args, opts.selfCheck, done);
        return await run(m, f, args);
      } finally {
        settled();
      }
    };

  /** One call of `m` (family `f`), its first call's compiles requested. */
  async function run(m: FamilyMethod, f: Family, args: unknown[]): Promise<unknown> {
    const callOpts = callOptions(args);
    // The family's self-check (on its first call; later calls find it settled) runs beside this
    // call's GPU job, so the call's host work (encoding, copies) overlaps the check's compiles:
    // a first MSM's 2^16 noble points took ~0.4 s to encode after the check had waited ~0.9 s.
    const checking = gpuPath && state[f].path === 'gpu' && opts.selfCheck && !callOpts?.signal?.aborted ? selfCheck(f, m, args) : undefined;
    const onCpu = () => (cpu[m] as (...a: unknown[]) => Promise<unknown>)(...args);
    if (!gpuPath || state[f].path === 'cpu') return onCpu();
    const given = [...gpuArgs(args)]; // a copy: the CPU may still run the call with `args` as given
    const challenger = m === 'grind' && args[0] instanceof DuplexChallenger ? args[0] : undefined;
    if (challenger) given[0] = challenger.clone(); // advanced below, once the witness is checked
    let mode = callOpts?.check ?? opts.check;
    // A result written over its input (out = the input) leaves nothing to sample; 'full' keeps a copy.
    const out = callOpts?.out;
    const inPlace = ArrayBuffer.isView(out) && given.some((a) => ArrayBuffer.isView(a) && a.buffer === out.buffer);
    if (inPlace && mode === 'sample') mode = 'off';
    const checkArgs = inPlace && mode === 'full' ? given.map((a) => (a instanceof Uint32Array ? a.slice() : a)) : given;
    const t0 = performance.now();
    const job = (gpuPath[m] as (...a: unknown[]) => Promise<unknown>)(...given);
    job.catch(() => {}); // awaited below; this keeps a failure during the check from going unhandled
    // A family's first result is always checked: its NTT sample is computed now, while the GPU works.
    const early = mode === 'sample' && !state[f].budget.priced ? nttSample(m, checkArgs).catch(() => undefined) : undefined;
    // A Groth16 key is handed out at once, its proofs checked on their own (wrapHandles): the key's
    // upload and the check's own proof wait on the same first compiles, and a first proof waited
    // for both in turn (H200 host: ~0.4 s of a 2 s first proof).
    const gate = m === 'groth16' ? checking : undefined;
    gate?.catch(() => {}); // a key never proved with does not leave it unhandled; prove() rethrows it
    if (checking && !gate) {
      // The result is handed out only once the check has passed; otherwise the job is let finish
      // (it may still write the caller's `out`), its result freed, and the call runs on the CPU.
      const drop = () => job.then(release, () => {});
      try {
        await checking;
      } catch (e) {
        await drop();
        throw e;
      }
      // (Read after the await: the check may have moved the family.)
      if ((state[f].path as FamilyState['path']) === 'cpu') {
        await drop();
        return onCpu();
      }
    }
    const result = await job.catch((e: unknown) => {
      // The GPU path's own checks (grind's witness) fail the same way as the router's.
      if (isProverError(e) && e.code === 'CHECK_FAILED') moveToCpu(f, `run-time check: ${e.message}`);
      throw e;
    });
    const call: CheckedCall = { method: m, args: checkArgs, result, before: challenger?.clone() };
    await check(f, call, mode, performance.now() - t0, early).catch((e: unknown) => {
      // A check that could not run (its code failed to load) leaves no result to hand out.
      if (!isProverError(e) || e.code !== 'CHECK_FAILED') release(result);
      throw e;
    });
    if (challenger) challenger.checkWitness(args[1] as number, result as number);
    return wrapHandles(
      f,
      result,
      m === 'msmBases' ? (args[0] as MsmPoints) : undefined,
      m === 'groth16' ? { zkey: args[0] as FileBytes, gate } : undefined,
    );
  }

  const prover = {
    get info() {
      return gpu?.info ?? cpu.info;
    },
    stats: () => ({ ...(gpu ?? cpu).stats(), checks: { ...checks, thread: checkThreadStats.state } }),
    get lost() {
      return (gpu ?? cpu).lost;
    },
    capabilities: (): Capabilities =>
      Object.fromEntries(
        FAMILIES.map((f) => [f, { path: state[f].path, ...(state[f].reason ? { reason: state[f].reason } : {}) }]),
      ) as Capabilities,
    destroy() {
      gpu?.destroy();
      cpu.destroy();
    },
    [LOSE_DEVICE]: () => (gpu as unknown as Record<symbol, () => void> | undefined)?.[LOSE_DEVICE]?.(),
    [CORRUPT_FAMILY]: (f: Family) => corrupted.add(f),
    // The CPU path compiles nothing; a family moved to it needs no pipelines either.
    warmUp: (families?: Parameters<Prover['warmUp']>[0]) => (gpu ? gpu.warmUp(families) : Promise.resolve()),
    ...Object.fromEntries(FAMILY_METHODS.map((m) => [m, route(m)])),
  };
  // The protocols run on the routed job methods, so they take each family's path and checks.
  const routed = prover as unknown as Prover;
  // WHIR's prover (~45 kB minified) is imported on the first commit: a page that never makes a WHIR
  // proof does not download it.
  let whir: Promise<WhirMethods> | undefined;
  const whirCommit: WhirMethods['whirCommit'] = async (options, evals, job) => {
    whir ??= loadPart("webgpu-prover's WHIR prover", () => import('./whir/whir.js')).then(
      (m) =>
        m.whirMethods(routed, {
          // WHIR commits on the GPU itself (its table and round codewords stay there), so the commit
          // family's self-check runs first, as before any commit job.
          gpu: async () => {
            if (!gpu || state.commit.path !== 'gpu') return null;
            if (opts.selfCheck) await selfCheck('commit');
            return state.commit.path === 'gpu'
              ? ((gpu as unknown as Record<symbol, () => Promise<LiveDevice>>)[LIVE_DEVICE]?.() ?? null)
              : null;
          },
          check: opts.check,
          onGpuFailure: () => {
            checks.failed++;
          },
        }),
      (e: unknown) => {
        whir = undefined; // a failed chunk fetch is retried by the next commit
        throw e;
      },
    );
    return (await whir).whirCommit(options, evals, job);
  };
  const groth16FullProve: Groth16FullProve['groth16FullProve'] = async (input, wasm, zkey, job) =>
    (await loadPart("webgpu-prover's Groth16 fullProve", () => import('./groth16/full-prove.js'))).fullProve(
      routed,
      input,
      wasm,
      zkey,
      job,
    );
  return Object.assign(routed, { whirCommit, groth16FullProve, whir: (o: WhirOptions) => whirInstance(routed, o) });
}
