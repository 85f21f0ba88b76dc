/**
 * MSM plan: window size c, slots per walker thread S, walker thread count, segment length of
 * the bucket reduction, how many windows run per batch, and how many of the 16 scalar
 * half-planes stay on the GPU at once, chosen per n (pure; unit-tested), with the pool-byte
 * estimate (buffers.ts msmPoolBytes) the memory budget (issue 5: <= 100 MB at 2^20) is checked against.
 * @module
 */
import { bucketsPerWindow, windowCount } from '../../params/msm-layout.js';
import type { WorkgroupLimits } from '../../gpu/context.js';
import { msmPoolBytes } from './buffers.js';
import { batchHalves, MSM_BYTES, SCALAR_HALVES } from './layout.js';
import { reduceLevels } from './schedule.js';

/** Peak pool bytes an MSM may hold (issue 5: 100 MB at 2^20); above it the scalars stream in. */
export const MSM_MEM_BUDGET = 100e6;

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
  /** bucket-reduction segment length (power of two dividing M) */
  seg: number;
  /**
   * Buckets per thread in the batch's first reduction pass (<= seg): pairs of seg1 buckets go to
   * scratch (the walker's partials, dead by then) and one level merges seg / seg1 of them into
   * each kept pair, so no thread walks all seg buckets (H100, 2^20: seg = 32).
   */
  seg1: number;
  /** (W, S) pairs per window after the segments, K = M / seg, kept for all T windows */
  K: number;
  /** log2 of the group merged per reduction level (msm_reduce_level), K -> 1 */
  levels: number[];
  /**
   * Scalar half-planes resident on the GPU (plane h = bits [16h, 16h + 16) of every scalar, two
   * scalars a word). SCALAR_HALVES (16): all, one upload and one submit. Fewer: a ring, half h in
   * slot h mod planes, each uploaded once just before the first batch that needs it (a submit
   * per such batch); the sort stage is the only reader, and one window (c + 1 <= 17 bits) needs
   * at most 2 consecutive halves. Halves, not words: at 2^20 the ring of 2 takes 4 MiB, not 8.
   */
  planes: number;
  /** walker multiplies on 13-bit limbs (fq_mul13) instead of 8x32 */
  mul13: boolean;
  /** walker entry msm_walk_wg: one inversion per workgroup and step, not per thread */
  wgInv: boolean;
  /**
   * Batch b's bucket reduction rides along in later dispatches (extra workgroups) instead of
   * running alone after batch b: its first pass beside batch b + 1's fix-up, its merging level
   * beside batch b + 2's walk. Costs a ring of two batches' bucket sums; the first pass's pairs go
   * to the second reduction list instead of partials. Only with wgInv and more than one batch.
   * H100 alternating A/B at 2^20: 88.9 -> 68.0 ms (reduce 33 -> 3 ms, walk +5, fix-up +4;
   * bench/RESULTS.md).
   */
  riders: boolean;
  /** walker workgroup size (WALK_WG by default) */
  walkWg: number;
  /** fix-up workgroup size (FIX_WG by default) */
  fixWg: number;
  /**
   * Points resident on the GPU (the bases' buffer, an SRS longer than n for a slice or a part of
   * a split job): their 64 bytes each count in poolBytes, as the caller's scalars' 32 do.
   */
  basesN: number;
  /** estimated peak pool bytes (bases and the packed scalars included) with this plan */
  poolBytes: number;
}

