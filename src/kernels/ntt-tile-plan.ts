/**
 * Plan of the workgroup-memory ("tiled") NTT variant, in plain TypeScript (no GPU). Each pass
 * is one Stockham pass of radix T = 2^logT (src/kernels/ntt-plan.ts gives the formula), but the
 * T-point DFT runs inside workgroup memory (wgsl/kernels/ntt_tile.wgsl: logT radix-2 DIF stages
 * with a barrier between stages), so 2^24 rows take 2 global passes at T = 4096 (3 at T = 512)
 * instead of the register path's 5 radix-32 passes, each of which reads and writes all of DRAM.
 *
 * One workgroup owns `cj` consecutive Stockham groups j0 .. j0+cj (j0 a multiple of cj) and all W
 * columns: L = cj·W lanes × T points, tile[r·L + lane]. Loads read T runs of L contiguous words
 * (rows j0 + c + r·n/T); stores write runs of ≥ L contiguous words, in this order (Nc = min(Ns, cj)):
 *   output-local row q < cj·T:  k_lo = q mod Nc,  s = (q / Nc) mod T,  c = (q / (Nc·T))·Nc + k_lo,
 *   j = j0 + c, k = j mod Ns, dest = (j − k)·T + k + s·Ns
 * When Ns ≥ cj this is cj contiguous rows per s; when Ns < cj it is rows j0·T + q, all contiguous.
 * test/unit/ntt-tile-plan.test.ts runs this exact math on the CPU against src/ref/ntt.ts.
 * @module
 */
import { BB_TWO_ADICITY } from '../params/babybear.js';
import { bbMul, toMonty } from '../ref/babybear.js';
import { twoAdicGenerator } from '../ref/ntt.js';
import { NTT_FLAG_LAST } from './ntt-plan.js';

/** Tile roots table: ω_{2^13}^i, i < 2^12, Montgomery form (16 KiB): covers T up to 8192. */
export const NTT_TILE_ROOT_LOG = 13;
/** Default tile: 4096 words = WebGPU's default 16 KiB maxComputeWorkgroupStorageSize. */
export const NTT_TILE_WORDS = 4096;
/** Default contiguous run per row group: 8 words = one 32-byte DRAM sector (NVIDIA). */
export const NTT_TILE_RUN = 8;
/**
 * Threads per tile workgroup on a GPU: 256 (16 values each at a 4096-word tile). H100, 2^24 ->
 * 2^25 x 1 encode: 1.97 ms at 256, 3.01 at 128, 10.1 at 32 (bench/RESULTS.md).
 */
export const NTT_TILE_WG = 256;
/**
 * On a CPU adapter (SwiftShader) barriers are coroutine switches: the 351 dft.json cases +
 * properties take 24 s at 32 threads, 155 s at 256. Same kernel, same results, smaller groups.
 */
export const NTT_TILE_WG_CPU = 32;

export interface NttTilePass {
  /** T = 2^logT: the radix of this pass, run in workgroup memory. */
  logT: number;
  n: number;
  logN: number;
  /** Ns: product of the radices of the earlier passes. */
  ns: number;
  /** cj = 2^logCj consecutive Stockham groups per workgroup (≤ n/T). */
  logCj: number;
  inRows: number;
  /** ω_{Ns·T} = ω_{2^27}^(2^twShift). */
  twShift: number;
  flags: number;
}

/** Tile shape options (bench-selectable). */
export interface NttTileShape {
  /** Workgroup tile size in u32 words (power of two, ≤ maxComputeWorkgroupStorageSize / 4). */
  tileWords?: number;
  /** Target contiguous words per row group (power of two): cj = ceil(run / W) rounded up to 2^k. */
  run?: number;
}

/** cj and the largest logT for width w: L = cj·w lanes, L·T ≤ tileWords. */
export function tileGeometry(width: number, shape: NttTileShape = {}): { logCj: number; maxLogT: number } {
  const words = shape.tileWords ?? NTT_TILE_WORDS;
  const run = shape.run ?? NTT_TILE_RUN;
  const logCj = Math.max(0, Math.ceil(Math.log2(run / width)));
  const maxLogT = Math.min(NTT_TILE_ROOT_LOG, Math.floor(Math.log2(words / (width * 2 ** logCj))));
  return { logCj, maxLogT };
}

/**
 * Passes of one transform of 2^logN rows, balanced: ceil(logN / maxLogT) passes whose logT differ
 * by at most 1 (2^24 at maxLogT 9: 8+8+8, not 9+9+6, so no pass is a short one).
 */
export function planTileTransform(logN: number, inRows: number, lastFlags: number, width: number, shape: NttTileShape = {}): NttTilePass[] {
  const { logCj, maxLogT } = tileGeometry(width, shape);
  if (maxLogT < 1) throw new Error(`tile of ${shape.tileWords ?? NTT_TILE_WORDS} words is too small for width ${width}`);
  const count = Math.max(1, Math.ceil(logN / maxLogT));
  const logs: number[] = [];
  for (let i = 0; i < count; i++) logs.push(Math.floor(logN / count) + (i < logN % count ? 1 : 0));
  const n = 2 ** logN;
  let logNs = 0;
  return logs.map((logT, i) => {
    const pass: NttTilePass = {
      logT, n, logN, ns: 2 ** logNs,
      logCj: Math.min(logCj, logN - logT),
      inRows: i === 0 ? inRows : n,
      twShift: BB_TWO_ADICITY - (logNs + logT),
      flags: i === count - 1 ? NTT_FLAG_LAST | lastFlags : 0,
    };
    logNs += logT;
    return pass;
  });
}

/** Workgroups of one pass: (n / T) / cj tiles. */
export function tileCount(p: NttTilePass): number {
  return 2 ** (p.logN - p.logT - p.logCj);
}

/** The 12-word uniform of one pass (field order of NttTileParams in ntt_tile.wgsl). */
export function tilePassUniform(p: NttTilePass): Uint32Array {
  return Uint32Array.from([p.n, p.ns, p.inRows, p.twShift, p.flags, p.logN, p.logT, p.logCj, 0, 0, 0, 0]);
}

/** ω_{2^13}^i for i < 2^12 (Montgomery form): the DIF stage of half-size h uses ω_{2h}^i = entry i·2^12/h. */
export function tileRootTable(): Uint32Array {
  const t = new Uint32Array(2 ** (NTT_TILE_ROOT_LOG - 1));
  const g = twoAdicGenerator(NTT_TILE_ROOT_LOG);
  let x = 1;
  for (let i = 0; i < t.length; i++, x = bbMul(x, g)) t[i] = toMonty(x);
  return t;
}

/** Source (c, s) of output-local row q of a tile: the store order of the header. */
export function tileStoreSource(q: number, ns: number, logCj: number, logT: number): { c: number; s: number } {
  const nc = Math.min(ns, 2 ** logCj);
  const T = 2 ** logT;
  const kLo = q % nc;
  return { c: Math.floor(q / (nc * T)) * nc + kLo, s: Math.floor(q / nc) % T };
}
