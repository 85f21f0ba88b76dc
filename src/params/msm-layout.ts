/**
 * The MSM's buffer layouts, once: how many u32 words each record of its GPU buffers takes. The
 * host sizes and indexes buffers from these (src/kernels/msm/), and the WGSL kernels read the same
 * numbers as the named constants of MSM_WGSL_CONSTS (src/params/wgsl-consts.ts prepends them), so
 * a point's size is never a literal on either side. Also the windows' shape, which the kernels'
 * host code and the CPU twin (src/ref/msm.ts) share.
 * @module
 */
import { FQ_LIMBS } from './bn254.js';

/** Words of one record in the MSM's buffers. */
export const MSM_WORDS = Object.freeze({
  /** an Fq element: 8 little-endian 32-bit limbs (Montgomery form on the GPU) */
  fq: FQ_LIMBS,
  /** an affine point (x, y): the bases, and the walker's leading pieces (all zeros = identity) */
  affine: 2 * FQ_LIMBS,
  /** a projective point (X, Y, Z): bucket sums and the points of the reduction's pairs */
  projective: 3 * FQ_LIMBS,
  /** a reduction pair (W, S̃): two projective points */
  pair: 6 * FQ_LIMBS,
  /** a scalar as the caller packed it: 32 bytes */
  scalar: 8,
});

/** Bytes of the same records. */
export const MSM_BYTES = Object.freeze({
  affine: 4 * MSM_WORDS.affine,
  projective: 4 * MSM_WORDS.projective,
  pair: 4 * MSM_WORDS.pair,
  scalar: 4 * MSM_WORDS.scalar,
});

/** Number of windows for window size c: they cover bits [0, 255), so the top digit never needs a carry (r < 2^254). */
export function windowCount(c: number): number {
  return Math.ceil(255 / c);
}

/**
 * Windows of the full c bits; the T·c - 255 above them have c - 1, so the windows cover exactly
 * 255 bits. With all T of c bits the top window would see only 254 - (T - 1)·c bits of a scalar
 * (2 at c = 14), its digits crowding a few buckets whose entries the walker's fix-up adds in one
 * thread each (H100 2^20 at c = 14: 2 s of fix-up); this way it sees c - 2 or more.
 */
export function wideWindows(c: number): number {
  return 255 - windowCount(c) * (c - 1);
}

/** First bit of window j (j = T: 255, the end of the last). */
export function windowStart(j: number, c: number): number {
  return j * c - Math.max(0, j - wideWindows(c));
}

/** Bits of window j: c, or c - 1 for the top T·c - 255 windows. */
export function windowBits(j: number, c: number): number {
  return j < wideWindows(c) ? c : c - 1;
}

/** Buckets per window: |d| in 1..2^(c-1), bucket index |d| - 1. */
export const bucketsPerWindow = (c: number): number => 1 << (c - 1);

/** Half-planes of a 256-bit scalar (16 bits each): the sort reads a window's digit from them. */
export const SCALAR_HALVES = 16;

/** The layout as WGSL constants (`const FQ_WORDS: u32 = 8u;` ...). */
export const MSM_WGSL_CONSTS = {
  FQ_WORDS: MSM_WORDS.fq,
  G1_AFFINE_WORDS: MSM_WORDS.affine,
  G1_PROJ_WORDS: MSM_WORDS.projective,
  MSM_SCALAR_WORDS: MSM_WORDS.scalar,
  SCALAR_HALVES,
} as const;
