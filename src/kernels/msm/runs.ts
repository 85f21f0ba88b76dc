/**
 * The runs of one MSM job, a plain record computed once per (length, offset, tuning): the scalar
 * vector [offset, offset + m) of the bases is cut where the bases' buffers end (chunks split at
 * the device's binding limit) and, where one run's plan would pass MSM_MEM_BUDGET, into equal
 * parts, each an MSM of its own whose window sums the host folds and adds. The bases stay
 * resident whole, so every part counts them; a part counts only its own scalars. At 2^20 the
 * bases (64 MiB) and the caller's scalars (32 MiB) alone pass 100 MB, so the job runs as parts.
 * @module
 */
import type { WorkgroupLimits } from '../../gpu/context.js';
import { DEFAULT_WG_LIMITS, MSM_MEM_BUDGET, msmPlan, walkTarget, type MsmPlan, type MsmTuning } from './plan.js';

/** A contiguous range of the bases held in one GPU buffer. */
export interface BasesChunk {
  start: number;
  n: number;
}

export interface MsmRun {
  /** which bases chunk (buffer) the run reads */
  chunk: number;
  /** its first point within that chunk */
  base0: number;
  /** its first scalar within the caller's vector */
  start: number;
  n: number;
  plan: MsmPlan;
}

export interface MsmJobPlan {
  runs: MsmRun[];
  /**
   * The runs in chains: consecutive runs of one plan share one reduction on the walker (run.ts
   * startMsmChain), so a 2^20 job's four parts run their last reduction steps and final levels
   * once, not four times. Without chains (tuning `chains: false`) each run is its own.
   */
  chains: MsmRun[][];
  /** the engine every run must take (MsmTuning.engine); unset: engines.ts decides per run */
  engine?: 'quick' | 'walker';
  /** the largest run's estimated peak pool bytes (runs reuse each other's buffers) */
  poolBytes: number;
}

/** Smallest part a memory split makes: below it the per-run costs (submits, reductions) dominate. */
export const MIN_PART = 1 << 16;

/** Most parts a tuning may ask for. */
export const MAX_PARTS = 64;

/**
 * Parts of `len` points of a chunk of `basesN`: the tuning's, or among the splits whose plan fits
 * the budget the one whose walker reaches its thread target (a part with too few windows a batch
 * leaves the GPU half idle: at 2^20 two parts get 32768 walker threads, four get 65536), fewest
 * parts first.
 */
function partsFor(len: number, basesN: number, t: MsmTuning, limits: WorkgroupLimits): number {
  if (t.parts !== undefined) return Math.min(t.parts, len);
  // The older fixed-memory tunings keep one run (tests of plan shapes), and bases past the budget on
  // their own cannot be helped by cutting the scalars.
  if (t.lowMemory !== undefined || t.scratchBytes !== undefined || 64 * basesN >= MSM_MEM_BUDGET) return 1;
  let best = 0,
    bestThreads = -1;
  for (let parts = 1; parts === 1 || Math.ceil(len / parts) >= MIN_PART; parts *= 2) {
    const p = msmPlan(Math.ceil(len / parts), t, limits, basesN);
    if (p.poolBytes > MSM_MEM_BUDGET) continue;
    const threads = Math.min(p.walkThreads, walkTarget(p));
    if (threads > bestThreads) {
      best = parts;
      bestThreads = threads;
    }
    if (threads >= walkTarget(p)) break;
  }
  return best || 1;
}

/**
 * Runs of an MSM of `m` scalars over points [offset, offset + m) of bases held in `chunks` (in
 * order, contiguous from 0). Parts of one chunk are equal but the last; plans are shared by equal
 * lengths.
 */
export function msmRuns(chunks: readonly BasesChunk[], offset: number, m: number, t: MsmTuning = {}, limits?: WorkgroupLimits): MsmJobPlan {
  const key = JSON.stringify([chunks, offset, m, t, limits ?? null]);
  let plan = PLANS.get(key);
  if (!plan) {
    if (PLANS.size >= MAX_PLANS) PLANS.clear();
    plan = planRuns(chunks, offset, m, t, limits);
    PLANS.set(key, plan);
  }
  return plan;
}

/**
 * Job plans by msmRuns' arguments: the search over window sizes, shapes and parts took 11-30 ms
 * at 2^20 on a CI core (a quarter of a one-shot 2^20 MSM's time on the H100 past its GPU time),
 * and its answer depends only on them. Frozen: every caller of a shape shares one record.
 */
const PLANS = new Map<string, MsmJobPlan>();
const MAX_PLANS = 64;

function planRuns(chunks: readonly BasesChunk[], offset: number, m: number, t: MsmTuning, limits?: WorkgroupLimits): MsmJobPlan {
  const runs: MsmRun[] = [];
  const plans = new Map<string, MsmPlan>();
  const planOf = (n: number, basesN: number) => {
    const key = `${n}/${basesN}`;
    let p = plans.get(key);
    if (!p) plans.set(key, (p = Object.freeze(msmPlan(n, t, limits ?? DEFAULT_WG_LIMITS, basesN))));
    return p;
  };
  for (const [k, c] of chunks.entries()) {
    const lo = Math.max(offset, c.start),
      hi = Math.min(offset + m, c.start + c.n);
    if (lo >= hi) continue;
    const parts = partsFor(hi - lo, c.n, t, limits ?? DEFAULT_WG_LIMITS);
    const size = Math.ceil((hi - lo) / parts);
    for (let s = lo; s < hi; s += size) {
      const n = Math.min(size, hi - s);
      runs.push(Object.freeze({ chunk: k, base0: s - c.start, start: s - offset, n, plan: planOf(n, c.n) }));
    }
  }
  const chains: MsmRun[][] = [];
  for (const run of runs) {
    const last = chains[chains.length - 1];
    if (t.chains !== false && last && last[0].plan === run.plan) last.push(run);
    else chains.push([run]);
  }
  return Object.freeze({
    runs: Object.freeze(runs) as MsmRun[],
    chains: Object.freeze(chains.map((c) => Object.freeze(c) as MsmRun[])) as MsmRun[][],
    poolBytes: Math.max(...runs.map((r) => r.plan.poolBytes)),
    ...(t.engine ? { engine: t.engine } : {}),
  });
}
