/**
 * CPU twins of the GPU MSM stages (src/kernels/msm/), in bigint, with the same layouts:
 *   1. signedDigit: carry-free signed window digit (Booth recoding with one look-back bit),
 *   2. bucketCsr: counting sort of (point, sign) entries by bucket, windows x buckets CSR,
 *   3. accumulate: affine sums per bucket, handling P = Q (doubling) and P = -Q (identity),
 *   4. reduceWindowLevels: segmented running sums, sum_t t·B_t = sum_k W_k + SEG · sum_k k·S_k,
 *      then levels that merge groups of (W, S) pairs until one is left,
 *   5. combine: Horner over windows, sum_j 2^(windowStart(j)) G_j (windows of c bits, the top
 *      ones of c - 1: src/params/msm-layout.ts).
 * Checked against @noble/curves' pippenger in test/unit/msm-ref.test.ts.
 * @module
 */
import { FQ_P, FR_R, invMod, mod } from '../params/bn254.js';
import { bucketsPerWindow, windowBits, windowCount, windowStart } from '../params/msm-layout.js';

export { bucketsPerWindow, windowCount };

/** Affine point; null is the identity. */
export type Affine = { x: bigint; y: bigint } | null;

/**
 * Digit j of k in [-2^(c-1), 2^(c-1)]: window j's b bits (c, or c - 1 at the top) from its start s,
 * plus bit s - 1 (look-back), minus 2^b when the window's top bit is set. sum_j d_j 2^(s_j) = k for
 * k < 2^254 (the windows cover 255 bits, so the top one's top bit is 0).
 */
export function signedDigit(k: bigint, j: number, c: number): number {
  const lo = windowStart(j, c),
    bits = windowBits(j, c);
  const w = Number((k >> BigInt(lo)) & ((1n << BigInt(bits)) - 1n));
  const look = j === 0 ? 0 : Number((k >> BigInt(lo - 1)) & 1n);
  const top = (w >> (bits - 1)) & 1;
  return w + look - top * (1 << bits);
}

export interface Csr {
  /** offsets[b]..offsets[b+1] are bucket b's entries; b = j·M + |d| - 1 */
  offsets: Uint32Array;
  /** point index | sign << 31 (sign = digit < 0) */
  entries: Uint32Array;
}

/** Counting sort of every nonzero digit of windows [w0, w0 + W) into bucket order. */
export function bucketCsr(scalars: readonly bigint[], c: number, w0: number, W: number): Csr {
  const M = bucketsPerWindow(c);
  const counts = new Uint32Array(W * M + 1);
  const digits: number[][] = [];
  for (let j = 0; j < W; j++) {
    digits.push(scalars.map((k) => signedDigit(k, w0 + j, c)));
    for (const d of digits[j]) if (d !== 0) counts[j * M + Math.abs(d) - 1]++;
  }
  const offsets = new Uint32Array(W * M + 1);
  for (let b = 0; b < W * M; b++) offsets[b + 1] = offsets[b] + counts[b];
  const cursor = offsets.slice();
  const entries = new Uint32Array(offsets[W * M]);
  for (let j = 0; j < W; j++) {
    digits[j].forEach((d, i) => {
      if (d !== 0) entries[cursor[j * M + Math.abs(d) - 1]++] = (i | (d < 0 ? 0x80000000 : 0)) >>> 0;
    });
  }
  return { offsets, entries };
}

export function affineNeg(p: Affine): Affine {
  return p === null ? null : { x: p.x, y: mod(-p.y, FQ_P) };
}

/** Affine addition with every case the GPU walker handles: identity, P = Q, P = -Q. */
export function affineAdd(a: Affine, b: Affine): Affine {
  if (a === null) return b;
  if (b === null) return a;
  let lambda: bigint;
  if (a.x === b.x) {
    if (a.y !== b.y || a.y === 0n) return null; // P + (-P)
    lambda = mod(3n * a.x * a.x * invMod(2n * a.y, FQ_P), FQ_P);
  } else {
    lambda = mod((b.y - a.y) * invMod(b.x - a.x, FQ_P), FQ_P);
  }
  const x = mod(lambda * lambda - a.x - b.x, FQ_P);
  return { x, y: mod(lambda * (a.x - x) - a.y, FQ_P) };
}

