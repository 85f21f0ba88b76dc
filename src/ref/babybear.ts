/**
 * CPU twin of wgsl/lib/babybear.wgsl and babybear_ext4.wgsl, on canonical values in [0, p)
 * held in JS numbers. Products are split so every intermediate stays below 2^53 (exact in a
 * double). The Montgomery functions mirror the GPU's 32-bit steps one for one, so a mismatch
 * points at the step that differs.
 * @module
 */
import { BB_MU, BB_P, BB_R, BB_R2, BB_SHIFT_HI, BB_SHIFT_LO, EXT4_W } from '../params/babybear.js';

const P = BB_P;

export function bbAdd(a: number, b: number): number {
  const s = a + b;
  return s >= P ? s - P : s;
}

export function bbSub(a: number, b: number): number {
  const d = a - b;
  return d < 0 ? d + P : d;
}

export function bbNeg(a: number): number {
  return a === 0 ? 0 : P - a;
}

const INV_P = 1 / P;

/**
 * x mod p for an integer 0 <= x < 2^53. The quotient from the double x·(1/p) is off by at most
 * one (its error is below 2^-30), and one correction fixes it; V8 runs this ~5x faster than x % p,
 * which it computes with fmod.
 */
export function bbReduce(x: number): number {
  const r = x - Math.floor(x * INV_P) * P;
  return r < 0 ? r + P : r >= P ? r - P : r;
}

/** a·b mod p. a·(b>>16) < 2^47 and the recombined sum < 2^48, so doubles stay exact. */
export function bbMul(a: number, b: number): number {
  const hi = bbReduce(a * (b >>> 16));
  return bbReduce(hi * 65536 + a * (b & 0xffff));
}

export function bbSquare(a: number): number {
  return bbMul(a, a);
}

export function bbPow(x: number, e: number | bigint): number {
  let r = 1;
  let b = x;
  for (let k = BigInt(e); k > 0n; k >>= 1n) {
    if (k & 1n) r = bbMul(r, b);
    b = bbMul(b, b);
  }
  return r;
}

/** x^7, the Poseidon2 S-box: x2 = x², x3 = x²·x, x6 = x3², x7 = x6·x (4 multiplies, as on the GPU). */
export function bbPow7(x: number): number {
  const x3 = bbMul(bbMul(x, x), x);
  return bbMul(bbMul(x3, x3), x);
}

/** x^-1 = x^(p-2) (Fermat). Throws RangeError on 0, which has no inverse. */
export function bbInv(x: number): number {
  if (x === 0) throw new RangeError('BabyBear: inverse of zero');
  return bbPow(x, P - 2);
}

/** Inverts every element with one field inversion (Montgomery's trick). Throws RangeError on any 0. */
export function bbBatchInv(xs: ArrayLike<number>): Uint32Array {
  const n = xs.length;
  const prefix = new Uint32Array(n);
  let acc = 1;
  for (let i = 0; i < n; i++) {
    if (xs[i] === 0) throw new RangeError(`BabyBear: batch inverse of zero at index ${i}`);
    prefix[i] = acc;
    acc = bbMul(acc, xs[i]);
  }
  let inv = bbInv(acc);
  const out = new Uint32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = bbMul(inv, prefix[i]);
    inv = bbMul(inv, xs[i]);
  }
  return out;
}

// ---- Montgomery domain, step for step as the GPU does it (R = 2^32, MU = +p^-1 mod 2^32) ----

/** High 32 bits of a·b for a, b < 2^31 from 16-bit halves (same split as u32x_mulhi31). */
export function mulhi31(a: number, b: number): number {
  const al = a & 0xffff, ah = a >>> 16, bl = b & 0xffff, bh = b >>> 16;
  const mid = al * bh + ah * bl + ((al * bl) >>> 16); // < 2^32 because a, b < 2^31
  return ah * bh + Math.floor(mid / 65536);
}

/** High 32 bits of t·p with p = 2^S1 - 2^S2 + 1, from shifts only (as bb_mulhi_p). */
export function mulhiP(t: number): number {
  const loA = (t << BB_SHIFT_HI) >>> 0, hiA = t >>> (32 - BB_SHIFT_HI);
  const loB = (t << BB_SHIFT_LO) >>> 0, hiB = t >>> (32 - BB_SHIFT_LO);
  const loD = (loA - loB) >>> 0;
  const hiD = hiA - hiB - (loA < loB ? 1 : 0);
  const loE = (loD + t) >>> 0;
  return hiD + (loE < loD ? 1 : 0);
}

/** Montgomery product a·b·2^-32 mod p, Plonky3's monty_reduce: t = lo·MU, r = hi - hi(t·p). */
export function montMul(a: number, b: number): number {
  const lo = Math.imul(a, b) >>> 0;
  const hi = mulhi31(a, b);
  const t = Math.imul(lo, BB_MU) >>> 0;
  const u = mulhiP(t);
  return hi >= u ? hi - u : hi - u + P;
}

