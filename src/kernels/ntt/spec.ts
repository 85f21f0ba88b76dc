/**
 * An NTT job (NttSpec) and the choices made for each of its passes, in plain TypeScript apart
 * from the adapter's limits: the pass layout (jobPasses: register radices, two-level passes),
 * which first passes store through a tile (stagedPasses), where each pass's twiddles come from
 * (twiddleSources), whether an lde fuses its idft's last pass with its dft's first (fusedLdePass).
 * src/kernels/ntt.ts records the passes; the defaults here cite the H100 A/Bs that set them.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { bbPow } from '../../ref/babybear.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_FOLDED_SCALE, NTT_FLAG_HALF, NTT_FLAG_INVERSE, NTT_FLAG_LAST, NTT_FLAG_ROTATE, NTT_FUSED_RADICES, inverseScale, NTT_FLAG_SCALE, foldPadding, planTransform, splitQualifies, stagedQualifies, stageWorkgroup,
  tableQualifies, twoLevelGroups, NTT_STAGE_WORDS, type NttPass, type SplitScale,
} from './passes.js';

/** 256 threads per workgroup: on the H100 the 2^24 -> 2^25 encode took 4.72 ms at 256, 6.03 ms at 128, 4.85 ms at 64 (bench/RESULTS.md). */
export const NTT_WG = 256;

export type NttOp = 'dft' | 'idft' | 'lde' | 'encode';

/** One job. `height` is the input height; lde/encode output height·2^addedBits rows. */
export interface NttSpec {
  op: NttOp;
  height: number;
  width: number;
  addedBits?: number;
  /** Coset shift for lde (canonical, nonzero); Plonky3's PCS uses the generator 31. */
  shift?: number;
  /** Store rows in bit-reversed order (fused into the last pass). */
  bitReversed?: boolean;
  /** Largest radix per pass (2..32; default 32): for benchmarks comparing plans. */
  maxRadix?: number;
  /** Threads per workgroup (default NTT_WG): for benchmarks comparing shapes. */
  workgroup?: number;
  /**
   * Stockham: store each transform's first pass (when not also its last) through a workgroup tile
   * as contiguous blocks instead of R-word strides. Default: below width 8 (STAGE_BELOW_WIDTH),
   * where each strided store fills 4·W bytes of a 32-byte sector; true / false force it (tests,
   * benchmarks). H100, alternating A/B: 2^24 x1 encode 0.85 vs 1.31 ms, lde 1.31 vs 2.03, dft
   * 1.31 vs 1.84; at width 8 (whole sectors already) staging measured 2-6% slower.
   */
  stagedFirstPass?: boolean;
  /**
   * Stockham: middle passes (Ns·R ≤ NTT_TABLE_MAX, see tableQualifies) read their twiddles from a
   * per-(Ns, R) table cached on the device, one multiply per value, instead of computing them
   * (two). Default TABLE_TWIDDLES; false for benchmarks and tests comparing the two.
   */
  twiddleTables?: boolean;
  /**
   * Largest Ns·R with a single twiddle table (default NTT_TABLE_MAX); passes past it (and last
   * passes) compute their twiddles, or read a split table with splitTables. Tests lower it.
   */
  tableMax?: number;
  /**
   * Passes past a single table (the last) read a split table with Shoup multiplies instead of
   * computing their twiddles (Montgomery). Default SPLIT_TABLES (off): H100, alternating A/B at
   * 2^24 x1, split was 2-2.5% slower for dft, lde and encode (two table multiplies per value
   * against a running product and one multiply); kept selectable for other GPUs and for A/B runs.
   */
  splitTables?: boolean;
  /**
   * Stockham: multiply by the butterfly roots and table twiddles with Shoup's precomputed
   * quotients (bb_mul_shoup: one emulated mulhi, no Montgomery reduction) instead of Montgomery
   * multiplication. Default SHOUP_TWIDDLES; false for benchmarks and tests comparing the two.
   * Computed twiddles (passes past a single table, unless splitTables) stay Montgomery: their
   * quotients would need a division.
   */
  shoup?: boolean;
  /**
   * lde: run the idft's last pass and the dft's first as one kernel (ntt_lde_fused_rR1, see
   * fusedLdePass) where their radices allow: one pass over the matrix fewer. Default FUSE_LDE.
   */
  fuseLde?: boolean;
  /**
   * encode / lde with two-level passes: fold the zero-padded radix-2 first pass into the next
   * pass's loads (foldPadding in ./ntt-plan.ts). Default FOLD_PADDING.
   */
  foldPadding?: boolean;
  /**
   * Stockham: log2 of the two-level radix (even, 4..10; 0 for register passes only): passes of
   * 2^twoLevel rows run as two register halves exchanging through workgroup memory
   * (twoLevelRadices in ./ntt-plan.ts). Needs Shoup and table twiddles, and a workgroup tile that
   * fits the adapter (twoLevelLog). Default: TWO_LEVEL for jobs of width ≤ TWO_LEVEL_MAX_WIDTH
   * and ≥ TWO_LEVEL_MIN_ROWS rows.
   */
  twoLevel?: number;
  /** Most groups per two-level workgroup (twoLevelGroups; default twoLevelGroupsFor): a bench knob. */
  twoLevelGroups?: number;
  /** Bench only: record the first passLimit passes (times a prefix of the job; the output is not the job's). */
  passLimit?: number;
  /**
   * lde with two-level passes: carry the scale c·g^i in the twiddle tables of the idft's last pass
   * and the dft's first instead of two multiplies per value in the idft's store (scaleFold); an
   * idft ending with a two-level pass: in its last split table, with its inputs rotated
   * (NTT_FLAG_ROTATE). Default FOLD_SCALE.
   */
  foldScale?: boolean;
  /** Pipelines specialized by pass flags (NTT_FLAGS, branches folded) instead of reading them from the uniform. Default STATIC_FLAGS. */
  staticFlags?: boolean;
  /**
   * Two-level inner twiddles bring their Shoup quotient's 16-bit halves (innerTwiddleTable) instead
   * of splitting it per multiply. Default true (H100 A/B at 2^24 x1: lde 0.770 -> 0.758 ms); false for A/B.
   */
  innerHalves?: boolean;
}

