/**
 * Public facet: BN254 G1 multi-scalar multiplication (prover.msm, prover.msmBases and its handle's
 * msm, msmBatch, msmProfiled, stats). Packed points are uploaded as they are (noble points
 * encoded on the host) and range-checked, converted and curve-checked on the GPU; scalars go to
 * the GPU as the caller packed them (one copy), where msm_split.wgsl makes the sort's half-planes
 * and checks their range. A job's runs (kernels/msm/runs.ts: parts, and every vector of a batch)
 * are submitted back to back (kernels/msm/job.ts); the GPU returns one sum per c-bit window of
 * each run, and the host adds a vector's and folds them by Horner (kernels/msm/fold.ts).
 * @module
 */
import { ProverError } from '../errors.js';
import {
  pointCount,
  pointWords,
  requireBatch,
  requireMsmOptions,
  requireOneShotOptions,
  requireSlice,
  scalarCount,
  scalarWords,
  type G1Point,
  type MsmCall,
  type MsmOptions,
  type MsmPoints,
  type MsmScalars,
  type PointWords,
} from './msm-encode.js';
import { requireMsmTuning } from './msm-tuning.js';
import { BasesUpload, type BasesCheck } from '../kernels/msm/bases.js';
import type { Engine } from '../kernels/msm/engines.js';
import { runMsmJob, type JobResult, type JobVector } from '../kernels/msm/job.js';
import { msmRuns, type BasesChunk, type MsmJobPlan, type MsmRun } from '../kernels/msm/runs.js';
import type { MsmPlan, MsmTuning } from '../kernels/msm/plan.js';
import type { ProfileReport } from '../gpu/profiler.js';
import type { ApiEnv } from './env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';

export type { G1Point, MsmOptions, MsmPoints, MsmScalars, ScalarEndian } from './msm-encode.js';

export interface MsmRunInfo {
  point: G1Point;
  /** the plan of each run the job was cut into (kernels/msm/runs.ts) */
  plans: MsmPlan[];
  profiles: (ProfileReport | null)[];
  /**
   * The engine each run took: 'walker', or 'quick' while the walker's pipelines were compiling
   * (kernels/msm/engines.ts; a profiled call always takes the walker).
   */
  engines: Engine[];
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

/** Bases split into chunks that each fit one storage binding (the bases bind as one buffer a run). */
function basesChunks(ctx: ApiEnv['ctx'], n: number): BasesChunk[] {
  const chunk = Math.floor(Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize) / 64);
  const out: BasesChunk[] = [];
  for (let start = 0; start < n; start += chunk) out.push({ start, n: Math.min(chunk, n - start) });
  return out;
}

/** The first bad point the checks of each chunk found (chunks in order), as its ProverError. */
function pointError(chunks: readonly BasesChunk[], checks: readonly BasesCheck[]): ProverError | undefined {
  for (const [k, { big, bad }] of checks.entries()) {
    const start = chunks[k].start;
    if (big >= 0) return new ProverError('NON_CANONICAL', `point ${start + big}: coordinate >= p; encode x, y reduced mod p`);
    if (bad >= 0) return new ProverError('NOT_ON_CURVE', `point ${start + bad} is not on BN254 G1 (y^2 != x^3 + 3)`);
  }
  return undefined;
}

/** The job's results as infos, or the NON_CANONICAL error of its first vector with a scalar >= r. */
function jobInfos(job: JobResult, plan: MsmJobPlan, batch: boolean): MsmRunInfo[] {
  const bad = job.vectors.findIndex((v) => v.bad >= 0);
  if (bad >= 0) {
    const at = batch ? `scalars[${bad}][${job.vectors[bad].bad}]` : `scalar ${job.vectors[bad].bad}`;
    throw new ProverError('NON_CANONICAL', `${at} is >= r; reduce it mod r`);
  }
  const plans = plan.runs.map((r) => r.plan);
  const hostMs = job.hostMs / job.vectors.length;
  return job.vectors.map((v) => ({ point: v.point, plans, profiles: v.profiles, engines: v.engines, poolBytes: v.poolBytes, hostMs }));
}

/** A BasesUpload for chunk `c` of the points pointWords encoded. */
function openChunk(ctx: ApiEnv['ctx'], p: PointWords, c: BasesChunk): Promise<BasesUpload> {
  const { start, n } = c;
  return BasesUpload.open(ctx, p.words.subarray(16 * start, 16 * (start + n)), n, p.encoding, p.z?.subarray(8 * start, 8 * (start + n)));
}

