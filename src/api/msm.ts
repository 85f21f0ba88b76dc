/**
 * Public facet: BN254 G1 multi-scalar multiplication (prover.msm, prover.msmBases and its handle's
 * msm, msmBatch, msmProfiled, stats). Packed points are uploaded as they are (noble points
 * encoded on the host) and range-checked, converted and curve-checked on the GPU; scalars go to the GPU as the caller packed them (one copy),
 * where msm_split.wgsl makes the sort's half-planes and checks their range. The GPU returns one
 * sum per c-bit window of each run (kernels/msm/runs.ts) and the host folds them by Horner (kernels/msm/fold.ts).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError } from '../errors.js';
import { foldWindows } from '../kernels/msm/fold.js';
import {
  pointCount,
  pointWords,
  requireBatch,
  requireMsmOptions,
  requireSlice,
  scalarCount,
  scalarWords,
  type G1Point,
  type MsmCall,
  type MsmOptions,
  type MsmPoints,
  type MsmScalars,
} from './msm-encode.js';
import { requireMsmTuning } from './msm-tuning.js';
import { uploadBases } from '../kernels/msm/bases.js';
import { startMsm, type MsmRunResult } from '../kernels/msm/run.js';
import { msmRuns, type BasesChunk, type MsmJobPlan } from '../kernels/msm/runs.js';
import type { MsmPlan, MsmTuning } from '../kernels/msm/plan.js';
import type { ProfileReport } from '../gpu/profiler.js';
import type { ApiEnv } from './env.js';
import { jobParts, requireJobOptions, type JobOptions } from '../sched/job.js';

const G1 = bn254.G1.Point;
export type { G1Point, MsmOptions, MsmPoints, MsmScalars, ScalarEndian } from './msm-encode.js';

export interface MsmRunInfo {
  point: G1Point;
  /** the plan of each run the job was cut into (kernels/msm/runs.ts) */
  plans: MsmPlan[];
  profiles: (ProfileReport | null)[];
  poolBytes: number;
  /**
   * Milliseconds of this call's host-side work alone: checking and viewing the scalars, copying
   * them into the GPU queue, encoding and submitting each run, folding the window sums. Waits for
   * the GPU are left out: it is what a slower CPU (a phone's) adds to the GPU time.
   */
  hostMs: number;
}

/** What an msmBases handle holds on the GPU and what an MSM over it will take (plan estimates). */
export interface MsmBasesStats {
  n: number;
  /** GPU bytes of the bases: 64 a point (affine x, y in Montgomery form) */
  basesBytes: number;
  /** GPU bytes precomputed over the bases besides that: none (see docs/msm.md) */
  precomputedBytes: number;
  /** estimated peak GPU bytes of an msm over all n points: bases, packed scalars, working buffers */
  peakBytes: number;
  /** runs such an msm is cut into to stay within the memory budget (or the device's buffer limits) */
  runs: number;
}

export interface MsmBases {
  readonly n: number;
  /**
   * sum_i scalars[i]·points[offset + i] over these bases.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH (no scalars, or offset + length past n), NON_CANONICAL, DESTROYED (the handle or its prover), DEVICE_LOST, GPU_ERROR
   */
  msm(scalars: MsmScalars, opts?: MsmOptions): Promise<G1Point>;
  /**
   * msm() of several scalar vectors over the same bases (same offset and byte order), as one job:
   * each vector's GPU work is encoded and submitted while the one before it runs.
   * @throws ProverError as msm(), naming the vector at fault
   */
  msmBatch(scalars: readonly MsmScalars[], opts?: MsmOptions): Promise<G1Point[]>;
  /**
   * msm() with the plans, per-pass GPU times (timestamp-query where available) and pool bytes;
   * `tuning` overrides the plan's choices (benches, tests; ranges in msm-tuning.ts).
   * @throws ProverError as msm(), and INVALID_ARGUMENT for a tuning field out of range or unknown
   */
  msmProfiled(scalars: MsmScalars, tuning?: MsmTuning, opts?: MsmOptions): Promise<MsmRunInfo>;
  stats(): MsmBasesStats;
  destroy(): void;
}