export interface MsmTuning {
  c?: number;
  S?: number;
  /** slice length the walker aims for (entries per slot) */
  slice?: number;
  /**
   * walker multiply on 13-bit limbs (default true: H100 walk 2^20 202 -> 141 ms, 2^18 54 -> 40,
   * 2^16 9.2 -> 6.7; SwiftShader no slower); false keeps the 8x32 multiply (tests, bench A/B)
   */
  mul13?: boolean;
  /**
   * Walk with msm_walk_wg: the workgroup's WALK_WG threads share one inversion per step (a
   * product tree in workgroup memory), so S defaults per n (defaultSlots) and the plan aims for
   * WALK_TARGET_THREADS_WG threads. Default true: H100, same run, walk 2^18 40 -> 12.5 ms, 2^20
   * 140 -> 38, 2^22 628 -> 158 (bench/RESULTS.md); false keeps the per-thread inversion.
   */
  wgInv?: boolean;
  /** riders (MsmPlan.riders) where they apply; default true, false for the bench's A/B */
  riders?: boolean;
  /** bytes for the kept reduction pairs of all windows (default RED_PAIR_BYTES); tests shrink it */
  pairBytes?: number;
  /** scratch bytes a batch may use (entries + bucket sums); default 8 MiB */
  scratchBytes?: number;
  /**
   * true: stream the scalar half-planes through a ring even under the memory budget; false: keep
   * all 16 even over it (one submit); unset: by MSM_MEM_BUDGET. For tests and benches.
   */
  lowMemory?: boolean;
  /** walker workgroup size, a power of two (WALK_WG by default; bench A/B) */
  walkWg?: number;
  /** fix-up workgroup size, a power of two (FIX_WG by default; bench A/B) */
  fixWg?: number;
  /**
   * Runs each bases chunk's share of the job is cut into (msmRuns; 1 to MAX_PARTS): by default the
   * fewest that keep the peak under MSM_MEM_BUDGET with the walker at its thread target; tests
   * force a split at small n, the bench 1 for its A/B.
   */
  parts?: number;
  /** Equal runs of a job share one reduction (MsmJobPlan.chains); default true, false for the bench's A/B. */
  chains?: boolean;
  /**
   * The engine every run takes (kernels/msm/engines.ts), waiting for its pipelines: the quick one
   * or the walker (bench A/B, tests). Unset: the walker once compiled, the quick one meanwhile.
   */
  engine?: 'quick' | 'walker';
}

/**
 * Walker workgroup size where the device or n rules out WALK_WG_LARGE (MsmPlan.walkWg):
 * msm_walk_wg's threads share one inversion per step, so 128 halves the inversions per addition
 * against 64 for one more tree level (tree 9 KiB of workgroup memory, under WebGPU's default
 * 16 KiB). H100 A/B, 128 against 64: MSM 2^20 0.936, 2^22 0.785, 2^16 0.967, 2^12 1.008.
 */
export const WALK_WG = 128;
/**
 * Walker workgroup size from LARGE_WG_MIN_N points where the device allows it (walkTreeBytes,
 * 36 KiB, and 512 invocations): one workgroup of 512 per SM keeps 16 warps in step (barriers every
 * step) on the same instructions, where two workgroups of 256 or four of 128 drift apart. H100
 * alternating A/B against 128 (old walker, slots per slice): 512 with S = 2 at 2^20 0.843 (walk
 * 53.7 -> 41.9 ms at 720 MHz), 2^22 0.773, 2^18 0.872; 256 with S = 4 at 2^20 0.865; 128 with
 * S = 4 (2x threads, two workgroups per SM) 1.017; 2^16 1.014 and 2^12 1.037, so below 2^18 128.
 */
export const WALK_WG_LARGE = 512;
export const LARGE_WG_MIN_N = 1 << 18;
/** Fix-up workgroup size by default (MsmPlan.fixWg): 64 and 256 read 0.999 and 1.038 at 2^20. */
export const FIX_WG = 128;

/** Workgroup bytes msm_walk_wg declares: a product tree of 2·wg Fq and 2·wg flag words. */
export function walkTreeBytes(wg: number): number {
  return 2 * wg * 32 + 2 * wg * 4;
}

/** WebGPU's default limits: what every adapter offers. */
export const DEFAULT_WG_LIMITS: WorkgroupLimits = { threads: 256, tileBytes: 16384 };

