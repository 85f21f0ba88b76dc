/**
 * The NTT's Stockham passes, in plain TypeScript (no GPU): how a transform of 2^k rows splits into
 * radix passes (register and two-level), what each pass's uniform holds, and the index formulas of
 * the kernel (wgsl/kernels/ntt_stockham.gen.wgsl); its tables are ./tables.ts, the choices per job
 * ./layout.ts and ./plan.ts. test/unit/ntt-plan.test.ts runs these exact index formulas on the
 * CPU against src/ref/ntt.ts, so a wrong index shows up without a GPU.
 *
 * Stockham auto-sort (radix R, stride Ns = product of earlier radices), for j < n/R, k = j mod Ns:
 *   v[r] = x[j + r·n/R] · ω_{Ns·R}^(k·r);   V = DFT_R(v);   y[(j − k)·R + k + s·Ns] = V[s]
 * Input and output are both natural order, and every pass reads n/R-strided rows that are
 * consecutive across threads (coalesced), so no bit-reversal pass is ever needed.
 *
 * Stores are coalesced too once Ns ≥ 32 (consecutive j, same (j − k)·R, consecutive k). The first
 * pass (Ns = 1, k = 0) stores thread j's R values at rows j·R .. j·R + R − 1, a stride of R words
 * across the lanes at width 1. Unless it is also the last pass (whose destinations are mapped), it
 * runs `ntt_pass_r${R}_staged` (stagedQualifies): the values go through a NTT_STAGE_WORDS-word
 * workgroup tile (stageSlot) and leave as one contiguous block per workgroup (stageCopy).
 * @module
 */
import { BB_TWO_ADICITY } from '../../params/babybear.js';

/** Largest radix: 32 values per thread fit in registers. */
export const NTT_MAX_RADIX = 32;
/** Exponents of ω_{2^27} split as lo (14 bits) + hi (13 bits): two small tables, one extra multiply. */
export const NTT_TW_LO_BITS = 14;
const TW_HI_BITS = BB_TWO_ADICITY - NTT_TW_LO_BITS;
/**
 * Twiddle table layout (u32 words, Montgomery form): ω_{2^27}^i lo, ω_{2^27}^(i·2^14) hi. The
 * butterflies' ω_32 roots are WGSL constants (BB_ROOTS_32, src/params/wgsl-consts.ts), not entries.
 */
export const NTT_TW_LO = 0;
export const NTT_TW_HI = NTT_TW_LO + (1 << NTT_TW_LO_BITS);
export const NTT_TW_WORDS = NTT_TW_HI + (1 << TW_HI_BITS);

/** Pass flags (the kernel's `flags` uniform). */
export const NTT_FLAG_LAST = 1; // scale and bit-reverse output indices (the last pass of a transform)
/**
 * On an inverse transform's first pass: load row n − 1 − r for row r. idft(x)[i] = ω^i/n ·
 * dft(x reversed)[i], so with the scale c·g^i, c = 1/n and g = ω_n (inverseScale) the forward
 * passes give the idft with no inverse twiddles, and every store stays in natural order (a
 * reversal mod n on the last store shifted each lane run one word off its 64-byte alignment).
 */
export const NTT_FLAG_INVERSE = 2;
export const NTT_FLAG_BITREV = 4; // dest = bitrev(dest): bit-reversed row order, fused into the store
export const NTT_FLAG_SCALE = 8; // out = V · c · g^dest from the scale table
export const NTT_FLAG_HALF = 16; // load row ρ from input row ρ >> 1: a zero-padded radix-2 first pass, folded in (foldPadding)
/** An lde's idft last pass whose split table carries the scale (passSplitTable with a SplitScale): row 0 multiplies too. */
export const NTT_FLAG_FOLDED_SCALE = 32;
/**
 * A two-level split pass whose T inputs are rotated by one (input r takes row and twiddle r − 1 mod
 * T): multiplies its output s by ω_T^s. With a folded scale this finishes an idft's c·ω_h^i
 * (i = k + s·Ns: c·ω_h^k in the split table, ω_h^(s·Ns) = ω_T^s by the rotation; scaleFold).
 */