export function toMonty(x: number): number {
  return montMul(x, BB_R2);
}

export function fromMonty(x: number): number {
  return montMul(x, 1);
}

/** Montgomery form of 1 (R mod p), re-exported for callers that build Montgomery tables. */
export const MONTY_ONE = BB_R;

// ---- Degree-4 extension F_p[X]/(X^4 - 11): elements are [c0, c1, c2, c3] = Σ c_i X^i ----

export type Ext4 = [number, number, number, number];

export function ext4Add(a: Ext4, b: Ext4): Ext4 {
  return [bbAdd(a[0], b[0]), bbAdd(a[1], b[1]), bbAdd(a[2], b[2]), bbAdd(a[3], b[3])];
}

export function ext4Sub(a: Ext4, b: Ext4): Ext4 {
  return [bbSub(a[0], b[0]), bbSub(a[1], b[1]), bbSub(a[2], b[2]), bbSub(a[3], b[3])];
}

/** c_k = Σ_{i+j=k} a_i b_j + W · Σ_{i+j=k+4} a_i b_j. */
export function ext4Mul(a: Ext4, b: Ext4): Ext4 {
  const m = (i: number, j: number) => bbMul(a[i], b[j]);
  const w = (x: number) => bbMul(EXT4_W, x);
  return [
    bbAdd(m(0, 0), w(bbAdd(bbAdd(m(1, 3), m(2, 2)), m(3, 1)))),
    bbAdd(bbAdd(m(0, 1), m(1, 0)), w(bbAdd(m(2, 3), m(3, 2)))),
    bbAdd(bbAdd(bbAdd(m(0, 2), m(1, 1)), m(2, 0)), w(m(3, 3))),
    bbAdd(bbAdd(m(0, 3), m(1, 2)), bbAdd(m(2, 1), m(3, 0))),
  ];
}

export function ext4Square(a: Ext4): Ext4 {
  return ext4Mul(a, a);
}

/**
 * Inverse through the tower F_p ⊂ F_p[Y]/(Y² - W) ⊂ F_p[Y][X]/(X² - Y): write a = A + B·X with
 * A = a0 + a2·Y, B = a1 + a3·Y; then a·(A - B·X) = A² - B²·Y = N lies in F_p², and
 * a^-1 = (A - B·X)·N^-1 with N^-1 = (n0 - n1·Y) / (n0² - W·n1²). One base-field inversion.
 */
export function ext4Inv(a: Ext4): Ext4 {
  const [a0, a1, a2, a3] = a;
  // A² = (a0² + W a2²) + 2 a0 a2 Y;  B² = (a1² + W a3²) + 2 a1 a3 Y;  B²·Y = W·2 a1 a3 + (a1² + W a3²) Y
  const w = (x: number) => bbMul(EXT4_W, x);
  const A2_0 = bbAdd(bbMul(a0, a0), w(bbMul(a2, a2)));
  const A2_1 = bbAdd(bbMul(a0, a2), bbMul(a0, a2));
  const B2_0 = bbAdd(bbMul(a1, a1), w(bbMul(a3, a3)));
  const B2_1 = bbAdd(bbMul(a1, a3), bbMul(a1, a3));
  const n0 = bbSub(A2_0, w(B2_1));
  const n1 = bbSub(A2_1, B2_0);
  const d = bbSub(bbMul(n0, n0), w(bbMul(n1, n1)));
  if (d === 0) throw new RangeError('BabyBear ext4: inverse of zero');
  const dInv = bbInv(d);
  const m0 = bbMul(n0, dInv), m1 = bbMul(bbNeg(n1), dInv); // N^-1 = m0 + m1 Y
  // (A - B X)(m0 + m1 Y): A·M and -B·M in F_p², then X-coefficient pairs.
  const am0 = bbAdd(bbMul(a0, m0), w(bbMul(a2, m1)));
  const am1 = bbAdd(bbMul(a0, m1), bbMul(a2, m0));
  const bm0 = bbAdd(bbMul(a1, m0), w(bbMul(a3, m1)));
  const bm1 = bbAdd(bbMul(a1, m1), bbMul(a3, m0));
  return [am0, bbNeg(bm0), am1, bbNeg(bm1)];
}

/** CPU twin of one field_bench.wgsl thread: x = x·y, y = y·x for `iters` rounds, returns x ^ y. */
export function fieldBenchThread(i: number, iters: number): number {
  let x = (Math.imul(i, 2654435761) >>> 0) % P;
  let y = ((x ^ 0x9e3779b9) >>> 0) % P;
  for (let k = 0; k < iters; k++) {
    x = montMul(x, y);
    y = montMul(y, x);
  }
  return (x ^ y) >>> 0;
}
