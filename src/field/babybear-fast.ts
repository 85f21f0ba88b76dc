/**
 * BabyBear products for host loops that run thousands of times per call (the WHIR verifier's
 * hashing and extension arithmetic): the same values as babybear.ts's `bbMul` / `ext4Mul`, from
 * fewer and cheaper instructions. `bbMul` splits b at 16 bits and reduces twice through a float
 * quotient (about 10 ns a product in V8); `bbMulFast` takes one float quotient of the whole
 * product and recovers the remainder from 32-bit multiplies (about 6 ns dependent, 3 ns when
 * independent products overlap). babybear.ts stays the twin of the WGSL step for step.
 * @module
 */
import { BB_P, EXT4_W } from '../params/babybear.js';
import type { Ext4 } from './ext4.js';

const P = BB_P;
const INV_P = 1 / P;
const W = EXT4_W;

/**
 * a·b mod p for canonical a, b. The double a·b·(1/p) (three roundings) carries a relative error
 * below 2^-51, and a·b/p < 2^31, so its floor q is the true quotient except when a·b/p lies within
 * 2^-20 of an integer, and then it is off by one. So a·b − q·p lies in (−2^11, p + 2^11), inside
 * the int32 range, and its low 32 bits, exact from Math.imul (arithmetic mod 2^32), are the
 * whole value. One correction makes it canonical.
 */
export function bbMulFast(a: number, b: number): number {
  const q = Math.floor(a * b * INV_P);
  const r = (Math.imul(a, b) - Math.imul(q, P)) | 0;
  return r < 0 ? r + P : r >= P ? r - P : r;
}

/** x mod p for an integer |x| < 2^52, of either sign: a float quotient off by at most one, then one correction. */
export function bbReduceWide(x: number): number {
  const r = x - Math.floor(x * INV_P) * P;
  return r < 0 ? r + P : r >= P ? r - P : r;
}

/**
 * The extension product c_k = Σ_{i+j=k} a_i b_j + W·Σ_{i+j=k+4} a_i b_j: sixteen canonical products
 * summed unreduced (at most (4 + 3·W)·p < 2^37, exact in a double) and one reduction per coefficient.
 */
export function ext4MulFast(a: Ext4, b: Ext4): Ext4 {
  const a0 = a[0],
    a1 = a[1],
    a2 = a[2],
    a3 = a[3];
  const b0 = b[0],
    b1 = b[1],
    b2 = b[2],
    b3 = b[3];
  return [
    bbReduceWide(bbMulFast(a0, b0) + W * (bbMulFast(a1, b3) + bbMulFast(a2, b2) + bbMulFast(a3, b1))),
    bbReduceWide(bbMulFast(a0, b1) + bbMulFast(a1, b0) + W * (bbMulFast(a2, b3) + bbMulFast(a3, b2))),
    bbReduceWide(bbMulFast(a0, b2) + bbMulFast(a1, b1) + bbMulFast(a2, b0) + W * bbMulFast(a3, b3)),
    bbReduceWide(bbMulFast(a0, b3) + bbMulFast(a1, b2) + bbMulFast(a2, b1) + bbMulFast(a3, b0)),
  ];
}

/** a·s for an extension element a and a base-field element s. */
export function ext4ScaleFast(a: Ext4, s: number): Ext4 {
  return [bbMulFast(a[0], s), bbMulFast(a[1], s), bbMulFast(a[2], s), bbMulFast(a[3], s)];
}

/** x^e for canonical x and an integer 0 <= e < 2^53 (square and multiply on numbers, no BigInt). */
export function bbPowFast(x: number, e: number): number {
  let r = 1;
  let b = x;
  for (let k = e; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) r = bbMulFast(r, b);
    b = bbMulFast(b, b);
  }
  return r;
}
