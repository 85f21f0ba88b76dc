/**
 * Multilinear polynomials as p3-multilinear-util 0.9.0-rc.2 holds them: 2^m evaluations over the
 * hypercube, a point (x_0, ..., x_{m-1}) with x_0 the MOST significant bit of the index. The WHIR
 * prover's suffix layout binds the last variable (the least significant bit) first, so a fold
 * pairs neighbours (2j, 2j+1).
 * @module
 */
import { BB_TWO_ADIC_GENERATORS } from '../params/babybear.js';
import { bbPowFast } from '../field/babybear-fast.js';
import { addEq, addSelect, foldBase, foldExt } from './ef-loops.js';
import { EF_ONE, EF_ZERO, efAdd, efGet, efMul, efScale, efSet, efSub, efSquare, type EfVec, type Ext4 } from './ext.js';

/** Point::expand_from_univariate: (z^(2^(m-1)), ..., z^2, z). */
export function expandFromUnivariate(z: Ext4, m: number): Ext4[] {
  const out = new Array<Ext4>(m);
  let cur = z;
  for (let i = m - 1; i >= 0; i--) {
    out[i] = cur;
    cur = efSquare(cur);
  }
  return out;
}

/** eq(point, b)·scale for every index b (MSB-first), as an EfVec of 2^m elements. */
export function eqTable(point: readonly Ext4[], scale: Ext4 = EF_ONE): EfVec {
  let table = new Uint32Array(4);
  efSet(table, 0, scale);
  for (const p of point) {
    const next = new Uint32Array(table.length * 2);
    const oneMinus = efSub(EF_ONE, p);
    for (let j = 0; j < table.length / 4; j++) {
      const t = efGet(table, j);
      efSet(next, 2 * j, efMul(t, oneMinus));
      efSet(next, 2 * j + 1, efMul(t, p));
    }
    table = next;
  }
  return table;
}

/** eq(a, b) = Π (a_i b_i + (1 - a_i)(1 - b_i)) for two points of the same length. */
export function eqAt(a: readonly Ext4[], b: readonly Ext4[]): Ext4 {
  let acc = EF_ONE;
  for (let i = 0; i < a.length; i++) {
    const ab = efMul(a[i], b[i]);
    const term = efAdd(ab, efMul(efSub(EF_ONE, a[i]), efSub(EF_ONE, b[i])));
    acc = efMul(acc, term);
  }
  return acc;
}

/** Bind the last variable of extension-field evaluations to r: out[j] = e[2j] + r·(e[2j+1] - e[2j]). */
export const foldLastExt = foldExt;

/** Bind the last variable of base-field evaluations to r; the result lies in the extension. */
export const foldLastBase = foldBase;

/** The multilinear extension of base-field evaluations at `point` (length log2 of the count). */
export function evalBase(evals: Uint32Array, point: readonly Ext4[]): Ext4 {
  if (point.length === 0) return [evals[0], 0, 0, 0];
  let folded = foldLastBase(evals, point[point.length - 1]);
  for (let i = point.length - 2; i >= 0; i--) folded = foldLastExt(folded, point[i]);
  return efGet(folded, 0);
}

/** The multilinear extension of extension-field evaluations at `point`. */
export function evalExt(evals: EfVec, point: readonly Ext4[]): Ext4 {
  let folded = evals;
  for (let i = point.length - 1; i >= 0; i--) folded = foldLastExt(folded, point[i]);
  return efGet(folded, 0);
}

/** two_adic_generator(logSize)^index: the domain point a query index stands for. */
export function domainPoint(logSize: number, index: number): number {
  return bbPowFast(BB_TWO_ADIC_GENERATORS[logSize], index);
}

/** weights[b] += coeff·x^b for b < 2^m (a select claim's weight: the table read as univariate coefficients). */
export const addSelectWeights = addSelect;

/** weights += coeff·eq(point, ·). */
export const addEqWeights = addEq;

/** Σ_b evals[b]·x^b for extension-field evaluations: what a select claim asserts. */
export function evalUnivariateExt(evals: EfVec, x: number): Ext4 {
  let acc = EF_ZERO;
  for (let b = evals.length / 4 - 1; b >= 0; b--) acc = efAdd(efScale(acc, x), efGet(evals, b));
  return acc;
}
