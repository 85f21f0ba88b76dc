/**
 * The small tables the GPU sumcheck engine uploads for constraint weights and evaluations
 * (wgsl/kernels/whir_sumcheck.wgsl, `ws_tabs`). An index b of a 2^m table splits as
 * b = h·2^L + l with L = floor(m/2), so
 *   eq(p, b) = eq(p_0..p_{m-L-1}, h) · eq(p_{m-L}..p_{m-1}, l)     (MSB-first points)
 *   x^b      = (x^(2^L))^h · x^l
 * and each weight costs the GPU one product of two entries per claim. The eq tables (2^(m-L) +
 * 2^L extension entries a claim: 8192 at m = 24) are built on the GPU from the claims' points
 * (`ws_eq_tabs`; on the host they cost ~20 ms a proof at n = 24, bench/RESULTS.md, whir); the
 * select powers (base field) here. Everything is in Montgomery form, as the kernels read it.
 * @module
 */
import { MONTY_ONE, montMul, toMonty } from '../field/babybear.js';
import type { WsParams } from '../kernels/whir-sumcheck.js';
import { EF_ONE, type Ext4 } from './ext.js';
import { bbPow } from '../field/babybear.js';

/**
 * The tables' words (the eq region left for ws_eq_tabs), the eq claims' points it builds that
 * region from (per claim its coefficient, then its m coordinates: 4·(m + 1) words), and the
 * uniform fields that describe both (all but `n`).
 */
export interface ClaimTables {
  words: Uint32Array;
  eqPoints: Uint32Array;
  params: Omit<WsParams, 'n' | 'r'>;
}

/** L for a 2^m table: the low half of the index bits. */
export const loBitsOf = (m: number): number => m >> 1;

function toMontyInto(out: Uint32Array, at: number, src: readonly number[]): void {
  for (let i = 0; i < src.length; i++) out[at + i] = toMonty(src[i]);
}

/** Montgomery powers base^0 .. base^(count-1) of a canonical base-field value into out[at..]. */
function montyPowersInto(out: Uint32Array, at: number, base: number, count: number): void {
  const b = toMonty(base);
  let p = MONTY_ONE;
  for (let i = 0; i < count; i++) {
    out[at + i] = p;
    p = montMul(p, b);
  }
}

/**
 * Tables for weights += Σ coeff·eq(point, ·) over `eq` and += Σ coeff·x^b over `select`, on a
 * table of 2^m elements. Layout (words): per eq claim 4·(H + Lo) (hi with the coefficient folded
 * in, then lo; written by ws_eq_tabs); the select coefficients, 4 each; per select claim H + Lo
 * base powers.
 */
export function claimTables(
  m: number,
  eq: ReadonlyArray<{ point: Ext4[]; coeff: Ext4 }>,
  select: ReadonlyArray<{ x: number; coeff: Ext4 }>,
): ClaimTables {
  const loBits = loBitsOf(m);
  const hiN = 2 ** (m - loBits);
  const loN = 2 ** loBits;
  const eqStride = 4 * (hiN + loN);
  const selCoeff = eq.length * eqStride;
  const selBase = selCoeff + 4 * select.length;
  const selStride = hiN + loN;
  const words = new Uint32Array(Math.max(4, selBase + select.length * selStride));
  const eqPoints = new Uint32Array(Math.max(4, 4 * (m + 1) * eq.length));
  eq.forEach((c, i) => {
    if (c.point.length !== m) throw new RangeError(`eq claim ${i}: point has ${c.point.length} coordinates, the table ${m} variables`);
    const at = 4 * (m + 1) * i;
    toMontyInto(eqPoints, at, c.coeff);
    c.point.forEach((p, v) => toMontyInto(eqPoints, at + 4 * (v + 1), p));
  });
  select.forEach((c, j) => {
    toMontyInto(words, selCoeff + 4 * j, c.coeff);
    const at = selBase + j * selStride;
    montyPowersInto(words, at, bbPow(c.x, 2 ** loBits), hiN);
    montyPowersInto(words, at + hiN, c.x, loN);
  });
  return { words, eqPoints, params: { loBits, nEq: eq.length, nSel: select.length, eqStride, selCoeff, selBase, selStride, vars: m } };
}

/** Tables for Σ_b evals[b]·eq(point, b): one eq claim with coefficient 1. */
export function evalTables(point: Ext4[]): ClaimTables {
  return claimTables(point.length, [{ point, coeff: EF_ONE }], []);
}
