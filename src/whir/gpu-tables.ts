/**
 * The small tables the GPU sumcheck engine uploads for constraint weights and evaluations
 * (wgsl/kernels/whir_sumcheck.wgsl, `ws_tabs`). An index b of a 2^m table splits as
 * b = h·2^L + l with L = floor(m/2), so
 *   eq(p, b) = eq(p_0..p_{m-L-1}, h) · eq(p_{m-L}..p_{m-1}, l)     (MSB-first points)
 *   x^b      = (x^(2^L))^h · x^l
 * and each weight costs the GPU one product of two entries per claim. The host builds
 * 2^(m-L) + 2^L entries per claim: 4096 at m = 22, against 4·10^6 weights.
 * Everything here is in Montgomery form, as the kernel reads it.
 * @module
 */
import { MONTY_ONE, montMul, toMonty } from '../ref/babybear.js';
import type { WsParams } from '../kernels/whir-sumcheck.js';
import { EF_ONE, type Ext4 } from './ext.js';
import { addEq } from './ef-loops.js';
import { bbPow } from '../ref/babybear.js';

/** The tables' words and the uniform fields that describe them (all but `n`). */
export interface ClaimTables {
  words: Uint32Array;
  params: Omit<WsParams, 'n' | 'r'>;
}

/** L for a 2^m table: the low half of the index bits. */
export const loBitsOf = (m: number): number => m >> 1;

function toMontyInto(out: Uint32Array, at: number, src: Uint32Array): void {
  for (let i = 0; i < src.length; i++) out[at + i] = toMonty(src[i]);
}

/** coeff·eq(point, ·) (MSB-first), built by the allocation-free loop. */
function eqOf(point: Ext4[], coeff: Ext4): Uint32Array {
  const t = new Uint32Array(4 * 2 ** point.length);
  addEq(t, point, coeff);
  return t;
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
 * in, then lo); the select coefficients, 4 each; per select claim H + Lo base powers.
 */
export function claimTables(m: number, eq: ReadonlyArray<{ point: Ext4[]; coeff: Ext4 }>, select: ReadonlyArray<{ x: number; coeff: Ext4 }>): ClaimTables {
  const loBits = loBitsOf(m);
  const hiN = 2 ** (m - loBits);
  const loN = 2 ** loBits;
  const eqStride = 4 * (hiN + loN);
  const selCoeff = eq.length * eqStride;
  const selBase = selCoeff + 4 * select.length;
  const selStride = hiN + loN;
  const words = new Uint32Array(Math.max(4, selBase + select.length * selStride));
  eq.forEach((c, i) => {
    if (c.point.length !== m) throw new RangeError(`eq claim ${i}: point has ${c.point.length} coordinates, the table ${m} variables`);
    toMontyInto(words, i * eqStride, eqOf(c.point.slice(0, m - loBits), c.coeff));
    toMontyInto(words, i * eqStride + 4 * hiN, eqOf(c.point.slice(m - loBits), EF_ONE));
  });
  select.forEach((c, j) => {
    for (let k = 0; k < 4; k++) words[selCoeff + 4 * j + k] = toMonty(c.coeff[k]);
    const at = selBase + j * selStride;
    montyPowersInto(words, at, bbPow(c.x, 2 ** loBits), hiN);
    montyPowersInto(words, at + hiN, c.x, loN);
  });
  return { words, params: { loBits, nEq: eq.length, nSel: select.length, eqStride, selCoeff, selBase, selStride } };
}

/** Tables for Σ_b evals[b]·eq(point, b): one eq claim with coefficient 1. */
export function evalTables(point: Ext4[]): ClaimTables {
  return claimTables(point.length, [{ point, coeff: EF_ONE }], []);
}
