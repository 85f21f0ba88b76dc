/**
 * The G2 MSM's plan: window size, batches of windows, each batch's accumulation levels and
 * reduction levels, and the GPU bytes, computed without a GPU (test/unit/g2-plan.test.ts).
 *
 * Scalars are cut into msm_sort's signed windows (src/params/msm-layout.ts: T = ceil(255 / c), the
 * top ones of c - 1 bits, digits in [-2^(c-1), 2^(c-1)], m = 2^(c-1) buckets a window), so G2
 * reuses G1's sort as is. A window costs an addition per nonzero digit and ~2m in the reduction,
 * a batch of windows a fixed chain (chooseC): for full-size scalars c = 6 at 2^8, 11 at 2^14,
 * 13 at 2^16, 16 at 2^20; smaller for a witness of mostly zeros and ones.
 * @module
 */
import { bucketsPerWindow, wideWindows, windowCount, windowStart } from '../../params/msm-layout.js';
import { scanBlocks } from '../msm/buffers.js';
import { ACC_SEG, ACC_SEG_NEXT, ACC_THREADS0, ENTRY_BUDGET, G2_BYTES, RED_LSEG } from './layout.js';

/** The window sizes msm_sort takes (a digit reads at most 17 bits: c + the look-back bit). */
export const C_MIN = 3;
export const C_MAX = 16;

/** One g2msm_acc pass: mode 0 reads the sort's entries (kin: their most), mode 1 the slots of the level before. */
export interface AccLevel {
  readonly mode: 0 | 1;
  readonly kin: number;
  /** items a thread adds */
  readonly seg: number;
  readonly threads: number;
  readonly fin: boolean;
}

/** One g2msm_reduce_level pass: kin pairs a window in. */
export interface RedLevel {
  readonly kin: number;
}

/** Windows [w0, w0 + nw) in one pass of the sort, accumulation and reduction. */
export interface Batch {
  readonly w0: number;
  readonly nw: number;
  /** buckets of the batch: nw·m */
  readonly nb: number;
  readonly acc: readonly AccLevel[];
  readonly red: readonly RedLevel[];
}

export interface G2MsmPlan {
  /** scalars (points [0, n) take part) */
  readonly n: number;
  readonly c: number;
  /** windows */
  readonly T: number;
  /** buckets a window */
  readonly m: number;
  /** windows of c bits (the rest have c - 1) */
  readonly wide: number;
  /** windows a batch (the last may have fewer) */
  readonly nw: number;
  readonly lseg: number;
  readonly batches: readonly Batch[];
  /** buffer bytes by name (the bases are the caller's: G2Bases) */
  readonly bytes: Readonly<Record<string, number>>;
  /** every buffer of a run together, without the bases */
  readonly runBytes: number;
}

/** Windows in which a scalar of bit length b can have a nonzero digit: those starting at bit b or below (none for 0). */
export function windowsTouched(b: number, c: number): number {
  if (b === 0) return 0;
  let j = 0;
  while (j < windowCount(c) && windowStart(j, c) <= b) j++;
  return j;
}

/**
 * What a batch of windows costs beyond its additions, in additions: its accumulation and
 * reduction end in chains of ~100 dependent additions on few threads, ~3-5 ms on the H200, the
 * time of ~2^19 additions at its throughput (~150 M G2 additions/s). Without it a witness of
 * all ones picked c = 3 (85 windows, 11 batches: 100 ms at 2^20) over c = 12-16 (65 ms).
 */
export const BATCH_COST = 1 << 19;

/** Windows a batch holds for n scalars at window size c. */
export const windowsPerBatch = (n: number, c: number, entryBudget = ENTRY_BUDGET): number =>
  Math.max(1, Math.min(windowCount(c), Math.floor(entryBudget / n)));

/**
 * The window size with the least cost: each nonzero digit is an entry (one addition), each
 * window's reduction ~2 additions a bucket (2^c), each batch BATCH_COST. Without a histogram
 * every scalar counts as full size (n·T entries); with `bits` (bits[b] scalars of bit length b:
 * scanScalars) a witness's zeros cost nothing and its ones one entry, so a mostly small witness
 * gets smaller windows (at 2^20 with 90% zeros, 8% ones: c = 12, not 16: 62 ms against 80 on
 * the H200).
 */
