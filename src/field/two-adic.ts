/**
 * Powers of two and their roots of unity: sizes the NTT accepts, bit reversal, and Plonky3's
 * two_adic_generator for a field record (BabyBear unless one is given).
 * @module
 */
import { BABY_BEAR } from '../params/babybear.js';
import type { Monty31Params } from '../params/monty31.js';

/** log2 of a power of two, or -1. */
export function log2Exact(n: number): number {
  if (!Number.isInteger(n) || n < 1 || (n & (n - 1)) !== 0 || n > 2 ** 30) return -1;
  return Math.round(Math.log2(n));
}

/** two_adic_generator(bits): a primitive 2^bits-th root of unity, as Plonky3 defines it. */
export function twoAdicGenerator(bits: number, F: Monty31Params = BABY_BEAR): number {
  if (bits < 0 || bits > F.twoAdicity) throw new RangeError(`no 2^${bits}-th root of unity in ${F.label} (two-adicity ${F.twoAdicity})`);
  return F.twoAdicGenerators[bits];
}

/** The low `bits` bits of x, reversed (0 for bits = 0). */
export function reverseBits(x: number, bits: number): number {
  let r = 0;
  for (let i = 0; i < bits; i++) r = (r << 1) | ((x >>> i) & 1);
  return r >>> 0;
}
