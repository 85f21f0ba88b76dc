/**
 * One MSM job on the GPU: one or more scalar vectors over the same bases (msmBatch, or one vector),
 * each cut into the runs of its job plan (runs.ts; equal runs form a chain sharing one reduction,
 * run.ts startMsmChain), all submitted back to back: the host copies and encodes run k + 1 while
 * run k is on the GPU and reads nothing back in between, except to
 * keep the scalar copies waiting in the queue bounded (AHEAD_BYTES). Each run's window sums are
 * added into its vector's as they arrive, and a vector is folded (fold.ts) as soon as its last run
 * is read, while later vectors are still on the GPU: a job's CPU tail is one fold, not one per run.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import type { GpuContext } from '../../gpu/context.js';
import type { ProfileReport } from '../../gpu/profiler.js';
import { packedScalarBytes } from './buffers.js';
import { engineFor, quickSum, type Engine } from './engines.js';
import { addWindows, foldSums, jacAdd, toNoble, type Jac, type WindowSums } from './fold.js';
import { startQuickMsm, type QuickRunResult } from './quick.js';
import { startMsmChain, type MsmRunResult } from './run.js';
import type { MsmJobPlan, MsmRun } from './runs.js';

const G1 = bn254.G1.Point;
type G1Point = InstanceType<typeof G1>;

/**
 * Scalar bytes of the runs submitted and not yet read back. Copies below the ring's threshold go
 * through writeBuffer and wait in the queue's staging memory until the GPU reaches them (the
 * ring's copies are bounded by its slots anyway): 32 MiB is four parts of a 2^20 job ahead, ~32 ms
 * of H100 work, far more than the host needs to copy and encode the next one.
 */
const AHEAD_BYTES = 32 << 20;
/** Chains in flight whatever their size: one on the GPU, one being encoded. */
const MIN_AHEAD = 2;
/** And at most this many (small runs: each holds a readback buffer and, profiled, a query set). */
const MAX_AHEAD = 16;

/** One scalar vector of the job: its packed words (8 a scalar, big-endian bytes when `be`). */
export interface JobVector {
  words: Uint32Array;
  be: boolean;
}

export interface VectorResult {
  /** the vector's sum; the identity where `bad` >= 0 (the caller throws instead) */
  point: G1Point;
  /** the vector's first scalar >= r (its index in the vector), -1 if none */
  bad: number;
  profiles: (ProfileReport | null)[];
  /** the engine each run took (engines.ts) */
  engines: Engine[];
  /** pool bytes in use at the largest of its runs' submits */
  poolBytes: number;
}

export interface JobResult {
  vectors: VectorResult[];
  /** Milliseconds of host-side calls: copying, encoding and submitting the runs, adding and folding window sums. */
  hostMs: number;
}

/** A vector's window sums, added over its runs as they arrive (one list per window size). */
class VectorSums {
  private readonly byC = new Map<number, WindowSums>();
  /** the sum of the quick engine's runs (engines.ts) */
  private quick: Jac | undefined;
  bad = -1;
  profiles: (ProfileReport | null)[] = [];
  engines: Engine[] = [];
  poolBytes = 0;

  /** What every run reports, whichever engine ran it. */
  private took(k: number, engine: Engine, profile: ProfileReport | null, poolBytes: number): void {
    this.profiles[k] = profile;
    this.engines[k] = engine;
    this.poolBytes = Math.max(this.poolBytes, poolBytes);
  }

  /** A result's scalar >= r (its index from `run` on, -1 if none); false once the vector has one. */
  private flagged(run: MsmRun, bad: number): boolean {
    // Results arrive in order, so the first flagged one holds the smallest index.
    if (bad >= 0 && this.bad < 0) this.bad = run.start + bad;
    return this.bad < 0;
  }

  /** A walker chain's window sums (runs ks of the job, the chain's from `first` on). */
  add(first: MsmRun, r: MsmRunResult, ks: readonly number[]): void {
    ks.forEach((k, i) => this.took(k, 'walker', r.profiles[i], r.poolBytes));
    if (this.flagged(first, r.bad)) this.byC.set(first.plan.c, addWindows(this.byC.get(first.plan.c), r.windows, first.plan.T));
  }

  /** A quick run's partial sums. */
  addQuick(run: MsmRun, r: QuickRunResult, k: number): void {
    this.took(k, 'quick', r.profile, r.poolBytes);
    if (!this.flagged(run, r.bad)) return;
    const sum = quickSum(r);
    this.quick = this.quick ? jacAdd(this.quick, sum) : sum;
  }