export interface MsmMethods {
  /**
   * sum_i scalars[i]·points[i] on BN254 G1, equal to @noble/curves' pippenger.
   * @throws ProverError INVALID_ARGUMENT (types, sparse arrays), INVALID_LENGTH (empty, mismatch, bad byte length), NON_CANONICAL (coordinate >= p or scalar >= r), NOT_ON_CURVE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const q = await prover.msm([G, G.double()], [2n, 3n]);
   */
  msm(points: MsmPoints, scalars: MsmScalars, opts?: MsmOptions): Promise<G1Point>;
  /**
   * Convert and upload the bases once (an SRS); then `handle.msm(scalars)` many times.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, NOT_ON_CURVE, DESTROYED, DEVICE_LOST, GPU_ERROR
   */
  msmBases(points: MsmPoints, job?: JobOptions): Promise<MsmBases>;
}

/** Runs of a job submitted and not yet read back at once (msmBatch, a job cut into parts). */
const IN_FLIGHT = 2;

export function msmMethods({ ctx, sched, alive }: ApiEnv): MsmMethods {
  /** Bases converted and uploaded: the public handle, and its run over checked scalar words. */
  async function openBases(points: MsmPoints, job: JobOptions) {
    alive();
    const { words, n, be } = pointWords(points);
    // Bases bind as one storage buffer: split into chunks that fit the binding limit.
    const maxBytes = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    const chunk = Math.floor(maxBytes / 64);
    const chunks: (BasesChunk & { buf: GPUBuffer })[] = [];
    await sched.run('msmBases', job, async () => {
      try {
        for (let start = 0; start < n; start += chunk) {
          const m = Math.min(chunk, n - start);
          const { buf, bad, big } = await uploadBases(ctx, words.subarray(16 * start, 16 * (start + m)), m, be);
          chunks.push({ buf, start, n: m });
          if (big >= 0) throw new ProverError('NON_CANONICAL', `point ${start + big}: coordinate >= p; encode x, y reduced mod p`);
          if (bad >= 0) throw new ProverError('NOT_ON_CURVE', `point ${start + bad} is not on BN254 G1 (y^2 != x^3 + 3)`);
        }
      } catch (e) {
        for (const c of chunks) ctx.pool.release(c.buf);
        throw e;
      }
    });
    let destroyed = false;
    // Job plans by (tuning, offset, length): msmPlan's search costs 1.5-5 ms of CPU a plan, a third
    // of a small MSM's end-to-end time, and its answer depends only on these and the device.
    const plans = new Map<string, MsmJobPlan>();
    const planFor = (tuning: MsmTuning, offset: number, m: number): MsmJobPlan => {
      const key = JSON.stringify([tuning, offset, m]);
      let p = plans.get(key);
      if (!p) {
        if (plans.size >= 16) plans.clear();
        p = msmRuns(chunks, offset, m, tuning, ctx.workgroup);
        plans.set(key, p);
      }
      return p;
    };
    /**
     * Vectors of m scalar words each over bases [offset, offset + m), as one job: each vector's
     * runs in turn, the next submitted while one is on the GPU; the folds run after the job.
     */
    const run = async (
      vectors: readonly { words: Uint32Array; be: boolean }[],
      offset: number,
      m: number,
      tuning: MsmTuning,
      profile: boolean,
      job: JobOptions,
    ): Promise<MsmRunInfo[]> => {
      alive();
      if (destroyed) throw new ProverError('DESTROYED', 'this msmBases handle was destroyed; call prover.msmBases(points) again');
      let hostMs = 0;
      const timed = <T>(t0: number, v: T) => {
        hostMs += performance.now() - t0;
        return v;
      };
      const plan = timed(performance.now(), planFor(tuning, offset, m));
      const results = await sched.run('msm', job, async () => {
        const pending: Promise<MsmRunResult>[][] = [];
        // At most IN_FLIGHT runs submitted and unfinished: the next is encoded while one runs, and
        // the scalar copies waiting in the queue's staging memory stay at two runs' worth.
        const inFlight: Promise<unknown>[] = [];
        for (const v of vectors) {
          const each: Promise<MsmRunResult>[] = [];
          for (const r of plan.runs) {
            if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
            const t0 = performance.now();
            const started = timed(
              t0,
              await startMsm(ctx, chunks[r.chunk].buf, r.base0, { words: v.words, start: r.start, be: v.be }, r.plan, profile),
            ).result;
            each.push(started);
            inFlight.push(started);
          }
          pending.push(each);
        }
        return Promise.all(pending.map((each) => Promise.all(each)));
      });
      // The folds are CPU work (~3 ms each): outside the job, so the next queued job's GPU work starts.
      const t0 = performance.now();
      return results
        .map((runs, vi) => {
          let point = G1.ZERO;
          for (const [k, r] of runs.entries()) {
            if (r.bad >= 0) {
              const i = plan.runs[k].start + r.bad;
              const at = vectors.length > 1 ? `scalars[${vi}][${i}]` : `scalar ${i}`;
              throw new ProverError('NON_CANONICAL', `${at} is >= r; reduce it mod r`);
            }
            point = point.add(foldWindows(r.windows, plan.runs[k].plan));
          }
          return {
            point,
            plans: plan.runs.map((r) => r.plan),
            profiles: runs.map((r) => r.profile),
            poolBytes: Math.max(...runs.map((r) => r.poolBytes)),
            hostMs: 0,
          };
        })
        .map((info, _, all) => ({ ...info, hostMs: (hostMs + performance.now() - t0) / all.length }));
    };
    /** Checked words of one vector for a call with these options. */
    const vector = (scalars: MsmScalars, call: MsmCall, what = 'scalars') => {
      try {
        const m = scalarCount(scalars);
        requireSlice(m, call.offset, n);
        return { ...scalarWords(scalars, m, call.endian), m };
      } catch (e) {
        if (what !== 'scalars' && e instanceof ProverError) throw new ProverError(e.code, `${what}: ${e.message}`);
        throw e;
      }
    };
    const one = async (scalars: MsmScalars, tuningIn: unknown, profile: boolean, opts: unknown) => {
      alive();
      const call = requireMsmOptions(opts, n);
      const tuning = requireMsmTuning(tuningIn, ctx.workgroup);
      const t0 = performance.now();
      const v = vector(scalars, call);
      const checkMs = performance.now() - t0;
      const info = (await run([v], call.offset, v.m, tuning, profile, call.job))[0];
      return { ...info, hostMs: info.hostMs + checkMs };
    };
    const bases: MsmBases = {
      n,
      msm: async (scalars, opts) => (await one(scalars, undefined, false, opts)).point,
      msmProfiled: (scalars, tuning, opts) => one(scalars, tuning, true, opts),
      async msmBatch(list, opts) {
        alive();
        const call = requireMsmOptions(opts, n);
        const vs = requireBatch(list).map((s, i) => vector(s, call, `scalars[${i}]`));
        const m = vs[0].m;
        const other = vs.findIndex((v) => v.m !== m);
        if (other >= 0)
          throw new ProverError(
            'INVALID_LENGTH',
            `scalars[${other}] has ${vs[other].m} scalars, scalars[0] ${m}; msmBatch takes vectors of one length`,
          );
        return (await run(vs, call.offset, m, {}, false, call.job)).map((r) => r.point);
      },
      stats() {
        const p = planFor({}, 0, n);
        return { n, basesBytes: 64 * n, precomputedBytes: 0, peakBytes: p.poolBytes, runs: p.runs.length };
      },
      destroy() {
        if (destroyed) return;
        destroyed = true;
        for (const c of chunks) ctx.pool.release(c.buf);
      },
    };
    return { bases, run };
  }
  return {
    msmBases: async (points, job) => (await openBases(points, requireJobOptions('msmBases job options', job))).bases,
    async msm(points, scalars, opts) {
      alive();
      const n = pointCount(points);
      const call = requireMsmOptions(opts, n);
      if (call.offset !== 0)
        throw new ProverError(
          'INVALID_ARGUMENT',
          'prover.msm takes no offset (its points are the whole vector); use prover.msmBases(points) and bases.msm(scalars, { offset })',
        );
      const part = jobParts('msm', call.job);
      // Check the scalars before the (slower) bases upload so bad input fails fast.
      const v = scalarWords(scalars, n, call.endian);
      const { bases, run } = await openBases(points, part());
      try {
        return (await run([v], 0, n, {}, false, part()))[0].point;
      } finally {
        bases.destroy();
      }
    },
  };
}
