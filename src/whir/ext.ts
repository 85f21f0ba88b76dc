/**
 * The WHIR prover's host field math: BabyBear's degree-4 extension EF = F[X]/(X^4 - 11) as
 * scalars (`Ext4` tuples, canonical coefficients c0..c3) and as vectors (`EfVec`: a Uint32Array
 * of 4 words per element, the layout the GPU reads and ExtensionMmcs flattens to). Values are
 * canonical, as the rest of the library; Montgomery form appears only in the proof's JSON.
 * @module
 */
import { ext4Add, ext4Sub, type Ext4 } from '../field/babybear.js';
import { ext4MulFast, ext4ScaleFast } from '../field/babybear-fast.js';

export type { Ext4 };

/** 4 canonical words per extension element, element i at [4i, 4i+4). */
export type EfVec = Uint32Array;

export const EF_ZERO: Ext4 = [0, 0, 0, 0];
export const EF_ONE: Ext4 = [1, 0, 0, 0];

// The fast product gives ext4Mul's values; the verifier and the host prover call it thousands of times a proof.
export const efMul = ext4MulFast;
export const efAdd = ext4Add;
export const efSub = ext4Sub;

/** An extension element times a base-field element. */
export const efScale = ext4ScaleFast;

export function efEquals(a: Ext4, b: Ext4): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

export function efSquare(a: Ext4): Ext4 {
  return ext4MulFast(a, a);
}

/** The n powers [1, a, a^2, ...]. */
export function efPowers(a: Ext4, n: number): Ext4[] {
  const out: Ext4[] = [];
  let p = EF_ONE;
  for (let i = 0; i < n; i++) {
    out.push(p);
    p = ext4MulFast(p, a);
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
