/**
 * BN254 points in the word layout of snarkjs's zkey (ffjavascript's `toRprLEM`): affine, each
 * coordinate 8 little-endian u32 words in Montgomery form (x·2^256 mod p), G1 = x, y (16 words),
 * G2 = x.c0, x.c1, y.c0, y.c1 (32 words); the point at infinity is all zeros (ffjavascript's
 * affine zero: x = y = 0, which is not on the curve y² = x³ + 3, so the encoding is unambiguous).
 * This module turns such words into @noble/curves points and back, for the few points the host
 * needs as numbers (verification key, IC, MSM results, the CPU prover's bases).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError } from '../errors.js';
import { FQ_P, fromLimbs, fromMont, toLimbs, toMont } from '../params/bn254.js';

export type G1Point = InstanceType<typeof bn254.G1.Point>;
export type G2Point = InstanceType<typeof bn254.G2.Point>;

/** Words a G1 point (x, y) and a G2 point (x.c0, x.c1, y.c0, y.c1) take. */
export const G1_WORDS = 16;
export const G2_WORDS = 32;

/** One Fq coordinate from 8 Montgomery words; `what` names it in the NON_CANONICAL message. */
function coordinate(words: Uint32Array, at: number, what: () => string): bigint {
  const m = fromLimbs(words, at);
  if (m >= FQ_P) throw new ProverError('NON_CANONICAL', `${what()}: a coordinate is ${m} >= p; the file is corrupt, export it again`);
  return fromMont(m);
}

function allZero(words: Uint32Array, at: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (words[at + i] !== 0) return false;
  return true;
}

/**
 * The G1 point at words[at..at + 16).
 * @param check - also require the point on the curve (NOT_ON_CURVE); costs ~0.1 ms, so the
 *   CPU prover's bases skip it (a corrupt base only yields a proof that does not verify)
 * @throws ProverError NON_CANONICAL (a coordinate >= p), NOT_ON_CURVE
 */
export function g1FromWords(words: Uint32Array, at: number, what: () => string, check = true): G1Point {
  if (allZero(words, at, G1_WORDS)) return bn254.G1.Point.ZERO;
  const p = bn254.G1.Point.fromAffine({ x: coordinate(words, at, what), y: coordinate(words, at + 8, what) });
  if (check) assertValid(p, what);
  return p;
}

/** The G2 point at words[at..at + 32); as g1FromWords, and `check` includes the subgroup. */
export function g2FromWords(words: Uint32Array, at: number, what: () => string, check = true): G2Point {
  if (allZero(words, at, G2_WORDS)) return bn254.G2.Point.ZERO;
  const c = (k: number) => coordinate(words, at + 8 * k, what);
  const p = bn254.G2.Point.fromAffine({ x: { c0: c(0), c1: c(1) }, y: { c0: c(2), c1: c(3) } });
  if (check) assertValid(p, what);
  return p;
}

function assertValid(p: G1Point | G2Point, what: () => string): void {
  try {
    p.assertValidity();
  } catch (cause) {
    throw new ProverError('NOT_ON_CURVE', `${what()} is not a point of BN254's prime-order group; the file is corrupt, export it again`, {
      cause,
    });
  }
}

function putCoordinate(out: Uint32Array, at: number, x: bigint): void {
  out.set(toLimbs(toMont(x)), at);
}

/** A G1 point as 16 Montgomery words (zeros for infinity): the inverse of g1FromWords. */
export function g1ToWords(p: G1Point, out = new Uint32Array(G1_WORDS), at = 0): Uint32Array {
  if (p.is0()) {
    out.fill(0, at, at + G1_WORDS);
    return out;
  }
  const { x, y } = p.toAffine();
  putCoordinate(out, at, x);
  putCoordinate(out, at + 8, y);
  return out;
}

/** A G2 point as 32 Montgomery words (zeros for infinity): the inverse of g2FromWords. */
export function g2ToWords(p: G2Point, out = new Uint32Array(G2_WORDS), at = 0): Uint32Array {
  if (p.is0()) {
    out.fill(0, at, at + G2_WORDS);
    return out;
  }
  const { x, y } = p.toAffine();
  [x.c0, x.c1, y.c0, y.c1].forEach((v, k) => putCoordinate(out, at + 8 * k, v));
  return out;
}

/**
 * The first `count` G1 points of a section's words, decoded without the curve check (the CPU
 * prover's bases: a few µs a point instead of the check's ~100 µs).
 */
export function decodeG1Points(words: Uint32Array, count: number, what: string): G1Point[] {
  const out = new Array<G1Point>(count);
  for (let i = 0; i < count; i++) out[i] = g1FromWords(words, i * G1_WORDS, () => `${what} point ${i}`, false);
  return out;
}

/** The first `count` G2 points of a section's words, as decodeG1Points. */
export function decodeG2Points(words: Uint32Array, count: number, what: string): G2Point[] {
  const out = new Array<G2Point>(count);
  for (let i = 0; i < count; i++) out[i] = g2FromWords(words, i * G2_WORDS, () => `${what} point ${i}`, false);
  return out;
}
