/**
 * BN254 G2 points and scalars as the Groth16 prover hands them over: the words of a snarkjs
 * zkey. A point is 32 little-endian u32 words: x.c0, x.c1, y.c0, y.c1, each Fq coordinate in
 * Montgomery form (value·2^256 mod q), all zero for the point at infinity; a scalar is 8
 * little-endian words, plain (not Montgomery). Decoding and encoding only, no curve arithmetic
 * and no noble import: the CPU twin (src/ref/g2-msm.ts) and the GPU host (src/kernels/g2msm/)
 * both build on it.
 * @module
 */
import { FQ_LIMBS, FQ_P, fromLimbs, fromMont, toLimbs, toMont } from '../params/bn254.js';
import { G2_WORDS, type Fq2Value } from '../params/bn254-g2.js';
import { atLeastR } from './fr-words.js';

/** Words of a zkey G2 point and of a scalar. */
export const G2_POINT_WORDS = G2_WORDS.affine;
export const SCALAR_WORDS = 8;

/** An affine G2 point's coordinates (each coordinate below q). */
export interface G2Affine {
  readonly x: Fq2Value;
  readonly y: Fq2Value;
}

/** The Fq element whose Montgomery form is words[at..at + 8) (may be >= q if the words are). */
export function fqFromMontWords(words: ArrayLike<number>, at: number): bigint {
  return fromMont(fromLimbs(words, at));
}

/** c0 + c1·u from 16 Montgomery words (c0 first). */
export function fq2FromMontWords(words: ArrayLike<number>, at: number): Fq2Value {
  return { c0: fqFromMontWords(words, at), c1: fqFromMontWords(words, at + FQ_LIMBS) };
}

/** Whether any of point i's four coordinates, as raw words, is >= q (not a canonical Montgomery value). */
export function g2WordsNonCanonical(words: ArrayLike<number>, i: number): boolean {
  for (let k = 0; k < 4; k++) if (fromLimbs(words, G2_POINT_WORDS * i + FQ_LIMBS * k) >= FQ_P) return true;
  return false;
}

/** Point i of a zkey word array: null for the identity (all 32 words zero). No curve check. */
export function g2AffineFromWords(words: ArrayLike<number>, i: number): G2Affine | null {
  const o = G2_POINT_WORDS * i;
  let any = 0;
  for (let w = 0; w < G2_POINT_WORDS; w++) any |= words[o + w];
  if (any === 0) return null;
  return { x: fq2FromMontWords(words, o), y: fq2FromMontWords(words, o + 2 * FQ_LIMBS) };
}

/** Affine points (null: the identity) as zkey words: the inverse of g2AffineFromWords. */
export function g2Words(points: readonly (G2Affine | null)[]): Uint32Array {
  const out = new Uint32Array(G2_POINT_WORDS * points.length);
  points.forEach((p, i) => {
    if (!p) return;
    [p.x.c0, p.x.c1, p.y.c0, p.y.c1].forEach((v, k) => out.set(toLimbs(toMont(v)), G2_POINT_WORDS * i + FQ_LIMBS * k));
  });
  return out;
}

/** Scalar i of 8-word little-endian scalars. */
export function scalarFromWords(words: ArrayLike<number>, i: number): bigint {
  return fromLimbs(words, SCALAR_WORDS * i);
}

/** Scalars as 8 little-endian words each. */
export function scalarWords(ks: readonly bigint[]): Uint32Array {
  const out = new Uint32Array(SCALAR_WORDS * ks.length);
  ks.forEach((k, i) => out.set(toLimbs(k), SCALAR_WORDS * i));
  return out;
}

/** What the G2 MSM's plan needs to know of its scalars, from one pass over their words. */
export interface ScalarScan {
  /** the first scalar >= r, or -1 */
  readonly firstBad: number;
  /** bits[b]: how many scalars have bit length b (0 for zero, up to 256) */
  readonly bits: Uint32Array;
}

/**
 * One pass over scalars [0, count): the range check (< r) and the histogram of bit lengths that
 * picks the window size (a witness is mostly 0, 1 and bits: plan.ts chooseC). Reads each scalar's
 * words from the top down to its first nonzero one: ~1-2 comparisons for a full-size scalar, 8
 * for a zero (~5 ms for 2^20 scalars).
 */
export function scanScalars(words: Uint32Array, count: number): ScalarScan {
  const bits = new Uint32Array(SCALAR_WORDS * 32 + 1);
  let firstBad = -1;
  for (let i = 0; i < count; i++) {
    const o = SCALAR_WORDS * i;
    let j = SCALAR_WORDS - 1;
    while (j >= 0 && words[o + j] === 0) j--;
    bits[j < 0 ? 0 : 32 * j + 32 - Math.clz32(words[o + j])]++;
    if (firstBad < 0 && j === SCALAR_WORDS - 1 && atLeastR(words, o)) firstBad = i;
  }
  return { firstBad, bits };
}
