/**
 * Host arithmetic of a 31-bit Montgomery field, built once from its parameter record
 * (src/params/monty31.ts): canonical values in [0, p) held in JS numbers, products split so
 * every intermediate stays below 2^53 (exact in a double), and the Montgomery steps mirrored
 * one for one from wgsl/lib/babybear.wgsl so a mismatch with the GPU points at the step that
 * differs. The functions close over the record's numbers instead of reading a record per call:
 * these run in the CPU fallback's inner loops.
 * @module
 */
import type { Monty31Params } from '../params/monty31.js';
import { shoupQuotient } from '../params/monty31.js';

export interface Monty31Ops {
  readonly field: Monty31Params;
  add(a: number, b: number): number;
  sub(a: number, b: number): number;
  neg(a: number): number;
  /** x mod p for an integer 0 <= x < 2^53. */
  reduce(x: number): number;
  mul(a: number, b: number): number;
  square(a: number): number;
  pow(x: number, e: number | bigint): number;
  /** x^-1 (Fermat); RangeError on 0. */
  inv(x: number): number;
  /** Every element inverted with one field inversion (Montgomery's trick); RangeError on any 0. */
  batchInv(xs: ArrayLike<number>): Uint32Array;
  /** High 32 bits of t·p from shifts only (bb_mulhi_p). */
  mulhiP(t: number): number;
  /** a·b·2^-32 mod p, Plonky3's monty_reduce step for step (bb_mul). */
  montMul(a: number, b: number): number;
  toMonty(x: number): number;
  fromMonty(x: number): number;
  /** Shoup's quotient floor(w·2^31 / p) (bb_mul_shoup). */
  shoupQuotient(w: number): number;
}

/** High 32 bits of a·b for a, b < 2^31 from 16-bit halves (same split as u32x_mulhi31). */
export function mulhi31(a: number, b: number): number {
  const al = a & 0xffff,
    ah = a >>> 16,
    bl = b & 0xffff,
    bh = b >>> 16;
  const mid = al * bh + ah * bl + ((al * bl) >>> 16); // < 2^32 because a, b < 2^31
  return ah * bh + Math.floor(mid / 65536);
}

function build(F: Monty31Params): Monty31Ops {
  const P = F.p,
    MU = F.mu,
    R2 = F.r2,
    HI = F.shiftHi,
    LO = F.shiftLo;
  const INV_P = 1 / P;
  const name = F.label;
  const add = (a: number, b: number) => {
    const s = a + b;
    return s >= P ? s - P : s;
  };
  const sub = (a: number, b: number) => {
    const d = a - b;
    return d < 0 ? d + P : d;
  };
  // The quotient from the double x·(1/p) is off by at most one (its error is below 2^-30), and
  // one correction fixes it; V8 runs this ~5x faster than x % p, which it computes with fmod.
  const reduce = (x: number) => {
    const r = x - Math.floor(x * INV_P) * P;
    return r < 0 ? r + P : r >= P ? r - P : r;
  };
  // a·(b>>16) < 2^47 and the recombined sum < 2^48, so doubles stay exact.
  const mul = (a: number, b: number) => reduce(reduce(a * (b >>> 16)) * 65536 + a * (b & 0xffff));
  const pow = (x: number, e: number | bigint) => {
    let r = 1;
    let b = x;
    for (let k = BigInt(e); k > 0n; k >>= 1n) {
      if (k & 1n) r = mul(r, b);
      b = mul(b, b);
    }
    return r;
  };
  const inv = (x: number) => {
    if (x === 0) throw new RangeError(`${name}: inverse of zero`);
    return pow(x, P - 2);
  };
  // t·p = (t << HI) - (t << LO) + t as 64-bit (hi, lo) pairs.
  const mulhiP = (t: number) => {
    const loA = (t << HI) >>> 0,
      hiA = t >>> (32 - HI);
    const loB = (t << LO) >>> 0,
      hiB = t >>> (32 - LO);
    const loD = (loA - loB) >>> 0;
    const hiD = hiA - hiB - (loA < loB ? 1 : 0);
    const loE = (loD + t) >>> 0;
    return hiD + (loE < loD ? 1 : 0);
  };
  // t = lo·MU makes lo(t·p) = lo(a·b), so a·b - t·p = (hi(a·b) - hi(t·p))·2^32 exactly.
  const montMul = (a: number, b: number) => {
    const lo = Math.imul(a, b) >>> 0;
    const hi = mulhi31(a, b);
    const t = Math.imul(lo, MU) >>> 0;
    const u = mulhiP(t);
    return hi >= u ? hi - u : hi - u + P;
  };
  return Object.freeze({
    field: F,
    add,
    sub,
    reduce,
    mul,
    pow,
    inv,
    mulhiP,
    montMul,
    neg: (a: number) => (a === 0 ? 0 : P - a),
    square: (a: number) => mul(a, a),
    batchInv(xs: ArrayLike<number>): Uint32Array {
      const n = xs.length;
      const prefix = new Uint32Array(n);
      let acc = 1;
      for (let i = 0; i < n; i++) {
        if (xs[i] === 0) throw new RangeError(`${name}: batch inverse of zero at index ${i}`);
        prefix[i] = acc;
        acc = mul(acc, xs[i]);
      }
      let v = inv(acc);
      const out = new Uint32Array(n);
      for (let i = n - 1; i >= 0; i--) {
        out[i] = mul(v, prefix[i]);
        v = mul(v, xs[i]);
      }
      return out;
    },
    toMonty: (x: number) => montMul(x, R2),
    fromMonty: (x: number) => montMul(x, 1),
    shoupQuotient: (w: number) => shoupQuotient(P, w),
  });
}

const cache = new WeakMap<Monty31Params, Monty31Ops>();

/** The arithmetic of field `F` (built once per record). */
export function monty31Ops(F: Monty31Params): Monty31Ops {
  let ops = cache.get(F);
  if (!ops) cache.set(F, (ops = build(F)));
  return ops;
}
