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

// Built in one function scope so the constants are `const`s of the closures' own context, which V8
// folds into optimized code; top-level bindings are reloaded wherever they stay mutable (a bundler
// such as esbuild rewrites top-level `const` to `var`).
const FAST = /* @__PURE__ */ (() => {
  const P = BB_P;
  const INV_P = 1 / P;
  const W = EXT4_W;
  /** Subtracted from the float quotient so that it is never too large: see bbMulLazy. */
  const NUDGE = 2 ** -5;
  const mulLazy = (a: number, b: number): number => (Math.imul(a, b) - Math.imul(a * b * INV_P - NUDGE, P)) >>> 0;
  const mul = (a: number, b: number): number => {
    const r = (Math.imul(a, b) - Math.imul(a * b * INV_P - NUDGE, P)) >>> 0;
    return r >= P ? r - P : r;
  };
  const reduceLazy = (x: number): number => x - Math.trunc(x * INV_P - NUDGE) * P;
  const reduce = (x: number): number => {
    const r = x - Math.trunc(x * INV_P - NUDGE) * P;
    return r >= P ? r - P : r;
  };
  const ext4Mul = (a: Ext4, b: Ext4): Ext4 => {
    const a0 = a[0],
      a1 = a[1],
      a2 = a[2],
      a3 = a[3];
    const b0 = b[0],
      b1 = b[1],
      b2 = b[2],
      b3 = b[3];
    return [
      reduce(mul(a0, b0) + W * (mul(a1, b3) + mul(a2, b2) + mul(a3, b1))),
      reduce(mul(a0, b1) + mul(a1, b0) + W * (mul(a2, b3) + mul(a3, b2))),
      reduce(mul(a0, b2) + mul(a1, b1) + mul(a2, b0) + W * mul(a3, b3)),
      reduce(mul(a0, b3) + mul(a1, b2) + mul(a2, b1) + mul(a3, b0)),
    ];
  };
  const ext4Scale = (a: Ext4, s: number): Ext4 => [mul(a[0], s), mul(a[1], s), mul(a[2], s), mul(a[3], s)];
  const pow = (x: number, e: number): number => {
    let r = 1;
    let b = x;
    for (let k = e; k > 0; k = Math.floor(k / 2)) {
      if (k % 2 === 1) r = mul(r, b);
      b = mul(b, b);
    }
    return r;
  };
  return { mulLazy, mul, reduceLazy, reduce, ext4Mul, ext4Scale, pow };
})();

/**
 * A value ≡ a·b (mod p) in [0, 2p), for integers a, b >= 0 with a·b < 2^75: canonical values, or
 * unreduced sums below 2^37 such as Poseidon2's linear-layer outputs. Let t = a·b/p < 2^44.2. The
 * double a·b·(1/p) has three roundings (relative error < 2^-51.4, so absolute < 2^-7.2), and
 * subtracting NUDGE = 2^-5 (one more rounding, at most 2^-9) leaves u in (t − 1, t). Its
 * truncation q is then floor(t) or floor(t) − 1 (for u in (−1, 0), q = 0 = floor(t)), so
 * r = a·b − q·p lies in [0, 2p) ⊂ [0, 2^32). Math.imul works mod 2^32 (it truncates u, a and b
 * itself), so r is the unsigned difference of the two low words.
 */
export const bbMulLazy: (a: number, b: number) => number = FAST.mulLazy;

/** a·b mod p for canonical a, b (bbMulLazy and one correction). */
export const bbMulFast: (a: number, b: number) => number = FAST.mul;

/** A value ≡ x (mod p) in [0, 2p), for an integer 0 <= x < 2^52 (bbMulLazy's argument with t < 2^22). */
export const bbReduceLazy: (x: number) => number = FAST.reduceLazy;

/** x mod p for an integer 0 <= x < 2^52. */
export const bbReduceWide: (x: number) => number = FAST.reduce;

/**
 * The extension product c_k = Σ_{i+j=k} a_i b_j + W·Σ_{i+j=k+4} a_i b_j: sixteen canonical products
 * summed unreduced (at most (4 + 3·W)·p < 2^37, exact in a double) and one reduction per coefficient.
 */
export const ext4MulFast: (a: Ext4, b: Ext4) => Ext4 = FAST.ext4Mul;

/** a·s for an extension element a and a base-field element s. */
export const ext4ScaleFast: (a: Ext4, s: number) => Ext4 = FAST.ext4Scale;

/** x^e for canonical x and an integer 0 <= e < 2^53 (square and multiply on numbers, no BigInt). */
export const bbPowFast: (x: number, e: number) => number = FAST.pow;