export const NTT_FLAG_ROTATE = 128;
/** Rows at or past inRows read as zero (a zero-padded first pass): set by the host (passFlags), not the plan. */
export const NTT_FLAG_PADDED = 64;

/** A pass's flags as its kernel reads them: the plan's, and NTT_FLAG_PADDED where its loads can pass inRows. */
export function passFlags(p: NttPass): number {
  const rows = p.flags & NTT_FLAG_HALF ? p.n / 2 : p.n;
  return p.flags | (p.inRows < rows ? NTT_FLAG_PADDED : 0);
}

export interface NttPass {
  radix: number;
  /** n: rows of this transform. */
  n: number;
  logN: number;
  /** Ns: product of the radices of the earlier passes. */
  ns: number;
  /** Rows of the source that hold data; rows at or past it read as 0 (zero padding, first pass). */
  inRows: number;
  /** ω_{Ns·R} = ω_{2^A}^(2^twShift), A the field's two-adicity (27 for BabyBear). */
  twShift: number;
  flags: number;
  /**
   * 0 for a register pass; R for a two-level pass (ntt_pass2_r${R}*: radix = R·R, two register
   * halves exchanging through workgroup memory, see twoLevelRadices).
   */
  sub: number;
}

/**
 * Radices for 2^logN rows: radix-32 passes, the remainder as one radix 2..16 pass. Radix 32 over
 * radix 16: 2^24 takes 5 passes instead of 6 (each pass moves the whole matrix through DRAM
 * twice) for about the same multiplies per element (3.4 vs 2.9 per pass).
 */
export function radices(logN: number, maxRadix = NTT_MAX_RADIX): number[] {
  if (logN === 0) return [1]; // one pass still copies (and scales) the single row
  const b = Math.round(Math.log2(maxRadix));
  const q = Math.floor(logN / b);
  const r = logN % b;
  const out = new Array<number>(q).fill(maxRadix);
  if (r > 0) out.push(1 << r);
  return out;
}

/**
 * A transform whose first pass is radix 2 over zero-padded rows (inRows = n/2; the two-level
 * layout at one added bit: 2^25 = 2·256·256·256) only copies row j to rows 2j and 2j + 1 in that
 * pass (V = v0 ± 0). So the pass goes, and the next one loads row ρ from input row ρ >> 1
 * (NTT_FLAG_HALF): one pass over the matrix fewer for encode and lde, and that pass reads the
 * half-size input (rows ρ and ρ ^ 1 are neighbouring lanes of one load). Other passes come back unchanged.
 */
export function foldPadding(passes: NttPass[]): NttPass[] {
  const i = passes.findIndex((q) => q.ns === 1 && q.radix === 2 && q.sub === 0 && q.inRows * 2 === q.n);
  const q = passes[i],
    r = passes[i + 1];
  if (!q || !r || (q.flags & NTT_FLAG_LAST) !== 0 || r.ns !== 2) return passes;
  return [...passes.slice(0, i), { ...r, flags: r.flags | NTT_FLAG_HALF, inRows: q.inRows }, ...passes.slice(i + 2)];
}

/** R of the two-level entry points (radix R·R = 16, 64, 256, 1024), each with none / table / split pre-twiddles. */
export const NTT_TWO_LEVEL_RADICES = [4, 8, 16, 32];

/**
 * Two-level layout of a transform: as many two-level passes of 2^tileLog rows (tileLog even, 4..10)
 * as fit, the remaining bits as register passes (radices()), first or last. 2^24 at tileLog 8:
 * [256, 256, 256], three passes over the matrix instead of five. Encode and an lde's dft put the
 * remainder first: a radix-2 one over zero-padded rows then folds into the next pass's loads
 * (foldPadding; 2^25 = [2, 256, 256, 256]), a radix-32 one fuses with the lde's idft (fusedLdePass).
 * Entries are [radix, sub]: sub = R for a two-level pass of radix R·R, 0 for a register pass.
 */
