/**
 * fast-check arbitraries of bad calls, one fault at a time, over every public method and
 * handle (bad-input-families.ts, bad-input-msm.ts; the case record and shared arbitraries in
 * bad-input-shared.ts). Used by bad-input-check.ts in the dev page (`errors-check`).
 * @module
 */
import fc from 'fast-check';
import type { BadCall, Fixtures } from './bad-input-shared.js';
import { field, handles, hash, ntt } from './bad-input-families.js';
import { jobOptions, msm, standalone } from './bad-input-msm.js';

export { makeFixtures, TREE_ROWS, TREE_WIDTH, type BadCall, type Fixtures } from './bad-input-shared.js';

/**
 * Every kind of bad call, one arbitrary each. badCalls draws among them alike; the check also
 * draws a few of each first, so every kind (and every method) is exercised in every run, not
 * only most runs (300 draws over ~80 kinds missed one in about one run of twenty).
 */
export function badCallKinds(f: Fixtures): fc.Arbitrary<BadCall>[] {
  return [...field(f), ...ntt(f), ...handles(f), ...hash(f), ...msm(f), ...standalone(f), ...jobOptions(f)];
}

export function badCalls(f: Fixtures): fc.Arbitrary<BadCall> {
  return fc.oneof(...badCallKinds(f));
}

/** The methods badCalls covers: a run that misses one of them fails. */
export const COVERED_METHODS = [
  'batchField',
  'dft',
  'idft',
  'lde',
  'encode',
  'NttMatrix.read',
  'poseidon2',
  'merkleCommit',
  'MerkleTree.open',
  'commit',
  'grind',
  'msm',
  'msmBases',
  'MsmBases.msm',
  'MsmBases.msmBatch',
  'MsmBases.msmProfiled',
  'verifyMerklePath',
  'DuplexChallenger.observe',
  'DuplexChallenger.observeSlice',
  'DuplexChallenger.sampleBits',
  'DuplexChallenger.checkWitness',
  'createProver',
];