/** Default walker workgroup size for n points on a device with these limits. */
export function defaultWalkWg(n: number, limits: WorkgroupLimits): number {
  const fits = limits.threads >= WALK_WG_LARGE && limits.tileBytes >= walkTreeBytes(WALK_WG_LARGE);
  return n >= LARGE_WG_MIN_N && fits ? WALK_WG_LARGE : WALK_WG;
}

/**
 * Relative cost per window, in Fq multiplies: ~(6 + 30/S) per affine add in the walker (one
 * inversion worth ~30 multiplies shared by S adds; see walkInvShare for wgInv) and `perBucket` per
 * bucket in the reduction (2 projective adds of 12 multiplies, RED_MULS; more for a run over
 * bases much longer than itself: RED_MULS_FEW_WINDOWS). The c minimizing T·(walk + reduce) is the
 * default. H100 against the earlier rule (c with a top window of c - 4 bits or more: 8 at
 * 2^12-2^15, 15 at 2^16-2^17), alternating medians: 2^12 c = 9 against 8 0.87x, 2^13 c = 10 0.81x,
 * 2^15 c = 11 0.82x, 2^16 c = 13 0.93x, 2^17 0.99x (bench/RESULTS.md).
 */
export function pickC(n: number, S: number, wgInv = false, perBucket = RED_MULS): number {
  let best = 4,
    bestCost = Infinity;
  for (let c = 4; c <= 16; c++) {
    const cost = windowCount(c) * (n * (6 + walkInvShare(S, wgInv)) + perBucket * bucketsPerWindow(c));
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}

/** Reduction multiplies per bucket in pickC's model. */
export const RED_MULS = 24;
/**
 * The same for a run over bases at least 4x its length (a part of a split job, a slice of a long
 * SRS): the bases leave the budget room for few windows a batch, and each batch's reduction runs
 * alone on fewer threads, ~1.5x the time per bucket (H100: 6.1 against 4.0 ns at 2^18 over 2^20 and
 * 2^18 alone). 2^20 in 4 parts of 2^18: c = 13 (this weight) against 15 **0.836x** (31.26 -> 26.15 ms).
 */
export const RED_MULS_FEW_WINDOWS = 36;

/**
 * Inversion multiplies per walker add: ~30 shared by a thread's S adds, or with wgInv by the
 * workgroup's WALK_WG·S adds plus the tree (per thread and step ~1 multiply up, 2 down).
 */
function walkInvShare(S: number, wgInv: boolean): number {
  return wgInv ? 3 / S + 30 / (WALK_WG * S) : 30 / S;
}

/** Slice lengths (entries per walker slot) the plan search tries. */
const SLICES = [16, 12, 8, 6, 5, 4, 3, 2];

/**
 * Shortest slice a plan may use: a bucket of b entries spread over slices of L is summed by the
 * fix-up as ~b / L pieces in one thread, so L >= b / 8 keeps that chain at <= 8 projective adds.
 * b = n / M on average (each window has n digits over M buckets). H100 A/B: 2^14 (b = 128) with
 * slices of 2 / 4 / 16: 34.1 / 22.4 / 20.8 ms (fix-up 26.5 / 13.4 / 3.3 ms); 2^12 (b = 32) with
 * 2 / 4 / 16: 13.6 / 11.3 / 17.8 ms; 2^10 (b = 8): 2 best (7.9 vs 8.4 ms at 4).
 */
export function minSlice(n: number, M: number): number {
  return Math.min(SLICES[0], Math.max(1, n / M / 8));
}

/** Walker threads a plan aims for: below this the H100 walk is latency-bound (bench/RESULTS.md). */
export const WALK_TARGET_THREADS = 32768;

/**
 * Walker threads a wgInv plan aims for: an H100 needs > 100k resident threads, which the
 * per-thread inversion could not afford (8 slots a thread to amortize it; partials memory caps
 * threads·S). At 2^20 memory allows 65536 threads at S = 2, 131072 at S = 1.
 */
export const WALK_TARGET_THREADS_WG = 131072;

/**
 * Walker threads a plan with WALK_WG_LARGE workgroups aims for: one workgroup of 512 per SM on
 * an H100 (132 SMs; registers cap a 512-thread workgroup at 128 a thread, so two never share an
 * SM: more threads run as a second wave).
 */
export const WALK_TARGET_THREADS_LARGE = 65536;

/**
 * Default slots per thread with wgInv below 2^20 (defaultSlots). H100, MSM GPU ms at S = 1 / 2 / 4 / 8
 * (two runs): 2^16 18.5 / 17.0 / 15.8 / 23.9 (S = 8 moves c to 8), 2^18 48.8 / 44.6 / 31.2 / 32.5,
 * 2^20 176 / 162 / 125 / 117, 2^22 518 / 469 / 384 / 247: the tree's ~3 multiplies, 15 barriers
 * and one inversion per step are shared by S adds, which pays until the threads run out.
 */
export const WG_INV_S = 4;
/**
 * Default S with WALK_WG_LARGE workgroups: 4 slots a thread, each thread's slots merging the
 * pieces of buckets that cross them (partials one per thread, not per slot), so slices of 4 at
 * 2^20 cost no more memory than slices of 8 did.
 */
export const LARGE_WG_S = 4;
/**
 * Default S for n points: per-thread inversion 8; wgInv WG_INV_S below 2^20, 8 from 2^20, 16 from
 * 2^22. H100, one run, MSM GPU ms at S = 6 / 8 / 12 / 16: 2^20 94.4 / 86.6 / 114 / 103, 2^22 304 /
 * 215 / 235 / 174 (2^18: 25.4 / - / 22.6 / 21.0 against 24.2 at S = 4, left at 4 until it repeats).
 */
export function defaultSlots(n: number, wgInv: boolean, walkWg = WALK_WG): number {
  if (!wgInv) return 8;
  if (walkWg >= WALK_WG_LARGE) return LARGE_WG_S;
  if (n >= 1 << 22) return 16;
  return n >= 1 << 20 ? 8 : WG_INV_S;
}

/** Walker threads a plan with this walker aims for. */
export function walkTarget(p: Pick<MsmPlan, 'wgInv' | 'walkWg'>): number {
  return !p.wgInv ? WALK_TARGET_THREADS : p.walkWg >= WALK_WG_LARGE ? WALK_TARGET_THREADS_LARGE : WALK_TARGET_THREADS_WG;
}

/**
 * The plan for n points. Windows per batch (nwin), slice length and scalar planes are searched
 * under MSM_MEM_BUDGET for the most walker threads (up to WALK_TARGET_THREADS, or
 * WALK_TARGET_THREADS_WG with wgInv), then the most
 * windows per batch (fewer submits, more reduction threads), then all 16 half-planes (one upload).
 * `scratchBytes` or `lowMemory` in the tuning fix nwin and planes the old way (tests, benches).
 */
export function msmPlan(n: number, t: MsmTuning = {}, limits: WorkgroupLimits = DEFAULT_WG_LIMITS, basesN = n): MsmPlan {
  const wgInv = t.wgInv ?? true;
  const walkWg = t.walkWg ?? (wgInv ? defaultWalkWg(n, limits) : WALK_WG);
  const S = t.S ?? defaultSlots(n, wgInv, walkWg);
  const c = t.c ?? pickC(n, S, wgInv, basesN >= 4 * n ? RED_MULS_FEW_WINDOWS : RED_MULS);
  const target = walkTarget({ wgInv, walkWg });
  const fixWg = t.fixWg ?? FIX_WG;
  const T = windowCount(c);
  const M = bucketsPerWindow(c);
  // Pairs of every window stay on the GPU until the last batch: as many as RED_PAIR_BYTES
  // allows (more pairs = shorter segments = more, shorter threads per batch).
  const K = Math.min(M, 2 ** Math.floor(Math.log2((t.pairBytes ?? RED_PAIR_BYTES) / (MSM_BYTES.pair * T))));
  const shape = (nwin: number, slice: number, planes: number, ride = t.riders ?? true): MsmPlan => {
    const walkThreads = Math.max(walkWg, Math.ceil((n * nwin) / (S * slice) / walkWg) * walkWg);
    const batches = Math.ceil(T / nwin);
    const riders = wgInv && batches > 1 && ride;
    const base = {
      n,
      basesN,
      c,
      T,
      M,
      S,
      nwin,
      batches,
      walkThreads,
      seg: M / K,
      seg1: Math.min(M / K, RED_SEG1),
      K,
      levels: reduceLevels(K),
      planes,
      mul13: t.mul13 ?? true,
      wgInv,
      riders,
      walkWg,
      fixWg,
    };
    return { ...base, poolBytes: msmPoolBytes(base) };
  };
  if (t.scratchBytes !== undefined || t.lowMemory !== undefined) {
    // Per window: n entries of 4 bytes + M bucket sums (projective).
    const nwin = Math.max(1, Math.min(T, Math.floor((t.scratchBytes ?? 8 * 2 ** 20) / (4 * n + MSM_BYTES.projective * M))));
    const full = shape(nwin, t.slice ?? 16, SCALAR_HALVES);
    if (t.lowMemory === false || (full.poolBytes <= MSM_MEM_BUDGET && t.lowMemory !== true)) return full;
    return shape(nwin, t.slice ?? 16, ringPlanes(c, T, nwin));
  }
  let best: MsmPlan | null = null;
  const slices = t.slice ? [t.slice] : SLICES.filter((s) => s >= minSlice(n, M));
  // Riders' ring of bucket sums costs a batch's worth of memory: without them more windows may fit
  // a batch, which is worth more (H100 alternating A/B at 2^20, 512-thread walker: two windows a
  // batch without riders 0.831, one window with riders as before 1; two with riders 0.811 but 109 MB).
  const key = (p: MsmPlan) => [Math.min(p.walkThreads, target), p.nwin, p.riders ? 1 : 0, p.planes === SCALAR_HALVES ? 1 : 0];
  const better = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
    return false;
  };
  for (let nwin = 1; nwin <= T; nwin++) {
    for (const slice of slices) {
      for (const planes of [SCALAR_HALVES, ringPlanes(c, T, nwin)]) {
        for (const ride of t.riders === undefined && wgInv ? [true, false] : [t.riders ?? true]) {
          const p = shape(nwin, slice, planes, ride);
          if (p.poolBytes <= MSM_MEM_BUDGET && (!best || better(key(p), key(best)))) best = p;
        }
      }
    }
  }
  if (best) return best;
  // Nothing fits (n past ~2^20): one window a batch, over budget, with the longest slice that
  // still gives the target's threads (the shortest allowed if none does).
  const slice = slices.find((s) => shape(1, s, 1).walkThreads >= target) ?? slices[slices.length - 1];
  return shape(1, slice, ringPlanes(c, T, 1));
}

/** Buckets per thread of the first reduction pass (a running sum of 4: 8 additions, 2 doublings). */
export const RED_SEG1 = 4;

/**
 * Bytes for the (W, S) pairs of all windows (192 bytes each): at 2^20 (T = 16) 6 MiB gives
 * K = 2048 pairs per window, so each batch's merging level takes groups of 4 runs, not 8
 * (4 MiB: K = 1024); 2^20 still plans under the budget (99.6 MB).
 */
export const RED_PAIR_BYTES = 6 * 2 ** 20;

/** Ring size: the most halves any batch needs at once (every batch's halves land in distinct slots). */
export function ringPlanes(c: number, T: number, nwin: number): number {
  let most = 1;
  for (let w0 = 0; w0 < T; w0 += nwin) {
    const [lo, hi] = batchHalves(c, w0, Math.min(nwin, T - w0));
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}
