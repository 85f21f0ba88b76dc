/**
 * Plonky3's BabyBear Poseidon2 internal diagonals written as cheap operations. Every entry V_i
 * of POSEIDON2_DIAG_16/24 is ±c with c ∈ {1, 2, 3, 4} or ±2^-k (k ≤ 27), so s_i·V_i needs no
 * Montgomery multiply (about 20 32-bit instructions with WGSL's emulated mulhi): doublings, or
 * the exact shift formula `div2k` below (about 7). Both are linear, so they act the same on
 * canonical and Montgomery-form values (x·R·2^-k = (x·2^-k)·R). scripts/gen-poseidon2-wgsl.ts
 * emits these operations; test/unit/poseidon2-diag.test.ts checks them against bbMul(V_i, x).
 * @module
 */
import { BB_P } from '../params/babybear.js';
import { bbAdd, bbMul, bbSub } from './babybear.js';
import { internalDiagonal, type Poseidon2Width } from './poseidon2.js';

/** V_i = sign·c (kind 'int', c = 1..4) or sign·2^-k (kind 'div2k'). */
export interface DiagOp {
  neg: boolean;
  kind: 'int' | 'div2k';
  /** c for 'int', k for 'div2k'. */
  n: number;
}

const pow2inv = (k: number) => Number((BigInt(BB_P + 1) / 2n) ** BigInt(k) % BigInt(BB_P));

/** Decompose one diagonal entry; throws if it is not of a cheap form (then the generator must fall back). */
export function diagOp(v: number): DiagOp {
  for (const neg of [false, true]) {
    const t = neg ? (BB_P - v) % BB_P : v;
    for (let c = 1; c <= 4; c++) if (t === c) return { neg, kind: 'int', n: c };
    for (let k = 1; k <= 27; k++) if (t === pow2inv(k)) return { neg, kind: 'div2k', n: k };
  }
  throw new Error(`Poseidon2 diagonal entry ${v} is not ±1..4 or ±2^-k`);
}

export function diagOps(width: Poseidon2Width): DiagOp[] {
  return internalDiagonal(width).map(diagOp);
}

/**
 * x·2^-k mod p for x in [0, p), 1 ≤ k ≤ 27, in u32 arithmetic. p ≡ 1 (mod 2^27), so
 * m = (−x) mod 2^k makes x + m·p divisible by 2^k, and m·p = m + 15·m·2^27 splits the quotient:
 * (x + m·p)/2^k = (x + m)/2^k + 15·m·2^(27−k). Bounds: x + m < 2^31 + 2^27 < 2^32;
 * 15·m·2^(27−k) < 15·2^27 < p; the quotient is < (p + 2^k·p)/2^k = p(1 + 2^-k) < 2p < 2^32,
 * so one conditional subtraction makes it canonical.
 */
export function div2k(x: number, k: number): number {
  const m = (0x100000000 - x) % 2 ** k;
  const r = (x + m) / 2 ** k + 15 * m * 2 ** (27 - k);
  return r >= BB_P ? r - BB_P : r;
}

/** s_i·V_i through the op (CPU twin of the generated WGSL). */
export function applyDiagOp(op: DiagOp, x: number): number {
  let y: number;
  if (op.kind === 'div2k') y = div2k(x, op.n);
  else {
    y = x;
    for (let c = 1; c < op.n; c++) y = bbAdd(y, x);
  }
  return op.neg ? bbSub(0, y) : y;
}

/** M_I = J + diag(V) with the cheap ops: the twin of the generated p2s<W>_internal. */
export function internalLayerCheap(s: Uint32Array | number[], ops: readonly DiagOp[]): void {
  let sum = 0;
  for (const v of s) sum = bbAdd(sum, v);
  for (let i = 0; i < s.length; i++) s[i] = bbAdd(sum, applyDiagOp(ops[i], s[i]));
}

/** Reference for the test: the multiply the ops replace. */
export function diagByMultiply(width: Poseidon2Width, i: number, x: number): number {
  return bbMul(internalDiagonal(width)[i], x);
}
