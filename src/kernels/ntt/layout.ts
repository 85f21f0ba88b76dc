/**
 * The pass layout of an NTT job, decided from the job, the tuning and the adapter's limits alone
 * (no GPU): the passes (jobPasses: register radices, two-level passes, the folded padding), which
 * first passes store through a tile (stagedPasses), where each pass's twiddles come from
 * (twiddleSources), whether an lde fuses its idft's last pass with its dft's first (fusedLdePass),
 * and whether an lde or idft carries its scale in its tables (scaleFold). ./plan.ts calls each of
 * these once per job and records the result in the plan.
 * @module
 */
import { monty31Ops } from '../../field/monty31-ops.js';
import { jobField, type NttJob } from './job.js';
import {
  NTT_FLAG_BITREV,
  NTT_FLAG_FOLDED_SCALE,
  NTT_FLAG_HALF,
  NTT_FLAG_INVERSE,
  NTT_FLAG_LAST,
  NTT_FLAG_ROTATE,
  NTT_FLAG_SCALE,
  NTT_FUSED_RADICES,
  NTT_STAGE_WORDS,
  foldPadding,
  planTransform,
  splitQualifies,
  stagedQualifies,
  stageWorkgroup,
  tableQualifies,
  twoLevelGroups,
  type NttPass,
} from './passes.js';
import type { SplitScale } from './tables.js';
import type { NttTuning } from './tuning.js';

/** What the plan needs of the adapter: a workgroup's threads and memory, the grid's per-dimension cap, and one binding's words. */
export interface NttLimits {
  readonly threads: number;
  readonly tileBytes: number;
  readonly maxWorkgroupsPerDim: number;
  /** Largest matrix (u32 words) one NTT buffer may hold: one storage binding, ≤ 2^32 bytes of indices. */
  readonly maxWords: number;
}

/** An inverse transform's scale (c, g, n) for its last store: c = 1/n, g = shift·ω_n (tables.ts inverseScale). */
export type NttScale = readonly [number, number, number];

/** Groups per two-level workgroup at width w: lanes / w, a power of two, at least 1. */
export function twoLevelGroupsFor(w: number, lanes: number): number {
  return 2 ** Math.max(0, Math.floor(Math.log2(lanes / w)));
}

/**
 * The job's passes: for lde an inverse transform (1/h and shift^j in its last store) then the
 * padded forward one. `tileLog` > 0 (twoLevelLog) lays transforms out with two-level passes,
 * encode's and the lde's dft with their register remainder first (foldPadding, fusedLdePass).
 */
export function jobPasses(job: NttJob, tuning: NttTuning, tileLog: number): NttPass[] {
  const h = job.height;
  const logH = Math.round(Math.log2(h));
  const bits = job.addedBits ?? 0;
  const br = job.bitReversed ? NTT_FLAG_BITREV : 0;
  const mr = tuning.maxRadix;
  const two = (remainderFirst: boolean) => (tileLog > 0 ? { tileLog, remainderFirst } : undefined);
  const fold = (ps: NttPass[]) => (tuning.foldPadding ? foldPadding(ps) : ps);
  const inverse = NTT_FLAG_INVERSE | NTT_FLAG_SCALE;
  const adicity = jobField(job).twoAdicity;
  switch (job.op) {
    case 'dft':
      return planTransform(logH, h, br, mr, two(false), adicity);
    case 'idft':
      return planTransform(logH, h, inverse | br, mr, two(false), adicity);
    case 'encode':
      return fold(planTransform(logH + bits, h, br, mr, two(true), adicity));
    case 'lde':
      return fold([
        ...planTransform(logH, h, inverse, mr, two(false), adicity),
        ...planTransform(logH + bits, h, br, mr, two(true), adicity),
      ]);
  }
}

/**
 * The two-level radix's log2 a job runs with: tuning.twoLevel for jobs in its size and width
 * range when it is even, 4..10, the passes use Shoup table twiddles and one group of the job's
 * width fits a workgroup here; else 0 (register passes only).
 */
export function twoLevelLog(job: NttJob, tuning: NttTuning, limits: NttLimits): number {
  const inRange = job.width <= tuning.twoLevelMaxWidth && job.height >= tuning.twoLevelMinRows;
  const t = inRange ? tuning.twoLevel : 0;
  if (!(t >= 4 && t <= 10 && t % 2 === 0)) return 0;
  if (!tuning.shoup || !tuning.twiddleTables) return 0;
  return twoLevelGroups(2 ** (t / 2), job.width, 1, limits) > 0 ? t : 0;
}

/**
 * Which passes run the staged kernel: wanted (`want`), stagedQualifies (./passes.ts) and the
 * adapter's limits (wg threads and a NTT_STAGE_WORDS-word tile; radix 4 needs 1024 threads).
 */
export function stagedPasses(width: number, want: boolean, limits: NttLimits, passes: readonly NttPass[]): boolean[] {
  return passes.map(
    (p) => want && stagedQualifies(p, width) && stageWorkgroup(p.radix) <= limits.threads && NTT_STAGE_WORDS * 4 <= limits.tileBytes,
  );
}

/**
 * How each Stockham pass gets its twiddles: 'staged' (first pass, none; also a two-level pass at
 * Ns = 1), 'first' (another register pass at Ns = 1 that is not the last: none), 'table' (tableQualifies), 'split'
 * (splitQualifies, Shoup only), or 'running' (computed: lo/hi power, running product).
 */
