/**
 * Public facet: BN254 G1 multi-scalar multiplication (prover.msm, prover.msmBases).
 * Inputs are encoded and range-checked in msm-encode.ts (NOT_ON_CURVE on the GPU during the bases upload), the GPU returns
 * one sum per c-bit window, and the host folds them by Horner (msm-fold.ts).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError } from '../errors.js';
import { foldWindows } from './msm-fold.js';
import { encodePoints, encodeScalars, pointCount, type G1Point, type MsmPoints, type MsmScalars } from './msm-encode.js';
import { requireMsmTuning } from './msm-tuning.js';
import { runMsm, uploadBases } from '../kernels/msm.js';
import { msmPlan, SCALAR_HALVES, type MsmPlan, type MsmTuning } from '../kernels/msm-plan.js';
import type { ProfileReport } from '../gpu/profiler.js';
import type { ApiEnv } from './env.js';
import { jobParts, requireJobOptions, type JobOptions } from '../sched/job.js';

const G1 = bn254.G1.Point;
export type { G1Point, MsmPoints, MsmScalars } from './msm-encode.js';

export interface MsmRunInfo {
  point: G1Point;
  plans: MsmPlan[];
  profiles: (ProfileReport | null)[];
  poolBytes: number;
}

export interface MsmBases {
  readonly n: number;
  /**
   * sum_i scalars[i]·points[i]
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, DESTROYED (the handle or its prover), DEVICE_LOST, GPU_ERROR
   */
  msm(scalars: MsmScalars, job?: JobOptions): Promise<G1Point>;
  /**
   * msm() with the plan, per-pass GPU times (timestamp-query where available) and pool bytes;
   * `tuning` overrides the plan's choices (benches, tests; ranges in msm-tuning.ts).
   * @throws ProverError as msm(), and INVALID_ARGUMENT for a tuning field out of range or unknown
   */
  msmProfiled(scalars: MsmScalars, tuning?: MsmTuning, job?: JobOptions): Promise<MsmRunInfo>;
  destroy(): void;
}

export interface MsmMethods {
  /**
   * sum_i scalars[i]·points[i] on BN254 G1, equal to @noble/curves' pippenger.
   * @throws ProverError INVALID_ARGUMENT (types, sparse arrays), INVALID_LENGTH (empty, mismatch, bad byte length), NON_CANONICAL (coordinate >= p or scalar >= r), NOT_ON_CURVE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const q = await prover.msm([G, G.double()], [2n, 3n]);
   */
  msm(points: MsmPoints, scalars: MsmScalars, job?: JobOptions): Promise<G1Point>;
  /**
   * Convert and upload the bases once (an SRS); then `handle.msm(scalars)` many times.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, NOT_ON_CURVE, DESTROYED, DEVICE_LOST, GPU_ERROR
   */
  msmBases(points: MsmPoints, job?: JobOptions): Promise<MsmBases>;
}

/** Scalars msm() has already checked and encoded as half-planes (a class: a caller's object cannot pass as one). */
class Encoded {
  constructor(readonly halves: Uint16Array<ArrayBuffer>) {}
}

export function msmMethods({ ctx, sched, alive }: ApiEnv): MsmMethods {
  /** Bases converted and uploaded: the public handle, and its run for scalars already encoded. */
  async function openBases(points: MsmPoints, job: JobOptions) {
    alive();
    const { words, n, identity } = encodePoints(points);
    // Bases bind as one storage buffer: split into chunks that fit the binding limit.
    const maxBytes = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    const chunk = Math.floor(maxBytes / 64);
    const chunks: { buf: GPUBuffer; start: number; n: number }[] = [];
    await sched.run('msmBases', job, async () => {
      try {
        for (let start = 0; start < n; start += chunk) {
          const m = Math.min(chunk, n - start);
          const { buf, bad } = await uploadBases(ctx, words.subarray(16 * start, 16 * (start + m)), m);
          chunks.push({ buf, start, n: m });
          if (bad >= 0) throw new ProverError('NOT_ON_CURVE', `point ${start + bad} is not on BN254 G1 (y^2 != x^3 + 3)`);
        }
      } catch (e) {
        for (const c of chunks) ctx.pool.release(c.buf);
        throw e;
      }
    });
    let destroyed = false;
    // The half-planes array of the last finished run, reused: a fresh 32 MiB one at 2^20 costs
    // 20-50 ms of first-touch page faults. A run that finds none (another in flight) allocates.
    let spare: Uint16Array<ArrayBuffer> | undefined;
    // Plans by tuning, one per chunk: msmPlan's search costs 1.5-5 ms of CPU, a third of a small
    // MSM's end-to-end time, and its answer depends only on n, the tuning and the device.
    const plans = new Map<string, MsmPlan[]>();
    const planFor = (tuning: MsmTuning): MsmPlan[] => {
      const key = JSON.stringify(tuning);
      let p = plans.get(key);
      if (!p) {
        if (plans.size >= 16) plans.clear();
        p = chunks.map((c) => Object.freeze(msmPlan(c.n, tuning, ctx.workgroup)));
        plans.set(key, p);
      }
      return p;
    };
    const run = async (scalars: MsmScalars | Encoded, tuningIn: unknown, profile: boolean, job: unknown): Promise<MsmRunInfo> => {
      alive();
      const jobOpts = requireJobOptions('msm job options', job);
      if (destroyed) throw new ProverError('DESTROYED', 'this msmBases handle was destroyed; call prover.msmBases(points) again');
      const tuning = requireMsmTuning(tuningIn, ctx.workgroup);
      const sw = scalars instanceof Encoded ? scalars.halves : encodeScalars(scalars, n, spare);
      spare = undefined;
      for (const i of identity) for (let h = 0; h < SCALAR_HALVES; h++) sw[h * n + i] = 0;
      const runs = await sched.run('msm', jobOpts, async () => {
        const out: { plan: MsmPlan; windows: Uint32Array; profile: ProfileReport | null; poolBytes: number }[] = [];
        const chunkPlans = planFor(tuning);
        for (const [k, c] of chunks.entries()) {
          const plan = chunkPlans[k];
          out.push({ plan, ...(await runMsm(ctx, c.buf, { halves: sw, stride: n, start: c.start }, plan, profile)) });
        }
        return out;
      }).finally(() => { spare = sw; });
      // The fold is CPU work (~3 ms): outside the job, so the next queued job's GPU work starts.
      const point = runs.reduce((acc, r) => acc.add(foldWindows(r.windows, r.plan)), G1.ZERO);
      return { point, plans: runs.map((r) => r.plan), profiles: runs.map((r) => r.profile), poolBytes: Math.max(...runs.map((r) => r.poolBytes)) };
    };
    const bases: MsmBases = {
      n,
      msm: async (scalars, job) => (await run(scalars, undefined, false, job)).point,
      msmProfiled: (scalars, tuning, job) => run(scalars, tuning, true, job),
      destroy() {
        if (destroyed) return;
        destroyed = true;
        spare = undefined;
        for (const c of chunks) ctx.pool.release(c.buf);
      },
    };
    return { bases, run };
  }
  return {
    msmBases: async (points, job) => (await openBases(points, requireJobOptions('msmBases job options', job))).bases,
    async msm(points, scalars, job) {
      alive();
      const part = jobParts('msm', requireJobOptions('msm job options', job));
      // Check the scalars before the (slower) bases upload so bad input fails fast; encoded once.
      const halves = encodeScalars(scalars, pointCount(points));
      const { bases, run } = await openBases(points, part());
      try {
        return (await run(new Encoded(halves), undefined, false, part())).point;
      } finally {
        bases.destroy();
      }
    },
  };
}
