/**
 * The WHIR verifier's costliest step on its own (~80% of a verification): a round's opened rows
 * checked against the commitment they open (Poseidon2 over every row, then the pruned multiproof)
 * and each row folded at the round's folding randomness into a select claim.
 *
 * The verifier (verifier.ts) makes it for every round; during a checked open the prover has it
 * made ahead, on the check thread (openings-ahead.ts).
 * @module
 */
import { compressPairsBb16, hashRowBb16 } from '../field/poseidon2-bb16.js';
import { efVecFromList, type Ext4 } from './ext.js';
import { domainPoint, evalBase, evalExt } from './multilinear.js';
import { restoreRoot } from './multiproof.js';
import type { QueryOpenings } from './proof.js';

/** A proof the verifier refuses (its message says why); any other error is a malformed transcript. */
export class Reject extends Error {}

/** What the check of one round's openings reads. */
export interface StirInput {
  /** The round's query indices, in draw order (repeats kept). */
  readonly indices: readonly number[];
  readonly openings: QueryOpenings;
  /** The root of the codeword the rows are opened from. */
  readonly root: Uint32Array;
  /** The codeword's tree levels (log2 of its height). */
  readonly levels: number;
  /** log2 of the folded domain the indices point into. */
  readonly logFolded: number;
  /** The folding randomness of the sumcheck before, in sampling order. */
  readonly folding: readonly Ext4[];
  /** The round's name in a rejection ('round 2', 'final'). */
  readonly what: string;
}

export interface SelectClaim {
  x: number;
  value: Ext4;
}

/** Check the openings' multiproof against the root and fold each row: one select claim per query. */
export function stirClaims(input: StirInput): SelectClaim[] {
  const { indices, openings, root, levels, logFolded, folding, what } = input;
  if (openings.rows.length !== indices.length)
    throw new Reject(`${what}: ${openings.rows.length} opened rows for ${indices.length} queries`);
  const flat = openings.kind === 'Base' ? openings.rows : openings.rows.map((r) => efVecFromList(r));
  const width = 2 ** folding.length * (openings.kind === 'Base' ? 1 : 4);
  const leaves = new Map<number, Uint32Array>();
  indices.forEach((index, j) => {
    if (flat[j].length !== width) throw new Reject(`${what}: opened row ${j} has ${flat[j].length} values, expected ${width}`);
    const digest = hashRowBb16(flat[j]);
    const seen = leaves.get(index);
    if (seen && seen.some((v, i) => v !== digest[i])) throw new Reject(`${what}: two different rows opened at index ${index}`);
    leaves.set(index, digest);
  });
  const restored = restoreRoot(leaves, levels, openings.siblingHashes, compressPairsBb16);
  if (!restored || restored.some((v, i) => v !== root[i])) throw new Reject(`${what}: Merkle multiproof does not open the commitment`);
  const point = [...folding].reverse();
  return indices.map((index, j) => ({
    x: domainPoint(logFolded, index),
    value: openings.kind === 'Base' ? evalBase(flat[j], point) : evalExt(flat[j], point),
  }));
}
