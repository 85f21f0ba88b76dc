/**
 * MSM plan: window size c, slots per walker thread S, walker thread count, segment length of
 * the bucket reduction, and how many windows run per batch, chosen per n (pure; unit-tested).
 * @module
 */
import { bucketsPerWindow, windowCount } from '../ref/msm.js';

export interface MsmPlan {
  n: number;
  c: number;
  /** windows T = ceil(255 / c) */
  T: number;
  /** buckets per window 2^(c-1) */
  M: number;
  S: number;
  /** windows per batch */
  nwin: number;
  batches: number;
  /** walker threads for a batch of nwin windows */
  walkThreads: number;
  /** bucket-reduction segment length (power of two dividing M) and its log */
  seg: number;
  segLog: number;
}

export interface MsmTuning {
  c?: number;
  S?: number;
  /** slice length the walker aims for (entries per slot) */
  slice?: number;
  /** scratch bytes a batch may use (entries + bucket sums); default 8 MiB */
  scratchBytes?: number;
}

export const WALK_WG = 64;
export const SORT_WG = 256;
export const RED_WG = 64;
export const PREP_WG = 256;

/**
 * Relative cost per window, in Fq multiplies: ~(6 + 380/S) per affine add in the walker
 * (Fermat inversion of ~380 multiplies shared by S adds) and 2 projective adds of 12 multiplies
 * per bucket in the reduction. The c minimizing T·(walk + reduce) is the default.
 */
export function pickC(n: number, S: number): number {
  let best = 4, bestCost = Infinity;
  // Even c only: every distinct c compiles its own sort and reduce pipelines (~15 s each on SwiftShader).
  for (let c = 4; c <= 16; c += 2) {
    const cost = windowCount(c) * (n * (6 + 380 / S) + 24 * bucketsPerWindow(c));
    if (cost < bestCost) { best = c; bestCost = cost; }
  }
  return best;
}

export function msmPlan(n: number, t: MsmTuning = {}): MsmPlan {
  const S = t.S ?? 8;
  const c = t.c ?? pickC(n, S);
  const T = windowCount(c);
  const M = bucketsPerWindow(c);
  const scratch = t.scratchBytes ?? 8 * 2 ** 20;
  // Per window: n entries of 4 bytes + M bucket sums of 96 bytes (projective).
  const nwin = Math.max(1, Math.min(T, Math.floor(scratch / (4 * n + 96 * M))));
  const slice = t.slice ?? 16;
  const walkThreads = Math.max(WALK_WG, Math.ceil((n * nwin) / (S * slice) / WALK_WG) * WALK_WG);
  // Segment ~ sqrt(M) balances the two serial reduction passes (2·SEG and 2·M/SEG adds).
  const segLog = Math.max(0, Math.floor((c - 1) / 2));
  return { n, c, T, M, S, nwin, batches: Math.ceil(T / nwin), walkThreads, seg: 1 << segLog, segLog };
}
