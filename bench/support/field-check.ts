/**
 * GPU-vs-reference check of every field op, runnable wherever a Prover runs: the dev page's
 * `field-check` autorun (headless Chromium in CI), and `npm run bench -- field` (Node + Dawn)
 * before it times anything. Each op is compared against src/field (same algorithm on the CPU)
 * and against plain BigInt arithmetic (an independent oracle) on 2^16 random inputs from a
 * fixed seed plus every pair of edge values. BabyBear by default; `field: 'koalabear'` runs the
 * same kernels built with KoalaBear's constants (the WGSL multiply's shift form, 2^31 - 2^24 + 1).
 * @module
 */
import type { Prover } from '../../src/prover.js';
import type { FieldOp } from '../../src/kernels/field.js';
import { BABY_BEAR } from '../../src/params/babybear.js';
import { powModBig } from '../../src/params/monty31.js';
import { MONTY31_FIELDS, type FieldName, type Monty31Params } from '../../src/params/fields.js';
import { monty31Ops } from '../../src/field/monty31-ops.js';
import { ext4Ops, type Ext4 } from '../../src/field/ext4.js';
import { SplitMix64 } from './splitmix.js';

/** 0, 1, p-1, 2^31-1 reduced, R mod p (Montgomery one), neighbours of the boundaries, 2^shiftLo (p's shape). */
export function edgeValues(F: Monty31Params): readonly number[] {
  const p = F.p;
  return [0, 1, 2, p - 1, p - 2, (2 ** 31 - 1) % p, F.one, (p - 1) / 2, (p + 1) / 2, 2 ** F.shiftLo, 2 ** 16 - 1, 2 ** 16];
}

/** BabyBear's edge values. */
export const EDGE_VALUES: readonly number[] = edgeValues(BABY_BEAR);

export interface FieldCheckRow {
  op: FieldOp;
  /** elements checked (ext4 elements count once) */
  n: number;
  mismatchRef: number;
  mismatchBigInt: number;
  first?: string;
  ms: number;
}

const big = (x: number) => BigInt(x);
type Ext = [bigint, bigint, bigint, bigint];

function bigExtMul(a: Ext, b: Ext, F: Monty31Params): Ext {
  const c: bigint[] = [0n, 0n, 0n, 0n, 0n, 0n, 0n];
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) c[i + j] += a[i] * b[j];
  const W = BigInt(F.ext4W);
  return [0, 1, 2, 3].map((k) => (c[k] + W * (c[k + 4] ?? 0n)) % F.pBig) as Ext;
}

/** Inputs: edge pairs first (every (e1, e2)), then random values. */
function makeInputs(count: number, seed: number, ext: boolean, F: Monty31Params): [Uint32Array, Uint32Array] {
  const rng = new SplitMix64(seed);
  const width = ext ? 4 : 1;
  const edge = edgeValues(F);
  const edges = edge.flatMap((x) => edge.map((y) => [x, y] as const));
  const a = rng.fieldArray((count + edges.length) * width, F.p);
  const b = rng.fieldArray((count + edges.length) * width, F.p);
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

const ext4At = (v: Uint32Array, i: number): Ext4 => [v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]];
const bigExtAt = (v: Uint32Array, i: number): Ext => [big(v[4 * i]), big(v[4 * i + 1]), big(v[4 * i + 2]), big(v[4 * i + 3])];
const isZeroExt = (v: Ext4) => v.every((c) => c === 0);

/** Each op's CPU twin (src/field, built from the record) and its BigInt oracle over field F. */
function opSpecs(F: Monty31Params): Record<FieldOp, OpSpec> {
  const P = F.pBig;
  const ref = monty31Ops(F);
  const e = ext4Ops(F);
  // x^7 as the GPU computes it: x3 = x²·x, x7 = x3²·x.
  const pow7 = (x: number) => {
    const x3 = ref.mul(ref.square(x), x);
    return ref.mul(ref.square(x3), x);
  };
  return {
    add: { ext: false, ref: (a, b, i) => [ref.add(a[i], b[i])], big: (a, b, i, g) => (big(a[i]) + big(b[i])) % P === big(g[0]) },
    sub: { ext: false, ref: (a, b, i) => [ref.sub(a[i], b[i])], big: (a, b, i, g) => (big(a[i]) - big(b[i]) + P) % P === big(g[0]) },
    mul: { ext: false, ref: (a, b, i) => [ref.mul(a[i], b[i])], big: (a, b, i, g) => (big(a[i]) * big(b[i])) % P === big(g[0]) },
    square: { ext: false, ref: (a, _b, i) => [ref.square(a[i])], big: (a, _b, i, g) => big(a[i]) ** 2n % P === big(g[0]) },
    pow7: { ext: false, ref: (a, _b, i) => [pow7(a[i])], big: (a, _b, i, g) => big(a[i]) ** 7n % P === big(g[0]) },
    inv: {
      ext: false,
      ref: (a, _b, i) => [a[i] === 0 ? 0 : ref.inv(a[i])],
      // inv(0) = 0 by the API's convention; otherwise x · inv(x) = 1 and inv(x) = x^(p-2)
      big: (a, _b, i, g) => (a[i] === 0 ? g[0] === 0 : (big(a[i]) * big(g[0])) % P === 1n && powModBig(big(a[i]), P - 2n, P) === big(g[0])),
    },
    ext4Mul: {
      ext: true,
      ref: (a, b, i) => e.mul(ext4At(a, i), ext4At(b, i)),
      big: (a, b, i, g) => bigExtMul(bigExtAt(a, i), bigExtAt(b, i), F).every((c, k) => c === big(g[k])),
    },
    ext4Inv: {
      ext: true,
      ref: (a, _b, i) => (isZeroExt(ext4At(a, i)) ? [0, 0, 0, 0] : e.inv(ext4At(a, i))),
      big: (a, _b, i, g) => {
        if (isZeroExt(ext4At(a, i))) return g.every((c) => c === 0);
        const prod = bigExtMul(bigExtAt(a, i), g.map(big) as Ext, F);
        return prod[0] === 1n && prod[1] === 0n && prod[2] === 0n && prod[3] === 0n;
      },
    },
  };
}

export const FIELD_CHECK_OPS = Object.keys(opSpecs(BABY_BEAR)) as FieldOp[];

/** Check one op on `count` random elements plus the edge pairs, over `field` (BabyBear by default). */
export async function checkFieldOp(
  prover: Prover,
  op: FieldOp,
  count = 1 << 16,
  seed = 0x5eed,
  field: FieldName = 'babybear',
): Promise<FieldCheckRow> {
  const F = MONTY31_FIELDS[field];
  const spec = opSpecs(F)[op];
  const [a, b] = makeInputs(count, seed + FIELD_CHECK_OPS.indexOf(op), spec.ext, F);
  const t0 = performance.now();
  const got = await (field === 'babybear' ? prover.batchField(op, a, b) : prover.batchField(op, a, b, { field }));
  const ms = performance.now() - t0;
  const width = spec.ext ? 4 : 1;
  const n = a.length / width;
  let mismatchRef = 0,
    mismatchBigInt = 0;
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