/**
 * Two-level radix (log2) by default: 256 = 16·16, in workgroups of TWO_LEVEL_LANES lanes (groups
 * × columns: 64-byte runs per load and store). H100 alternating A/B against the register passes
 * at 2^24: x1 (16 groups) dft 0.79, encode 0.87, lde 0.90; x8 (2 groups) dft 0.86, lde 0.87,
 * encode 0.94 (bench/RESULTS.md). Worse: 1024 = 32·32 (8 groups, the tile limit) 1.10-1.22,
 * 64 = 8·8 0.91-1.10; 256 with 8 or 32 lanes at width 1 0.95-1.12, with 32 or 8 at width 8 1.0-1.13 / 0.87-0.98.
 */
export const TWO_LEVEL = 8;
export const TWO_LEVEL_LANES = 16;
/** Rows (of the job's input) from which jobs take two-level passes by default: 2^24, the size measured. */
export const TWO_LEVEL_MIN_ROWS = 2 ** 24;
/** Widest job that takes two-level passes by default: 8, the widest measured. */
export const TWO_LEVEL_MAX_WIDTH = 8;

/** Groups per two-level workgroup by default at width w: TWO_LEVEL_LANES / w, a power of two, at least 1. */
export function twoLevelGroupsFor(w: number): number {
  return 2 ** Math.max(0, Math.floor(Math.log2(TWO_LEVEL_LANES / w)));
}

/**
 * Whether lde fuses the idft's last pass with the dft's first by default (NttSpec.fuseLde). On:
 * H100 alternating A/B at 2^24 -> 2^25, lde x1 1.073 -> 1.040 ms, x8 7.33 -> 7.28 ms (less than
 * the pass's memory time suggested: the passes are integer-ALU bound).
 */
export const FUSE_LDE = true;

/**
 * Whether encode / lde fold a zero-padded radix-2 first pass into the next pass's loads by default
 * (NttSpec.foldPadding). H100 alternating A/B at 2^24 -> 2^25 x1 in bench/RESULTS.md.
 */
export const FOLD_PADDING = true;

/**
 * Whether an lde folds its scale into its tables by default where it can (NttSpec.foldScale,
 * scaleFold). H100 alternating A/B at 2^24 -> 2^25: x1 0.844 -> 0.811 ms, x8 6.22 -> 6.06.
 */
export const FOLD_SCALE = true;

/**
 * Whether pipelines are specialized by pass flags by default (NttSpec.staticFlags). H100
 * alternating A/B at 2^24: x1 lde 0.836 -> 0.770 ms, encode 0.541 -> 0.483; x8 1.18-1.19x.
 */
export const STATIC_FLAGS = true;

/** Whether last passes read split tables by default (NttSpec.splitTables). */
export const SPLIT_TABLES = false;

/** Whether butterfly roots and table twiddles use Shoup multiplication by default (NttSpec.shoup). */
export const SHOUP_TWIDDLES = true;

/** Whether middle passes read table twiddles by default (NttSpec.twiddleTables). */
export const TABLE_TWIDDLES = true;

/** Output height of a job. */
export function outputHeight(spec: NttSpec): number {
  return spec.op === 'lde' || spec.op === 'encode' ? spec.height * 2 ** (spec.addedBits ?? 0) : spec.height;
}

