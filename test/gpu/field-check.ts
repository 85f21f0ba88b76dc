/**
 * GPU-vs-reference check of every field op, runnable wherever a Prover runs: the dev page's
 * `field-check` autorun (headless Chromium in CI), and `npm run bench -- field` (Node + Dawn)
 * before it times anything. Each op is compared against src/ref (same algorithm on the CPU)
 * and against plain BigInt arithmetic (an independent oracle) on 2^16 random inputs from a
 * fixed seed plus every pair of edge values.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import type { FieldOp } from '../../src/kernels/field.js';
import { BB_P, BB_P_BIG, BB_R, EXT4_W, powModBig } from '../../src/params/babybear.js';
import * as ref from '../../src/field/babybear.js';
import { SplitMix64 } from '../support/splitmix.js';

/** 0, 1, p-1, 2^31-1 reduced, R mod p (Montgomery one), and neighbours of the boundaries. */
export const EDGE_VALUES: readonly number[] = [0, 1, 2, BB_P - 1, BB_P - 2, (2 ** 31 - 1) % BB_P, BB_R, (BB_P - 1) / 2, (BB_P + 1) / 2, 2 ** 27, 2 ** 16 - 1, 2 ** 16];

export interface FieldCheckRow {
  op: FieldOp;
  /** elements checked (ext4 elements count once) */
  n: number;
  mismatchRef: number;
  mismatchBigInt: number;
  first?: string;
  ms: number;
}

const P = BB_P_BIG;
const big = (x: number) => BigInt(x);
type Ext = [bigint, bigint, bigint, bigint];

function bigExtMul(a: Ext, b: Ext): Ext {
  const c: bigint[] = [0n, 0n, 0n, 0n, 0n, 0n, 0n];
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) c[i + j] += a[i] * b[j];
  const W = BigInt(EXT4_W);
  return [0, 1, 2, 3].map((k) => (c[k] + W * (c[k + 4] ?? 0n)) % P) as Ext;
}

/** Inputs: edge pairs first (every (e1, e2)), then random values. */
function makeInputs(count: number, seed: number, ext: boolean): [Uint32Array, Uint32Array] {
  const rng = new SplitMix64(seed);
  const width = ext ? 4 : 1;
  const edges = EDGE_VALUES.flatMap((x) => EDGE_VALUES.map((y) => [x, y] as const));
  const a = rng.fieldArray((count + edges.length) * width);
  const b = rng.fieldArray((count + edges.length) * width);
  edges.forEach(([x, y], k) => {
    // ext4: the edge value in every coefficient, and a lone-coefficient variant via k parity
    for (let c = 0; c < width; c++) {
      a[k * width + c] = ext && k % 2 === 1 && c > 0 ? 0 : x;
      b[k * width + c] = ext && k % 3 === 1 && c > 0 ? 0 : y;
    }
  });
  return [a, b];
}

interface OpSpec {
  ext: boolean;
  ref(a: Uint32Array, b: Uint32Array, i: number): number[];
  big(a: Uint32Array, b: Uint32Array, i: number, got: number[]): boolean;
}

const ext4At = (v: Uint32Array, i: number): ref.Ext4 => [v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]];
const bigExtAt = (v: Uint32Array, i: number): Ext => [big(v[4 * i]), big(v[4 * i + 1]), big(v[4 * i + 2]), big(v[4 * i + 3])];
const isZeroExt = (v: ref.Ext4) => v.every((c) => c === 0);

const OPS: Record<FieldOp, OpSpec> = {
  add: { ext: false, ref: (a, b, i) => [ref.bbAdd(a[i], b[i])], big: (a, b, i, g) => (big(a[i]) + big(b[i])) % P === big(g[0]) },
  sub: { ext: false, ref: (a, b, i) => [ref.bbSub(a[i], b[i])], big: (a, b, i, g) => (big(a[i]) - big(b[i]) + P) % P === big(g[0]) },
  mul: { ext: false, ref: (a, b, i) => [ref.bbMul(a[i], b[i])], big: (a, b, i, g) => (big(a[i]) * big(b[i])) % P === big(g[0]) },
  square: { ext: false, ref: (a, _b, i) => [ref.bbSquare(a[i])], big: (a, _b, i, g) => (big(a[i]) ** 2n) % P === big(g[0]) },
  pow7: { ext: false, ref: (a, _b, i) => [ref.bbPow7(a[i])], big: (a, _b, i, g) => (big(a[i]) ** 7n) % P === big(g[0]) },
  inv: {
    ext: false,
    ref: (a, _b, i) => [a[i] === 0 ? 0 : ref.bbInv(a[i])],
    // inv(0) = 0 by the API's convention; otherwise x · inv(x) = 1 and inv(x) = x^(p-2)
    big: (a, _b, i, g) => (a[i] === 0 ? g[0] === 0 : (big(a[i]) * big(g[0])) % P === 1n && powModBig(big(a[i]), P - 2n, P) === big(g[0])),
  },
  ext4Mul: {
    ext: true,
    ref: (a, b, i) => ref.ext4Mul(ext4At(a, i), ext4At(b, i)),
    big: (a, b, i, g) => bigExtMul(bigExtAt(a, i), bigExtAt(b, i)).every((c, k) => c === big(g[k])),
  },
  ext4Inv: {
    ext: true,
    ref: (a, _b, i) => (isZeroExt(ext4At(a, i)) ? [0, 0, 0, 0] : ref.ext4Inv(ext4At(a, i))),
    big: (a, _b, i, g) => {
      if (isZeroExt(ext4At(a, i))) return g.every((c) => c === 0);
      const prod = bigExtMul(bigExtAt(a, i), g.map(big) as Ext);
      return prod[0] === 1n && prod[1] === 0n && prod[2] === 0n && prod[3] === 0n;
    },
  },
};

export const FIELD_CHECK_OPS = Object.keys(OPS) as FieldOp[];

/** Check one op on `count` random elements plus the edge pairs. */
export async function checkFieldOp(prover: Prover, op: FieldOp, count = 1 << 16, seed = 0x5eed): Promise<FieldCheckRow> {
  const spec = OPS[op];
  const [a, b] = makeInputs(count, seed + FIELD_CHECK_OPS.indexOf(op), spec.ext);
  const t0 = performance.now();
  const got = await prover.batchField(op, a, b);
  const ms = performance.now() - t0;
  const width = spec.ext ? 4 : 1;
  const n = a.length / width;
  let mismatchRef = 0, mismatchBigInt = 0;
  let first: string | undefined;
  for (let i = 0; i < n; i++) {
    const g = Array.from(got.subarray(i * width, (i + 1) * width));
    const r = spec.ref(a, b, i);
    const refOk = r.every((x, k) => x === g[k]);
    const bigOk = spec.big(a, b, i, g);
    if (!refOk) mismatchRef++;
    if (!bigOk) mismatchBigInt++;
    if ((!refOk || !bigOk) && first === undefined) {
      first = `${op}[${i}]: a=${a.subarray(i * width, (i + 1) * width).join(',')} b=${b.subarray(i * width, (i + 1) * width).join(',')} gpu=${g.join(',')} ref=${r.join(',')}`;
    }
  }
  return { op, n, mismatchRef, mismatchBigInt, first, ms };
}