export function twoLevelRadices(logN: number, tileLog: number, remainderFirst: boolean, maxRadix = NTT_MAX_RADIX): Array<[number, number]> {
  const q = Math.floor(logN / tileLog);
  if (q === 0) return radices(logN, maxRadix).map((r) => [r, 0]);
  const rem = logN - q * tileLog;
  const tiles: Array<[number, number]> = new Array(q).fill([2 ** tileLog, 2 ** (tileLog / 2)]);
  const regs: Array<[number, number]> = rem > 0 ? radices(rem, maxRadix).map((r) => [r, 0]) : [];
  return remainderFirst ? [...regs, ...tiles] : [...tiles, ...regs];
}

/** Options of planTransform's two-level layout: log2 of the two-level radix, and where the remainder goes. */
export interface TwoLevelLayout {
  tileLog: number;
  remainderFirst: boolean;
}

/**
 * Passes of one transform of n = 2^logN rows. `inRows` < n zero-pads the input (first pass);
 * `last` flags (bit reversal, scale) go on the final pass only, except NTT_FLAG_INVERSE, which
 * goes on the first (its reversed loads). With `two`, two-level passes (twoLevelRadices) replace
 * pairs of register passes. `twoAdicity`: the field's (BabyBear's 27 when absent), whose largest
 * root ω_{2^twoAdicity} the lo/hi powers table holds, so twShift counts from it.
 */
export function planTransform(
  logN: number,
  inRows: number,
  lastFlags: number,
  maxRadix = NTT_MAX_RADIX,
  two?: TwoLevelLayout,
  twoAdicity = BB_TWO_ADICITY,
): NttPass[] {
  const n = 2 ** logN;
  let ns = 1;
  const rs: Array<[number, number]> = two
    ? twoLevelRadices(logN, two.tileLog, two.remainderFirst, maxRadix)
    : radices(logN, maxRadix).map((r) => [r, 0]);
  return rs.map(([radix, sub], i) => {
    const pass: NttPass = {
      radix,
      n,
      logN,
      ns,
      sub,
      inRows: i === 0 ? inRows : n,
      twShift: twoAdicity - Math.round(Math.log2(ns * radix)),
      flags: (i === 0 ? lastFlags & NTT_FLAG_INVERSE : 0) | (i === rs.length - 1 ? NTT_FLAG_LAST | (lastFlags & ~NTT_FLAG_INVERSE) : 0),
    };
    ns *= radix;
    return pass;
  });
}

/** The staged first pass's workgroup tile, in u32 words: 16 KiB, WebGPU's default maxComputeWorkgroupStorageSize. */
export const NTT_STAGE_WORDS = 4096;

/** Radices R1 of an lde idft's last pass that `ntt_lde_fused_r${R1}` fuses with a radix-32 dft first pass. */
export const NTT_FUSED_RADICES = [2, 4, 8, 16];

/** Threads per workgroup of `ntt_pass_r${radix}_staged`: one tile of outputs (128 at radix 32). */
export function stageWorkgroup(radix: number): number {
  return NTT_STAGE_WORDS / radix;
}

/**
 * Whether pass `p` at width `w` can run the staged kernel: the first pass of its transform and
 * not the last, R ≥ 4, W divides the workgroup (so a workgroup covers whole rows: W a power of
 * two ≤ NTT_STAGE_WORDS / R), and at least one full workgroup of threads, so that every
 * workgroup's block lies inside the matrix ((n/R)·W ≥ wg, i.e. n·W ≥ NTT_STAGE_WORDS). The host
 * adds the adapter's limits (threads per workgroup: 1024 at radix 4).
 */
export function stagedQualifies(p: NttPass, w: number): boolean {
  const wg = stageWorkgroup(p.radix);
  return (
    p.sub === 0 && p.ns === 1 && (p.flags & NTT_FLAG_LAST) === 0 && p.radix >= 4 && w <= wg && wg % w === 0 && (p.n / p.radix) * w >= wg
  );
}

/** Tile slot of tile word x: an XOR within x's 32-word row against bank conflicts (ntt_stage_slot in the kernel). */
export function stageSlot(x: number, radix: number, w: number): number {
  const q = Math.max(1, (radix * w) / 32);
  return x ^ ((Math.floor((x >>> 5) / q) * w) & 31);
}

/** Tile word that local thread `lid` writes V[s] to (the kernel: ((lid / W)·R + s)·W + col). */
export function stageWord(lid: number, s: number, radix: number, w: number): number {
  return (Math.floor(lid / w) * radix + s) * w + (lid % w);
}