export function chooseC(n: number, bits?: ArrayLike<number>, entryBudget = ENTRY_BUDGET): number {
  let best = C_MIN;
  let cost = Infinity;
  for (let c = C_MIN; c <= C_MAX; c++) {
    const T = windowCount(c);
    let entries = 0;
    if (bits) for (let b = 1; b < bits.length; b++) entries += bits[b] ? bits[b] * windowsTouched(b, c) : 0;
    else entries = n * T;
    const k = entries + T * 2 ** c + Math.ceil(T / windowsPerBatch(n, c, entryBudget)) * BATCH_COST;
    if (k < cost) [best, cost] = [c, k];
  }
  return best;
}

/**
 * The accumulation's levels for at most `entries` sort entries: the first adds runs of `seg0`
 * entries (ACC_SEG, longer past ACC_THREADS0 threads), the later ones runs of `seg` slots; each
 * cuts K items to 2·ceil(K / seg) slots.
 */
export function accLevels(entries: number, seg0 = Math.max(ACC_SEG, Math.ceil(entries / ACC_THREADS0)), seg = ACC_SEG_NEXT): AccLevel[] {
  if (seg0 < 4 || seg < 4) throw new RangeError('accLevels: runs must be >= 4 items for the levels to shrink');
  const out: AccLevel[] = [];
  let kin = Math.max(entries, 1);
  let mode: 0 | 1 = 0;
  for (let s = seg0; ; s = seg) {
    const threads = Math.ceil(kin / s);
    out.push({ mode, kin, seg: s, threads, fin: threads === 1 });
    if (threads === 1) return out;
    kin = 2 * threads;
    mode = 1;
  }
}

/** The reduction's levels for m buckets a window in segments of 2^lseg: pairs halve until one is left. */
export function redLevels(m: number, lseg: number): RedLevel[] {
  const out: RedLevel[] = [];
  for (let kin = m >> lseg; kin > 1; kin >>= 1) out.push({ kin });
  return out;
}

/** Plan overrides (tests: several batches and window sizes at small n). */
export interface G2PlanOptions {
  /** window size (default chooseC(n)) */
  readonly c?: number;
  /** sort entries a batch may hold (default ENTRY_BUDGET) */
  readonly entryBudget?: number;
  /** log2 of a reduction segment's buckets (default RED_LSEG, at most c - 1) */
  readonly lseg?: number;
}

export function g2MsmPlan(
  n: number,
  { entryBudget = ENTRY_BUDGET, c = chooseC(n, undefined, entryBudget), lseg: lsegMax = RED_LSEG }: G2PlanOptions = {},
): G2MsmPlan {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`g2MsmPlan: n = ${n}`);
  if (c < C_MIN || c > C_MAX) throw new RangeError(`g2MsmPlan: c = ${c} outside [${C_MIN}, ${C_MAX}]`);
  const T = windowCount(c);
  const m = bucketsPerWindow(c);
  const lseg = Math.min(lsegMax, c - 1);
  const nw = windowsPerBatch(n, c, entryBudget);
  const batches: Batch[] = [];
  for (let w0 = 0; w0 < T; w0 += nw) {
    const k = Math.min(nw, T - w0);
    batches.push({ w0, nw: k, nb: k * m, acc: accLevels(n * k), red: redLevels(m, lseg) });
  }
  // Slots ping-pong between two buffers: level l writes 2·threads slots into A (l even) or B.
  const slots = [1, 1];
  for (const b of batches) b.acc.forEach((l, i) => (slots[i % 2] = Math.max(slots[i % 2], 2 * l.threads)));
  const nbMax = nw * m;
  const nseg = m >> lseg;
  const bytes = {
    packed: 32 * n,
    halves: 4 * 16 * Math.ceil(n / 2),
    counts: 4 * (nbMax + 1),
    offsets: 4 * (nbMax + 1),
    blockSums: 4 * scanBlocks(nbMax),
    entries: 4 * n * nw,
    buckets: G2_BYTES.projective * nbMax,
    slotsA: G2_BYTES.part * slots[0],
    slotsB: G2_BYTES.part * slots[1],
    pairsA: G2_BYTES.pair * nw * nseg,
    pairsB: G2_BYTES.pair * nw * Math.max(1, nseg >> 1),
    results: G2_BYTES.pair * T,
  };
  const runBytes = Object.values(bytes).reduce((a, b) => a + b, 0);
  return Object.freeze({ n, c, T, m, wide: wideWindows(c), nw, lseg, batches, bytes, runBytes });
}
