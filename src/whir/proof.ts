/**
 * The WHIR proof as p3-whir 0.9.0-rc.2 holds it (`PcsProof` / `WhirProof` / `WhirRoundProof` /
 * `SumcheckData` / `QueryOpenings`), field by field in camelCase, with canonical values. The JSON
 * form the Rust verifier reads is made by `proof-json.ts`.
 * @module
 */
import type { Ext4 } from './ext.js';

/** One sumcheck phase: [h(0), h(∞)] per round, and a PoW witness per round when its pow bits > 0. */
export interface SumcheckData {
  polynomialEvaluations: [Ext4, Ext4][];
  powWitnesses: number[];
}

/** The opened rows of one commitment (draw order, repeats kept) and their pruned multiproof. */
export type QueryOpenings =
  { kind: 'Base'; rows: Uint32Array[]; siblingHashes: Uint32Array[] } | { kind: 'Extension'; rows: Ext4[][]; siblingHashes: Uint32Array[] };

export interface WhirRoundProof {
  /** The round's codeword root (8 words); p3-whir always sends it. */
  commitment: Uint32Array;
  oodAnswers: Ext4[];
  powWitness: number;
  openings: QueryOpenings;
  sumcheck: SumcheckData;
}

export interface WhirProof {
  initialOodAnswers: Ext4[];
  initialSumcheck: SumcheckData;
  rounds: WhirRoundProof[];
  finalPoly: Ext4[];
  finalPowWitness: number;
  finalOpenings: QueryOpenings;
  /** Present when the schedule has final sumcheck rounds. */
  finalSumcheck: SumcheckData | null;
}

/** PcsProof: the WHIR proof and the claimed evaluation at the opening point. */
export interface PcsProof {
  whir: WhirProof;
  /** The polynomial's value at the opening point (one table, one column, one batch). */
  evaluation: Ext4;
}

export function emptySumcheck(): SumcheckData {
  return { polynomialEvaluations: [], powWitnesses: [] };
}