/** Global word that tile word x (copied out by thread x mod wg) goes to, for the workgroup whose first thread is t0. */
export function stageCopy(t0: number, x: number, radix: number): number {
  return t0 * radix + x;
}

/**
 * Workgroup-memory word of point i (< R·R) of lane `lane` in a two-level pass (the kernel's
 * ntt_tile2_word plus the lane): i's low log2(R) bits XOR (i / R) mod max(1, 32 / lanes), a mask
 * below R, so the XOR stays inside i's R-block. When lanes divides 32, the first half's writes
 * (i = j'·R + s) and the second half's reads (i = j'' + r·R) each hit 32 distinct banks per warp.
 */
export function tile2Word(i: number, logR: number, lanes: number, lane: number): number {
  const mask = Math.min(2 ** logR, Math.max(1, Math.floor(32 / lanes))) - 1;
  return (i ^ ((i >>> logR) & mask)) * lanes + lane;
}

/**
 * Tile word of output s of lane `lane` in a two-level first pass's copy-out (the kernel's
 * ntt_tile2_out): s·lanes + (lane XOR (s / max(1, 32 / lanes)) mod lanes) for a power-of-two lane count.
 */
export function tile2Out(s: number, lanes: number, lane: number): number {
  if ((lanes & (lanes - 1)) !== 0) return s * lanes + lane;
  return s * lanes + (lane ^ (Math.floor(s / Math.max(1, Math.floor(32 / lanes))) & (lanes - 1)));
}

/**
 * Groups per workgroup of a two-level pass of R·R rows at width w: the largest power of two
 * ≤ `most` (the caller's cap; layout.ts twoLevelGroupsFor: 16 lanes) and ≤ the pass's groups m
 * whose G·w·R threads and G·w·R·R-word tile fit the limits; 0 when not even one group fits.
 */
export function twoLevelGroups(R: number, w: number, m: number, lim: { threads: number; tileBytes: number }, most = 8): number {
  for (let g = Math.min(most, m); g >= 1; g >>= 1) {
    if (g * w * R <= lim.threads && g * w * R * R * 4 <= lim.tileBytes) return g;
  }
  return 0;
}

/** The 8-word uniform of one pass (field order of NttParams in ntt_stockham.gen.wgsl). */
export function passUniform(p: NttPass): Uint32Array {
  return Uint32Array.from([p.n, p.ns, p.inRows, p.twShift, passFlags(p), p.logN, splitBits(p.ns), 0]);
}

/**
 * Largest Ns·R whose pass reads its twiddles from a table of its own ((R − 1)·Ns words: 4 MiB at
 * Ns·R = 2^20), which stays in L2 while the pass streams the matrix. Past it (the last pass of a
 * 2^24 or 2^25 transform) the table would be as large as the data, so those passes compute
 * their twiddles (one lo/hi power, then a running product: two multiplies per value, not one).
 */
export const NTT_TABLE_MAX = 1 << 20;

/**
 * Whether pass `p` reads its twiddles from passTwiddleTable(p.ns, p.radix) through the `sc`
 * binding: it has twiddles (Ns ≥ 2), is not the last pass (which needs `sc` for its scale
 * table), and its table is small enough to stay cached (NTT_TABLE_MAX).
 */
export function tableQualifies(p: NttPass, max = NTT_TABLE_MAX): boolean {
  return p.ns >= 2 && p.radix >= 2 && (p.flags & NTT_FLAG_LAST) === 0 && p.ns * p.radix <= max;
}

/**
 * Whether pass `p` reads its twiddles from a split table (passSplitTable) through the `tw`
 * binding: it has twiddles and no single table (past `max`, or the last pass). Shoup only.
 */
export function splitQualifies(p: NttPass, max = NTT_TABLE_MAX): boolean {
  return p.ns >= 2 && p.radix >= 2 && !tableQualifies(p, max);
}

/** Low bits h of k = kh·2^h + kl in a split table: ceil(log2(Ns) / 2). */
export function splitBits(ns: number): number {
  return Math.ceil(Math.round(Math.log2(ns)) / 2);
}
