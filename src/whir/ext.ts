/**
 * The WHIR prover's host field math: BabyBear's degree-4 extension EF = F[X]/(X^4 - 11) as
 * scalars (`Ext4` tuples, canonical coefficients c0..c3) and as vectors (`EfVec`: a Uint32Array
 * of 4 words per element, the layout the GPU reads and ExtensionMmcs flattens to). Values are
 * canonical, as the rest of the library; Montgomery form appears only in the proof's JSON.
 * @module
 */
import { BB_P, EXT4_W } from '../params/babybear.js';
import { bbAdd, bbInv, bbMul, bbSub, ext4Inv, ext4Mul, type Ext4 } from '../ref/babybear.js';

export type { Ext4 };

/** 4 canonical words per extension element, element i at [4i, 4i+4). */
export type EfVec = Uint32Array;

export const EF_ZERO: Ext4 = [0, 0, 0, 0];
export const EF_ONE: Ext4 = [1, 0, 0, 0];

export const efMul = ext4Mul;
export const efInv = ext4Inv;

export function efAdd(a: Ext4, b: Ext4): Ext4 {
  return [bbAdd(a[0], b[0]), bbAdd(a[1], b[1]), bbAdd(a[2], b[2]), bbAdd(a[3], b[3])];
}

export function efSub(a: Ext4, b: Ext4): Ext4 {
  return [bbSub(a[0], b[0]), bbSub(a[1], b[1]), bbSub(a[2], b[2]), bbSub(a[3], b[3])];
}

/** An extension element times a base-field element. */
export function efScale(a: Ext4, s: number): Ext4 {
  return [bbMul(a[0], s), bbMul(a[1], s), bbMul(a[2], s), bbMul(a[3], s)];
}

export function efFromBase(x: number): Ext4 {
  return [x, 0, 0, 0];
}

export function efEquals(a: Ext4, b: Ext4): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

export function efSquare(a: Ext4): Ext4 {
  return ext4Mul(a, a);
}

/** a^e by square-and-multiply (e a non-negative integer below 2^53). */
export function efPow(a: Ext4, e: number): Ext4 {
  let r = EF_ONE;
  let b = a;
  for (let k = e; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) r = ext4Mul(r, b);
    b = ext4Mul(b, b);
  }
  return r;
}

/** The n powers [1, a, a^2, ...]. */
export function efPowers(a: Ext4, n: number): Ext4[] {
  const out: Ext4[] = [];
  let p = EF_ONE;
  for (let i = 0; i < n; i++) {
    out.push(p);
    p = ext4Mul(p, a);
  }
  return out;
}

export function efGet(v: EfVec, i: number): Ext4 {
  const o = 4 * i;
  return [v[o], v[o + 1], v[o + 2], v[o + 3]];
}

export function efSet(v: EfVec, i: number, a: Ext4): void {
  const o = 4 * i;
  v[o] = a[0];
  v[o + 1] = a[1];
  v[o + 2] = a[2];
  v[o + 3] = a[3];
}

export function efVecFromList(xs: readonly Ext4[]): EfVec {
  const v = new Uint32Array(4 * xs.length);
  xs.forEach((x, i) => efSet(v, i, x));
  return v;
}

export function efVecToList(v: EfVec): Ext4[] {
  const out: Ext4[] = [];
  for (let i = 0; i < v.length / 4; i++) out.push(efGet(v, i));
  return out;
}

/**
 * out[i] = a[i] + r·(b[i] - a[i]) over vectors held at word offsets, without allocating: the
 * inner step of every fold. Products are split at 16 bits so doubles stay exact (see bbMul).
 */
export function efLerpInto(out: EfVec, o: number, a: EfVec, ao: number, b: EfVec, bo: number, r: Ext4): void {
  const d0 = bbSub(b[bo], a[ao]), d1 = bbSub(b[bo + 1], a[ao + 1]);
  const d2 = bbSub(b[bo + 2], a[ao + 2]), d3 = bbSub(b[bo + 3], a[ao + 3]);
  const m = ext4Mul([d0, d1, d2, d3], r);
  out[o] = bbAdd(a[ao], m[0]);
  out[o + 1] = bbAdd(a[ao + 1], m[1]);
  out[o + 2] = bbAdd(a[ao + 2], m[2]);
  out[o + 3] = bbAdd(a[ao + 3], m[3]);
}

/** Σ of a list. */
export function efSum(xs: Iterable<Ext4>): Ext4 {
  let s = EF_ZERO;
  for (const x of xs) s = efAdd(s, x);
  return s;
}

/** 1/x for a base-field x (re-exported so WHIR modules take field math from one place). */
export const bbInverse = bbInv;

/** The extension's non-residue W (X^4 = W), for callers that need it. */
export const EF_W = EXT4_W;

/** True when every word is a canonical BabyBear value. */
export function isCanonicalEf(a: readonly number[]): boolean {
  return a.length === 4 && a.every((c) => Number.isInteger(c) && c >= 0 && c < BB_P);
}
