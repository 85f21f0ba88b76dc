/**
 * BabyBear products for host loops that run thousands of times per call (the WHIR verifier's
 * hashing and extension arithmetic): the same values as babybear.ts's `bbMul` / `ext4Mul`, from
 * fewer and cheaper instructions. `bbMul` splits b at 16 bits and reduces twice through a float
 * quotient (about 10 ns a product in V8); here one float quotient of the whole product, nudged
 * down so it is never too large, and two 32-bit multiplies give the remainder up to one p, with
 * no floor and no branch (`bbMulLazy`, for chains such as Poseidon2's S-box); `bbMulFast` adds the
 * one correction. babybear.ts stays the twin of the WGSL step for step.
 * @module
 */
import { BB_P, EXT4_W } from '../params/babybear.js';
import type { Ext4 } from './ext4.js';

const P = BB_P;
const INV_P = 1 / P;
const W = EXT4_W;
/** Below the float quotient's error bound's complement: see bbMulLazy. */
const NUDGE = 2 ** -16;

/**
 * A value ≡ a·b (mod p) in [0, 2p), for a, b in [0, 2p). Let t = a·b/p < 4p < 2^33. The double
 * a·b·(1/p) has three roundings (relative error < 2^-51, so absolute < 2^-18), and subtracting
 * NUDGE = 2^-16 (one more rounding, < 2^-20) leaves u in (t − 1, t). Its truncation q is then
 * floor(t) or floor(t) − 1 (for u in (−1, 0), q = 0 = floor(t)), so r = a·b − q·p lies in
 * [0, 2p) ⊂ [0, 2^32). Math.imul works mod 2^32 (it truncates u itself), so r is the unsigned
 * difference of the two low words.
 */
export function bbMulLazy(a: number, b: number): number {
  return (Math.imul(a, b) - Math.imul(a * b * INV_P - NUDGE, P)) >>> 0;
}

/** a·b mod p for canonical a, b (bbMulLazy and one correction). */
export function bbMulFast(a: number, b: number): number {
  const r = (Math.imul(a, b) - Math.imul(a * b * INV_P - NUDGE, P)) >>> 0;
  return r >= P ? r - P : r;
}

/** A value ≡ x (mod p) in [0, 2p), for an integer 0 <= x < 2^52 (bbMulLazy's argument, t < 2^22). */
export function bbReduceLazy(x: number): number {
  return x - Math.trunc(x * INV_P - NUDGE) * P;
}

/** x mod p for an integer 0 <= x < 2^52. */
export function bbReduceWide(x: number): number {
  const r = x - Math.trunc(x * INV_P - NUDGE) * P;
  return r >= P ? r - P : r;
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