/**
 * The job's passes: for lde an inverse transform (1/h and shift^j fused) then the padded forward
 * one. `tileLog` > 0 (twoLevelLog) lays transforms out with two-level passes, encode's and the
 * lde's dft with their register remainder first (foldPadding, fusedLdePass: ntt-plan.ts twoLevelRadices).
 */
export function jobPasses(spec: NttSpec, tileLog = 0): { passes: NttPass[]; scale: [number, number, number] | null } {
  const h = spec.height;
  const logH = Math.round(Math.log2(h));
  const bits = spec.addedBits ?? 0;
  const br = spec.bitReversed ? NTT_FLAG_BITREV : 0;
  const mr = spec.maxRadix;
  const two = (remainderFirst: boolean) => (tileLog > 0 ? { tileLog, remainderFirst } : undefined);
  const fold = (ps: NttPass[]) => (spec.foldPadding ?? FOLD_PADDING ? foldPadding(ps) : ps);
  switch (spec.op) {
    case 'dft': return { passes: planTransform(logH, h, br, mr, two(false)), scale: null };
    case 'idft': return { passes: planTransform(logH, h, NTT_FLAG_INVERSE | NTT_FLAG_SCALE | br, mr, two(false)), scale: inverseScale(h) };
    case 'encode': return { passes: fold(planTransform(logH + bits, h, br, mr, two(true))), scale: null };
    case 'lde': return {
      passes: fold([...planTransform(logH, h, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, mr, two(false)), ...planTransform(logH + bits, h, br, mr, two(true))]),
      scale: inverseScale(h, spec.shift ?? 1),
    };
  }
}

/**
 * The two-level radix's log2 a job runs with: spec.twoLevel (else the default above) when it is even,
 * 4..10, the passes use Shoup table twiddles, and one group of the job's width fits a workgroup
 * here; else 0 (register passes only).
 */
export function twoLevelLog(ctx: GpuContext, spec: NttSpec): number {
  const t = spec.twoLevel ?? (spec.width <= TWO_LEVEL_MAX_WIDTH && spec.height >= TWO_LEVEL_MIN_ROWS ? TWO_LEVEL : 0);
  if (!(t >= 4 && t <= 10 && t % 2 === 0)) return 0;
  if (!(spec.shoup ?? SHOUP_TWIDDLES) || !(spec.twiddleTables ?? TABLE_TWIDDLES)) return 0;
  return twoLevelGroups(2 ** (t / 2), spec.width, 1, ctx.workgroup) > 0 ? t : 0;
}

/** The passes a job runs on this device: jobPasses with the two-level layout twoLevelLog picks here. */
export function devicePasses(ctx: GpuContext, spec: NttSpec): { passes: NttPass[]; scale: [number, number, number] | null } {
  return jobPasses(spec, twoLevelLog(ctx, spec));
}

/** The staged first pass is the default below this width (see NttSpec.stagedFirstPass). */
export const STAGE_BELOW_WIDTH = 8;

/**
 * Which passes run the staged kernel: wanted (NttSpec.stagedFirstPass, else the width default),
 * stagedQualifies (./ntt-plan.ts) and the adapter's limits (wg threads and a NTT_STAGE_WORDS-word
 * tile; radix 4 needs 1024 threads, past WebGPU's default 256).
 */
export function stagedPasses(ctx: GpuContext, spec: NttSpec, passes: NttPass[]): boolean[] {
  const lim = ctx.workgroup;
  const want = spec.stagedFirstPass ?? spec.width < STAGE_BELOW_WIDTH;
  return passes.map((p) => want && stagedQualifies(p, spec.width) && stageWorkgroup(p.radix) <= lim.threads && NTT_STAGE_WORDS * 4 <= lim.tileBytes);
}

/**
 * How each Stockham pass gets its twiddles: 'staged' (first pass, none; also a two-level pass at Ns = 1), 'table' (tableQualifies),
 * 'split' (splitQualifies, Shoup only), or 'running' (computed: lo/hi power, running product).
 */
export type TwiddleSource = 'staged' | 'table' | 'split' | 'running';
export function twiddleSources(spec: NttSpec, passes: NttPass[], staged: boolean[]): TwiddleSource[] {
  const tables = spec.twiddleTables ?? TABLE_TWIDDLES;
  const max = spec.tableMax;
  return passes.map((p, i) => {
    if (staged[i] || (p.sub > 0 && p.ns === 1)) return 'staged';
    if (tables && tableQualifies(p, max)) return 'table';
    if (p.sub > 0) return 'split'; // two-level passes have no running-product entry (twoLevelLog: Shoup tables only)
    if (tables && (spec.shoup ?? SHOUP_TWIDDLES) && (spec.splitTables ?? SPLIT_TABLES) && splitQualifies(p, max)) return 'split';
    return 'running';
  });
}