/**
 * prover.msm: the bases are copied in and converted run by run (BasesUpload), each run submitted
 * as soon as its bases are converted, so the copy of part k + 1's bases overlaps part k on the GPU.
 * The checks' flags are read with the job's results: a bad point anywhere fails the call, and no
 * result comes back. `tuning` is for checks that force a job into parts.
 */
export async function oneShotMsm(
  { ctx, sched, alive }: ApiEnv,
  points: MsmPoints,
  scalars: MsmScalars,
  opts?: MsmOptions,
  tuning: MsmTuning = {},
): Promise<G1Point> {
  alive();
  const n = pointCount(points);
  const call = requireOneShotOptions(opts, n);
  // The scalars' host-side checks before the points' encoding, so bad input fails fast.
  const v = scalarWords(scalars, n, call.endian);
  const encoded = pointWords(points);
  const chunks = basesChunks(ctx, n);
  const plan = msmRuns(chunks, 0, n, tuning, ctx.workgroup);
  const { job, checks } = await sched.run('msm', call.job, async () => {
    const uploads: BasesUpload[] = [];
    try {
      for (const c of chunks) uploads.push(await openChunk(ctx, encoded, c));
      const basesOf = async (r: MsmRun) => {
        await uploads[r.chunk].upTo(r.base0 + r.n);
        return uploads[r.chunk].buf;
      };
      const job = await runMsmJob(ctx, plan, [v], basesOf, false);
      for (const u of uploads) await u.upTo(u.n); // every point checked, also any no run reads
      return { job, checks: await Promise.all(uploads.map((u) => u.check())) };
    } finally {
      for (const u of uploads) u.release();
    }
  });
  const bad = pointError(chunks, checks);
  if (bad) throw bad;
  return jobInfos(job.finish(), plan, false)[0].point;
}

/**
 * Bases converted and uploaded: the public handle (prover.msmBases), and the Groth16 key's
 * point sections (words as a zkey stores them, 'le-mont').
 */
export async function openMsmBases(env: ApiEnv, encoded: PointWords, job: JobOptions): Promise<MsmBases> {
  const { ctx, sched, alive } = env;
  alive();
  const n = encoded.n;
  const chunks = basesChunks(ctx, n);
  const bufs: GPUBuffer[] = [];
  await sched.run('msmBases', job, async () => {
    try {
      for (const c of chunks) {
        const u = await openChunk(ctx, encoded, c);
        bufs.push(u.buf);
        try {
          await u.upTo(c.n);
          const bad = pointError([c], [await u.check()]);
          if (bad) throw bad;
        } finally {
          u.release(true);
        }
      }
    } catch (e) {
      for (const b of bufs) ctx.pool.release(b);
      throw e;
    }
  });
  let destroyed = false;
  // Job plans are cached by msmRuns (its search is the same for every call of a shape).
  const planFor = (tuning: MsmTuning, offset: number, m: number): MsmJobPlan => msmRuns(chunks, offset, m, tuning, ctx.workgroup);
  /**
   * Vectors of m scalar words each over bases [offset, offset + m), as one job (kernels/msm/job.ts);
   * the last vector's fold runs after the job, so the next queued job's GPU work starts.
   */
  const run = async (
    vectors: readonly JobVector[],
    offset: number,
    m: number,
    tuning: MsmTuning,
    profile: boolean,
    job: JobOptions,
  ): Promise<MsmRunInfo[]> => {
    alive();
    if (destroyed) throw new ProverError('DESTROYED', 'this msmBases handle was destroyed; call prover.msmBases(points) again');
    const t0 = performance.now();
    const plan = planFor(tuning, offset, m);
    const planMs = performance.now() - t0;
    const done = await sched.run('msm', job, () => runMsmJob(ctx, plan, vectors, (r) => bufs[r.chunk], profile));
    const result = done.finish();
    return jobInfos({ ...result, hostMs: result.hostMs + planMs }, plan, vectors.length > 1);
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
  return {
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
      for (const b of bufs) ctx.pool.release(b);
    },
  };
}

export function msmMethods(env: ApiEnv): MsmMethods {
  return {
    msmBases: (points, job) => {
      env.alive();
      return openMsmBases(env, pointWords(points), requireJobOptions('msmBases job options', job));
    },
    msm: (points, scalars, opts) => oneShotMsm(env, points, scalars, opts),
  };
}
