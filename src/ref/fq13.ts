/**
 * CPU twin of wgsl/lib/bn254_fq13.gen.wgsl: the no-carry Montgomery multiply on 20 x 13-bit limbs
 * (R = 2^260), row by row as the generated WGSL does it, with every u32 accumulator checked
 * against 2^32 so the bound argument (<= 40 products of < 2^26 plus one carry < 2^19 per
 * accumulator) is tested, not just stated. Layout conversions to/from 8 x 32 limbs too.
 * @module
 */
import { FQ13_LIMBS, FQ13_MU, FQ_P, toLimbs13 } from '../params/bn254.js';

const P13 = toLimbs13(FQ_P);
const MASK = 0x1fff;

/** Largest accumulator value seen by fq13MulRef since the last reset (for the bound test). */
export const fq13Stats = { maxAcc: 0 };

function acc(v: number): number {
  if (v >= 2 ** 32) throw new RangeError(`fq13 accumulator overflow: ${v}`);
  if (v > fq13Stats.maxAcc) fq13Stats.maxAcc = v;
  return v;
}

/** a·b·2^-260 mod p for 13-bit limb vectors of values < p; result normalized, in [0, p). */
export function fq13MulRef(a: readonly number[], b: readonly number[]): number[] {
  const N = FQ13_LIMBS;
  const t = new Array<number>(N - 1).fill(0);
  for (let i = 0; i < N; i++) {
    const ai = a[i];
    const u = acc(t[0] + ai * b[0]);
    // Only the low 13 bits of u·mu matter; Math.imul wraps like the WGSL u32 multiply.
    const m = Math.imul(u, FQ13_MU) & MASK;
    const low = acc(u + m * P13[0]);
    if (low % 8192 !== 0) throw new Error('fq13: row low limb not divisible by 2^13');
    const c = Math.floor(low / 8192);
    for (let j = 1; j < N; j++) {
      const prev = j < N - 1 ? t[j] : 0;
      t[j - 1] = acc(prev + ai * b[j] + m * P13[j] + (j === 1 ? c : 0));
    }
  }
  const r = new Array<number>(N).fill(0);
  let c = 0;
  for (let j = 0; j < N - 1; j++) {
    const v = acc(t[j] + c);
    r[j] = v & MASK;
    c = Math.floor(v / 8192);
  }
  r[N - 1] = c;
  const d = new Array<number>(N).fill(0);
  let br = 0;
  for (let j = 0; j < N; j++) {
    const v = r[j] + 0x2000 - P13[j] - br;
    d[j] = v & MASK;
    br = 1 - (v >> 13);
  }
  return br === 1 ? r : d;
}

/** 8 LE u32 words -> 20 LE 13-bit limbs of the same integer. */
export function fq13FromWords(w: ArrayLike<number>, off = 0): number[] {
  let x = 0n;
  for (let k = 7; k >= 0; k--) x = (x << 32n) | BigInt(w[off + k] >>> 0);
  return toLimbs13(x);
}