/** Bucket sums of a CSR batch. */
export function accumulate(points: readonly Affine[], csr: Csr): Affine[] {
  const nb = csr.offsets.length - 1;
  const sums: Affine[] = [];
  for (let b = 0; b < nb; b++) {
    let acc: Affine = null;
    for (let e = csr.offsets[b]; e < csr.offsets[b + 1]; e++) {
      const v = csr.entries[e];
      const p = points[v & 0x7fffffff];
      acc = affineAdd(acc, v >>> 31 ? affineNeg(p) : p);
    }
    sums.push(acc);
  }
  return sums;
}

function mulSmall(p: Affine, k: number): Affine {
  let r: Affine = null;
  for (let add = p; k > 0; k >>>= 1, add = affineAdd(add, add)) if (k & 1) r = affineAdd(r, add);
  return r;
}

/** One (W, S̃) pair of the bucket reduction (wgsl/kernels/msm_reduce.wgsl). */
export type ReducePair = { w: Affine; s: Affine };

/**
 * sum_{t=1..M} t·B_t for one window's bucket sums, as the GPU computes it: segments of `seg`
 * buckets give pairs (W_k, S̃_k = seg·S_k) standing for sum_k W_k + sum_k k·S̃_k, then each level
 * in `levels` (log2 of a group size) merges groups of pairs until one is left; its W is the sum.
 */
export function reduceWindowLevels(buckets: readonly Affine[], seg: number, levels: readonly number[]): Affine {
  let pairs: ReducePair[] = [];
  for (let k = 0; k < buckets.length / seg; k++) {
    let run: Affine = null,
      acc: Affine = null;
    for (let t = seg - 1; t >= 0; t--) {
      run = affineAdd(run, buckets[k * seg + t]);
      acc = affineAdd(acc, run);
    }
    pairs.push({ w: acc, s: mulSmall(run, seg) });
  }
  for (const g of levels) pairs = reduceLevel(pairs, 1 << g);
  if (pairs.length !== 1) throw new Error(`reduction levels leave ${pairs.length} pairs`);
  return pairs[0].w;
}

/**
 * Groups of G pairs -> one: W' = sum_j W_{qG+j} + sum_j j·S̃_{qG+j}, S̃' = G·sum_j S̃_{qG+j}, as
 * sum_k W_k + sum_k k·S̃_k = sum_q W'_q + sum_q q·S̃'_q. Carrying S scaled costs log2 G
 * doublings per level instead of log2(scale), which grows by log2 G each level.
 */
export function reduceLevel(pairs: readonly ReducePair[], G: number): ReducePair[] {
  const out: ReducePair[] = [];
  for (let q = 0; q < pairs.length / G; q++) {
    let wsum: Affine = null,
      run: Affine = null,
      acc: Affine = null;
    for (let j = G - 1; j >= 0; j--) {
      wsum = affineAdd(wsum, pairs[q * G + j].w);
      run = affineAdd(run, pairs[q * G + j].s);
      if (j >= 1) acc = affineAdd(acc, run);
    }
    out.push({ w: affineAdd(wsum, acc), s: mulSmall(run, G) });
  }
  return out;
}

/** sum_j 2^(windowStart(j)) G_j by Horner from the top window. */
export function combine(windows: readonly Affine[], c: number): Affine {
  let acc: Affine = null;
  for (let j = windows.length - 1; j >= 0; j--) {
    for (let i = 0; i < windowBits(j, c); i++) acc = affineAdd(acc, acc);
    acc = affineAdd(acc, windows[j]);
  }
  return acc;
}

/** The whole pipeline on the CPU, stage by stage (slow: bigint; for n up to ~2^8 in tests). */
export function msmRef(points: readonly Affine[], scalars: readonly bigint[], c: number, seg: number, levels: readonly number[]): Affine {
  for (const k of scalars) if (k < 0n || k >= FR_R) throw new RangeError('scalar out of range');
  const T = windowCount(c);
  const M = bucketsPerWindow(c);
  const csr = bucketCsr(scalars, c, 0, T);
  const sums = accumulate(points, csr);
  const windows: Affine[] = [];
  for (let j = 0; j < T; j++) windows.push(reduceWindowLevels(sums.slice(j * M, (j + 1) * M), seg, levels));
  return combine(windows, c);
}