  fold(): VectorResult {
    let point = G1.ZERO;
    if (this.bad < 0 && this.quick) point = toNoble(this.quick);
    if (this.bad < 0) for (const [c, sums] of this.byC) point = point.add(foldSums(sums, c));
    return { point, bad: this.bad, profiles: this.profiles, engines: this.engines, poolBytes: this.poolBytes };
  }
}

/**
 * Submit every run of every vector, in order, and read their window sums. `basesOf` gives the
 * buffer a run reads, once its bases are in it (the one-shot msm() uploads them run by run).
 * Resolves when every run is read back, with every vector but the last folded; `finish()` folds
 * that one (CPU work the caller may do after its GPU job has ended) and returns them all.
 */
export async function runMsmJob(
  ctx: GpuContext,
  plan: MsmJobPlan,
  vectors: readonly JobVector[],
  basesOf: (run: MsmRun) => GPUBuffer | Promise<GPUBuffer>,
  profile: boolean,
): Promise<{ finish: () => JobResult }> {
  let hostMs = 0;
  const timed = <T>(f: () => T): T => {
    const t0 = performance.now();
    try {
      return f();
    } finally {
      hostMs += performance.now() - t0;
    }
  };
  const sums = vectors.map(() => new VectorSums());
  const folded: (VectorResult | undefined)[] = vectors.map(() => undefined);
  const largest = Math.max(...plan.chains.map((c) => c.reduce((a, r) => a + r.n, 0)));
  const ahead = Math.min(MAX_AHEAD, Math.max(MIN_AHEAD, Math.floor(AHEAD_BYTES / packedScalarBytes(largest))));
  const reads: Promise<void>[] = [];
  const folds: Promise<void>[] = [];
  const index = new Map(plan.runs.map((r, k) => [r, k]));
  for (const [vi, v] of vectors.entries()) {
    const mine: Promise<void>[] = [];
    for (const chain of plan.chains) {
      if (reads.length >= ahead) await reads[reads.length - ahead];
      const first = chain[0];
      // A profiled job measures the walker's stages unless its tuning names the quick engine.
      const engine = await engineFor(ctx, first.plan, plan.engine ?? (profile ? 'walker' : undefined));
      ctx.engineRuns[`msm ${engine}`] = (ctx.engineRuns[`msm ${engine}`] ?? 0) + chain.length;
      const scalarsOf = (run: MsmRun) => ({ words: v.words, start: run.start, be: v.be });
      const started: Promise<void>[] = [];
      if (engine === 'quick') {
        for (const run of chain) {
          const bases = await basesOf(run);
          const t0 = performance.now();
          const { result } = await startQuickMsm(ctx, bases, run.base0, scalarsOf(run), run.n, profile);
          hostMs += performance.now() - t0;
          started.push(result.then((r) => timed(() => sums[vi].addQuick(run, r, index.get(run)!))));
        }
      } else {
        // The wait for each part's bases (the one-shot uploads them run by run) is not host work.
        let waited = 0;
        const bases = async (run: MsmRun) => {
          const t = performance.now();
          const b = await basesOf(run);
          waited += performance.now() - t;
          return b;
        };
        const t0 = performance.now();
        const parts = chain.map((run) => ({ bases: () => bases(run), base0: run.base0, scalars: scalarsOf(run) }));
        const { result } = await startMsmChain(ctx, first.plan, parts, profile);
        hostMs += performance.now() - t0 - waited;
        const ks = chain.map((run) => index.get(run)!);
        started.push(result.then((r) => timed(() => sums[vi].add(first, r, ks))));
      }
      for (const read of started) {
        read.catch(() => {}); // awaited below; this keeps an early failure from going unhandled meanwhile
        reads.push(read);
        mine.push(read);
      }
    }
    // Each vector but the last is folded as soon as its runs are in, while later vectors run.
    if (vi < vectors.length - 1) {
      const fold = Promise.all(mine).then(() => {
        folded[vi] = timed(() => sums[vi].fold());
      });
      fold.catch(() => {});
      folds.push(fold);
    }
  }
  await Promise.all([...reads, ...folds]);
  return {
    finish: () => {
      const out = folded.map((f, vi) => f ?? timed(() => sums[vi].fold()));
      return { vectors: out, hostMs };
    },
  };
}