/**
 * Index of the lde idft's last pass when it fuses with the next (the dft's first) pass: wanted
 * (NttSpec.fuseLde), register passes, the dft's first pass is radix 32 and can store through the
 * tile (at any width: the fused kernel always does), and its row stride n'/32 equals the idft's
 * last stride n/R1 (R1 = 32 / 2^addedBits, one of NTT_FUSED_RADICES); else -1. (Two-level passes
 * do not fuse: a fused two-level pass measured 1.16x slower than the two, bench/RESULTS.md.)
 */
export function fusedLdePass(ctx: GpuContext, spec: NttSpec, passes: NttPass[]): number {
  if (spec.op !== 'lde' || !(spec.fuseLde ?? FUSE_LDE)) return -1;
  const staged = stagedPasses(ctx, { ...spec, stagedFirstPass: true }, passes);
  const i = passes.findIndex((p) => (p.flags & NTT_FLAG_LAST) !== 0); // an lde's first transform is its idft
  const p = passes[i], q = passes[i + 1];
  if (!p || !q || p.sub > 0 || !staged[i + 1] || q.radix !== 32 || q.ns !== 1 || q.n / q.radix !== p.n / p.radix || !NTT_FUSED_RADICES.includes(p.radix)) return -1;
  return i;
}

/** How an lde or idft carries its scale in its tables (scaleFold): which pass, and the tables' factors. */
export interface ScaleFold {
  /** Index of the idft's last pass; for an lde the dft's first pass is the next. */
  index: number;
  /** The idft's last pass's split table scale (passSplitTable). */
  split: SplitScale;
  /** lde: the dft's first pass table's row factor g^Ns (passTwiddleTable); idft: 1, unused. */
  rowFactor: number;
}

/**
 * Whether an lde carries its scale c·g^i (c = 1/h, g = shift·ω_h: inverseScale; i the coefficient)
 * in its twiddle tables instead of two Montgomery multiplies per value in the idft's last store. It
 * can when the idft ends with a two-level split pass of radix T (Ns = h/T: its group k writes the
 * coefficients i ≡ k mod Ns) and the dft starts with a folded two-level table pass of the same radix at Ns = 2
 * (its row r reads coefficient a + r·h/T): then i = a + q·Ns splits into c·g^a, a factor per idft
 * group (in its split table, NTT_FLAG_FOLDED_SCALE), and (g^Ns)^q, a factor per dft row (in that
 * pass's table). The 2^24 -> 2^25 lde at widths ≤ 8 has this layout. A standalone idft ending
 * with a two-level split pass folds c·ω_h^k the same way and gets ω_h^(s·Ns) = ω_T^s by rotating
 * that pass's inputs (NTT_FLAG_ROTATE). Returns null otherwise, and `passes` with the idft's last
 * pass reflagged (FOLDED_SCALE, and ROTATE for the idft, instead of SCALE) when it applies.
 */
export function scaleFold(spec: NttSpec, passes: NttPass[], sources: TwiddleSource[]): { passes: NttPass[]; fold: ScaleFold | null } {
  const none = { passes, fold: null };
  if ((spec.op !== 'lde' && spec.op !== 'idft') || !(spec.foldScale ?? FOLD_SCALE)) return none;
  const i = passes.findIndex((p) => (p.flags & NTT_FLAG_LAST) !== 0); // an lde's first transform is its idft
  const p = passes[i], q = passes[i + 1];
  if (spec.op === 'idft') {
    if (!p || p.sub === 0 || p.ns === 1 || sources[i] !== 'split' || (p.flags & NTT_FLAG_SCALE) === 0) return none;
    const [c, g] = inverseScale(p.n);
    const rotated = { ...p, flags: (p.flags & ~NTT_FLAG_SCALE) | NTT_FLAG_FOLDED_SCALE | NTT_FLAG_ROTATE };
    return { passes: passes.map((x, j) => (j === i ? rotated : x)), fold: { index: i, split: { c, g }, rowFactor: 1 } };
  }
  if (!p || !q || p.sub === 0 || q.sub !== p.sub || sources[i] !== 'split' || sources[i + 1] !== 'table') return none;
  if (q.ns !== 2 || (q.flags & NTT_FLAG_HALF) === 0 || q.n !== 2 * p.n || (p.flags & NTT_FLAG_SCALE) === 0) return none;
  const [c, g] = inverseScale(p.n, spec.shift ?? 1);
  const folded = { ...p, flags: (p.flags & ~NTT_FLAG_SCALE) | NTT_FLAG_FOLDED_SCALE };
  return {
    passes: passes.map((x, j) => (j === i ? folded : x)),
    fold: { index: i, split: { c, g }, rowFactor: bbPow(g, p.ns) },
  };
}
