/**
 * Plonky3's Poseidon2 internal diagonals written as cheap operations. Every entry V_i of the
 * BabyBear and KoalaBear diagonals (src/params/poseidon2.ts) is ±c with c ∈ {1, 2, 3, 4} or
 * ±2^-k (k ≤ shiftLo: 27 for BabyBear, 24 for KoalaBear), so s_i·V_i needs no Montgomery
 * multiply (about 20 32-bit instructions with WGSL's emulated mulhi): doublings, or the exact
 * shift formula `div2k` below (about 7). Both are linear, so they act the same on canonical and
 * Montgomery-form values (x·R·2^-k = (x·2^-k)·R). scripts/gen-poseidon2-wgsl.ts emits these
 * operations; test/unit/poseidon2-diag.test.ts checks them against a multiply by V_i.
 * @module
 */
import { BABY_BEAR } from '../params/babybear.js';
import type { Monty31Params } from '../params/monty31.js';
import { internalDiagonal, type Poseidon2Width } from '../params/poseidon2.js';
import { monty31Ops } from '../field/monty31-ops.js';

/** V_i = sign·c (kind 'int', c = 1..4) or sign·2^-k (kind 'div2k'). */
export interface DiagOp {
  neg: boolean;
  kind: 'int' | 'div2k';
  /** c for 'int', k for 'div2k'. */
  n: number;
}

const pow2inv = (k: number, P: number) => Number((BigInt(P + 1) / 2n) ** BigInt(k) % BigInt(P));

/** Decompose one diagonal entry; throws if it is not of a cheap form (then the generator must fall back). */
export function diagOp(v: number, F: Monty31Params = BABY_BEAR): DiagOp {
  const P = F.p;
  for (const neg of [false, true]) {
    const t = neg ? (P - v) % P : v;
    for (let c = 1; c <= 4; c++) if (t === c) return { neg, kind: 'int', n: c };
    for (let k = 1; k <= F.shiftLo; k++) if (t === pow2inv(k, P)) return { neg, kind: 'div2k', n: k };
  }
  throw new Error(`Poseidon2 diagonal entry ${v} is not ±1..4 or ±2^-k in ${F.label}`);
}

export function diagOps(width: Poseidon2Width, F: Monty31Params = BABY_BEAR): DiagOp[] {
  return internalDiagonal(width, F).map((v) => diagOp(v, F));
}

/**
 * x·2^-k mod p for x in [0, p), 1 ≤ k ≤ L, in u32 arithmetic, where p = c·2^L + 1 (c = 15,
 * L = 27 for BabyBear; c = 127, L = 24 for KoalaBear; c = p >> L). p ≡ 1 (mod 2^L), so
 * m = (−x) mod 2^k makes x + m·p divisible by 2^k, and m·p = m + c·m·2^L splits the quotient:
 * (x + m·p)/2^k = (x + m)/2^k + c·m·2^(L−k). Bounds: x + m < 2^31 + 2^L < 2^32;
 * c·m·2^(L−k) < c·2^L < p; the quotient is < (p + 2^k·p)/2^k = p(1 + 2^-k) < 2p < 2^32,
 * so one conditional subtraction makes it canonical.
 */
export function div2k(x: number, k: number, F: Monty31Params = BABY_BEAR): number {
  const P = F.p,
    L = F.shiftLo;
  const m = (0x100000000 - x) % 2 ** k;
  const r = (x + m) / 2 ** k + Math.floor(P / 2 ** L) * m * 2 ** (L - k);
  return r >= P ? r - P : r;
}

/** s_i·V_i through the op (CPU twin of the generated WGSL). */
export function applyDiagOp(op: DiagOp, x: number, F: Monty31Params = BABY_BEAR): number {
  const { add, sub } = monty31Ops(F);
  let y: number;
  if (op.kind === 'div2k') y = div2k(x, op.n, F);
  else {
    y = x;
    for (let c = 1; c < op.n; c++) y = add(y, x);
  }
  return op.neg ? sub(0, y) : y;
}

/** M_I = J + diag(V) with the cheap ops: the twin of the generated p2s<W>_internal. */
export function internalLayerCheap(s: Uint32Array | number[], ops: readonly DiagOp[], F: Monty31Params = BABY_BEAR): void {
  const { add } = monty31Ops(F);
  let sum = 0;
  for (const v of s) sum = add(sum, v);
  for (let i = 0; i < s.length; i++) s[i] = add(sum, applyDiagOp(ops[i], s[i], F));
}

/** Reference for the test: the multiply the ops replace. */
export function diagByMultiply(width: Poseidon2Width, i: number, x: number, F: Monty31Params = BABY_BEAR): number {
  return monty31Ops(F).mul(internalDiagonal(width, F)[i], x);
}
