/**
 * BabyBear host math under the names the code uses (bbMul, toMonty, ext4Mul, ...): the generic
 * 31-bit field arithmetic (monty31-ops.ts, ext4.ts) bound to the BabyBear record once. CPU twin
 * of wgsl/lib/babybear.wgsl and babybear_ext4.wgsl on canonical values in [0, p).
 * @module
 */
import { BABY_BEAR } from '../params/babybear.js';
import { ext4Ops, type Ext4 } from './ext4.js';
import { monty31Ops } from './monty31-ops.js';

export { mulhi31 } from './monty31-ops.js';
export type { Ext4 };

const BB = monty31Ops(BABY_BEAR);
const EXT = ext4Ops(BABY_BEAR);

export const bbAdd = BB.add;
export const bbSub = BB.sub;
export const bbNeg = BB.neg;
/** x mod p for an integer 0 <= x < 2^53 (one float quotient and one correction). */
export const bbReduce = BB.reduce;
export const bbMul = BB.mul;
export const bbSquare = BB.square;
export const bbPow = BB.pow;
/** x^-1 = x^(p-2) (Fermat). Throws RangeError on 0, which has no inverse. */
export const bbInv = BB.inv;
/** Inverts every element with one field inversion (Montgomery's trick). Throws RangeError on any 0. */
export const bbBatchInv = BB.batchInv;
/** High 32 bits of t·p with p = 2^31 - 2^27 + 1, from shifts only (as bb_mulhi_p). */
export const mulhiP = BB.mulhiP;
/** Montgomery product a·b·2^-32 mod p, Plonky3's monty_reduce: t = lo·MU, r = hi - hi(t·p). */
export const montMul = BB.montMul;
export const toMonty = BB.toMonty;
export const fromMonty = BB.fromMonty;
/** Montgomery form of 1 (R mod p), for callers that build Montgomery tables. */
export const MONTY_ONE = BABY_BEAR.one;

/** x^7, the BabyBear Poseidon2 S-box: x2 = x², x3 = x²·x, x6 = x3², x7 = x6·x (4 multiplies, as on the GPU). */
export function bbPow7(x: number): number {
  const x3 = bbMul(bbMul(x, x), x);
  return bbMul(bbMul(x3, x3), x);
}

// ---- Degree-4 extension F_p[X]/(X^4 - 11) ----
export const ext4Add = EXT.add;
export const ext4Sub = EXT.sub;
/** c_k = Σ_{i+j=k} a_i b_j + W · Σ_{i+j=k+4} a_i b_j. */
export const ext4Mul = EXT.mul;
export const ext4Square = EXT.square;
/** One base-field inversion through the tower F_p ⊂ F_p² ⊂ F_p^4 (ext4.ts). RangeError on 0. */
export const ext4Inv = EXT.inv;

/** CPU twin of one field_bench.wgsl thread: x = x·y, y = y·x for `iters` rounds, returns x ^ y. */
export function fieldBenchThread(i: number, iters: number): number {
  const P = BABY_BEAR.p;
  let x = (Math.imul(i, 2654435761) >>> 0) % P;
  let y = ((x ^ 0x9e3779b9) >>> 0) % P;
  for (let k = 0; k < iters; k++) {
    x = montMul(x, y);
    y = montMul(y, x);
  }
  return (x ^ y) >>> 0;
}