export type TwiddleSource = 'staged' | 'first' | 'table' | 'split' | 'running';
export function twiddleSources(tuning: NttTuning, passes: readonly NttPass[], staged: readonly boolean[]): TwiddleSource[] {
  const { twiddleTables: tables, tableMax: max } = tuning;
  return passes.map((p, i) => {
    if (staged[i] || (p.sub > 0 && p.ns === 1)) return 'staged';
    if (tuning.firstEntry && p.ns === 1 && p.radix >= 2 && (p.flags & NTT_FLAG_LAST) === 0) return 'first';
    if (tables && tableQualifies(p, max)) return 'table';
    if (p.sub > 0) return 'split'; // two-level passes have no running-product entry (twoLevelLog: Shoup tables only)
    if (tables && tuning.shoup && tuning.splitTables && splitQualifies(p, max)) return 'split';
    return 'running';
  });
}

/**
 * Index of the lde idft's last pass when it fuses with the next (the dft's first) pass: wanted
 * (tuning.fuseLde), register passes, the dft's first pass is radix 32 and can store through the
 * tile (at any width: the fused kernel always does), and its row stride n'/32 equals the idft's
 * last stride n/R1 (R1 = 32 / 2^addedBits, one of NTT_FUSED_RADICES); else -1. Two-level passes
 * do not fuse (a fused two-level pass measured 1.16x slower: 2026-11-22, 833adf1, H100;
 * bench/RESULTS.md, ntt, "tried, not kept").
 */
export function fusedLdePass(job: NttJob, tuning: NttTuning, limits: NttLimits, passes: readonly NttPass[]): number {
  if (job.op !== 'lde' || !tuning.fuseLde) return -1;
  const staged = stagedPasses(job.width, true, limits, passes);
  const i = passes.findIndex((p) => (p.flags & NTT_FLAG_LAST) !== 0); // an lde's first transform is its idft
  const p = passes[i],
    q = passes[i + 1];
  if (
    !p ||
    !q ||
    p.sub > 0 ||
    !staged[i + 1] ||
    q.radix !== 32 ||
    q.ns !== 1 ||
    q.n / q.radix !== p.n / p.radix ||
    !NTT_FUSED_RADICES.includes(p.radix)
  )
    return -1;
  return i;
}

/** How an lde or idft carries its scale in its tables (scaleFold): which pass, and the tables' factors. */
export interface ScaleFold {
  /** Index of the idft's last pass; for an lde the dft's first pass is the next. */
  readonly index: number;
  /** The idft's last pass's split table scale (passSplitTable). */
  readonly split: SplitScale;
  /** lde: the dft's first pass table's row factor g^Ns (passTwiddleTable); idft: 1, unused. */
  readonly rowFactor: number;
}

/**
 * Whether an lde carries its scale c·g^i (`scale`: c = 1/h, g = shift·ω_h; i the coefficient) in
 * its twiddle tables instead of two Montgomery multiplies per value in the idft's last store. It
 * can when the idft ends with a two-level split pass of radix T (Ns = h/T: its group k writes the
 * coefficients i ≡ k mod Ns) and the dft starts with a folded two-level table pass of the same
 * radix at Ns = 2 (its row r reads coefficient a + r·h/T): then i = a + q·Ns splits into c·g^a, a
 * factor per idft group (in its split table, NTT_FLAG_FOLDED_SCALE), and (g^Ns)^q, a factor per
 * dft row (in that pass's table). The 2^24 -> 2^25 lde at widths ≤ 8 has this layout. A standalone
 * idft ending with a two-level split pass folds c·ω_h^k the same way and gets ω_h^(s·Ns) = ω_T^s
 * by rotating that pass's inputs (NTT_FLAG_ROTATE). Returns null otherwise, and `passes` with the
 * idft's last pass reflagged (FOLDED_SCALE, and ROTATE for the idft, instead of SCALE) when it applies.
 */
export function scaleFold(
  job: NttJob,
  tuning: NttTuning,
  passes: NttPass[],
  sources: readonly TwiddleSource[],
  scale: NttScale | null,
): { passes: NttPass[]; fold: ScaleFold | null } {
  const none = { passes, fold: null };
  if ((job.op !== 'lde' && job.op !== 'idft') || !tuning.foldScale || !scale) return none;
  const [c, g] = scale;
  const i = passes.findIndex((p) => (p.flags & NTT_FLAG_LAST) !== 0); // an lde's first transform is its idft
  const p = passes[i],
    q = passes[i + 1];
  if (job.op === 'idft') {
    if (!p || p.sub === 0 || p.ns === 1 || sources[i] !== 'split' || (p.flags & NTT_FLAG_SCALE) === 0) return none;
    const rotated = { ...p, flags: (p.flags & ~NTT_FLAG_SCALE) | NTT_FLAG_FOLDED_SCALE | NTT_FLAG_ROTATE };
    return { passes: passes.map((x, j) => (j === i ? rotated : x)), fold: { index: i, split: { c, g }, rowFactor: 1 } };
  }
  if (!p || !q || p.sub === 0 || q.sub !== p.sub || sources[i] !== 'split' || sources[i + 1] !== 'table') return none;
  if (q.ns !== 2 || (q.flags & NTT_FLAG_HALF) === 0 || q.n !== 2 * p.n || (p.flags & NTT_FLAG_SCALE) === 0) return none;
  const folded = { ...p, flags: (p.flags & ~NTT_FLAG_SCALE) | NTT_FLAG_FOLDED_SCALE };
  return {
    passes: passes.map((x, j) => (j === i ? folded : x)),
    fold: { index: i, split: { c, g }, rowFactor: monty31Ops(jobField(job)).pow(g, p.ns) },
  };
}
