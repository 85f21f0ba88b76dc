/**
 * fast-check arbitraries of bad calls, one fault at a time, over every public method and
 * handle: wrong types, lengths, values, options, sparse arrays, symbols, typed arrays of every
 * kind, detached buffers, destroyed handles and provers, another prover's handles, aborted signals. Each case
 * carries the code docs/errors.md gives its fault (or `false` for a verifier that must refuse).
 * Used by bad-input-check.ts in the dev page (`errors-check`) and so in Chromium in CI. This file:
 * the case record, the fixtures and the arbitraries every family's cases share; the cases are in
 * bad-input-families.ts and bad-input-msm.ts, joined by bad-input-cases.ts.
 * @module
 */
import fc from 'fast-check';
import { bn254 } from '@noble/curves/bn254.js';
import { sameLimits } from './same-limits.js';
import type { Prover } from '../../src/prover.js';
import type { NttMatrix } from '../../src/api/ntt.js';
import type { MerkleTree } from '../../src/api/merkle.js';
import type { MsmBases } from '../../src/api/msm.js';
import { createProver, type ProverErrorCode } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';

export interface BadCall {
  /** The public method called. */
  method: string;
  /** What is wrong with the call. */
  fault: string;
  /** The code docs/errors.md gives the fault, or false: a verifier must return false. */
  expect: ProverErrorCode | false;
  call: () => unknown;
}

/** Live and dead handles the cases use, made once before the property runs. */
export interface Fixtures {
  prover: Prover;
  matrix: NttMatrix;
  destroyedMatrix: NttMatrix;
  /** An NttMatrix of another prover, destroyed since (the handle itself never destroyed). */
  foreignMatrix: NttMatrix;
  deadProver: Prover;
  deadTree: MerkleTree;
  deadBases: MsmBases;
  tree: MerkleTree;
  disposedTree: MerkleTree;
  opening: { root: Uint32Array; index: number; row: Uint32Array; siblings: Uint32Array[] };
  bases: MsmBases;
  destroyedBases: MsmBases;
}

export const G = bn254.G1.Point;
export const TREE_ROWS = 8;
export const TREE_WIDTH = 4;

export async function makeFixtures(prover: Prover): Promise<Fixtures> {
  const vals = (n: number, k = 1) => Uint32Array.from({ length: n }, (_, i) => (i * 7919 + k) % BB_P);
  const matrix = await prover.dft(vals(16), { width: 2, gpu: true });
  const destroyedMatrix = await prover.dft(vals(16, 2), { width: 2, gpu: true });
  destroyedMatrix.destroy();
  const { root, tree } = await prover.merkleCommit(vals(TREE_ROWS * TREE_WIDTH), { width: TREE_WIDTH });
  const { tree: disposedTree } = await prover.merkleCommit(vals(TREE_ROWS * TREE_WIDTH, 3), { width: TREE_WIDTH });
  disposedTree.dispose();
  const { row, siblings } = await tree.open(5);
  const pts = [G.BASE, G.BASE.double(), G.BASE.multiply(5n), G.ZERO];
  const bases = await prover.msmBases(pts);
  const destroyedBases = await prover.msmBases(pts);
  destroyedBases.destroy();
  const deadProver = await createProver(sameLimits(prover));
  const foreignMatrix = await deadProver.dft(vals(8), { width: 1, gpu: true });
  const { tree: deadTree } = await deadProver.merkleCommit(vals(4), { width: 1 });
  const deadBases = await deadProver.msmBases(pts.slice(0, 2));
  deadProver.destroy();
  return {
    prover,
    matrix,
    destroyedMatrix,
    foreignMatrix,
    deadProver,
    deadTree,
    deadBases,
    tree,
    disposedTree,
    opening: { root, index: 5, row, siblings },
    bases,
    destroyedBases,
  };
}

/** Values that are not a Uint32Array (nor any array the method takes). */
export const notTyped = fc.constantFrom<unknown>(
  null,
  undefined,
  0,
  1.5,
  NaN,
  'abc',
  true,
  {},
  Symbol('s'),
  7n,
  () => 1,
  [1, 2, 3, 4],
  [],
  new Uint8Array(16),
  new Int32Array(16),
  new Float64Array(16),
  new Uint16Array(16),
  new BigUint64Array(4),
  new DataView(new ArrayBuffer(64)),
  new Uint8ClampedArray(16),
  new Float32Array(16),
  new Map(),
  new ArrayBuffer(64),
);
/** A value for a field that wants an integer in a range: never an integer in that range. */
export const notInt = fc.constantFrom<unknown>(null, '4', 1.5, -1, NaN, Infinity, -Infinity, Symbol('w'), {}, [4], 4n, true);
export const notBool = fc.constantFrom<unknown>('yes', 1, 0, null, {}, Symbol('b'), 'false');
export const notOptions = fc.constantFrom<unknown>(null, 5, 'opts', Symbol('o'), true, [1], 3n);

/** n canonical values, with the value at a drawn index replaced by a non-canonical one. */
export const nonCanonical = (n: number) =>
  fc.tuple(fc.nat({ max: n - 1 }), fc.integer({ min: BB_P, max: 2 ** 32 - 1 }), fc.nat({ max: BB_P - 1 })).map(([at, bad, seed]) => {
    const a = Uint32Array.from({ length: n }, (_, i) => (seed + i) % BB_P);
    a[at] = bad;
    return a;
  });
export const canon = (n: number) => Uint32Array.from({ length: n }, (_, i) => (i * 31 + 1) % BB_P);
/** A Uint32Array whose buffer was transferred away: it reads as length 0. */
export function detached(n: number): Uint32Array {
  const a = new Uint32Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}
export const badLength = (ok: (n: number) => boolean) => fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })).filter((n) => !ok(n));
