/**
 * The WHIR configuration as plain records: what a caller asks for (`WhirParameters`) and what
 * `p3-whir 0.9.0-rc.2` derives from it (`WhirSchedule`, its `WhirConfig` field by field, in
 * camelCase). The derivation lives in `params.ts`; the transcript seeds and the prover read only
 * these records.
 * @module
 */

/** p3-security's `SecurityAssumption`. */
export type SoundnessAssumption = 'UniqueDecoding' | 'JohnsonBound' | 'CapacityBound';

/** p3-whir's `FoldingFactor` enum. */
export type FoldingFactorSpec =
  | { kind: 'Constant'; factor: number }
  | { kind: 'ConstantFromSecondRound'; first: number; rest: number }
  | { kind: 'PerRound'; factors: number[] };

/** p3-whir's `ProtocolParameters`: what the caller chooses. */
export interface WhirParameters {
  securityLevel: number;
  /** The PoW budget in bits (p3-whir's `DEFAULT_MAX_POW` is 16). */
  powBits: number;
  foldingFactor: FoldingFactorSpec;
  soundness: SoundnessAssumption;
  startingLogInvRate: number;
  /** Log inverse rate of the codeword committed after each intermediate round. */
  roundLogInvRates: number[];
}

/** p3-whir's `RoundConfig`: one intermediate (STIR) round. */
export interface WhirRoundSchedule {
  powBits: number;
  foldingPowBits: number;
  numQueries: number;
  oodSamples: number;
  numVariables: number;
  foldingFactor: number;
  logInvRate: number;
  domainSize: number;
  logFoldedDomainSize: number;
}

/** p3-whir's `WhirConfig`, derived once per (numVariables, parameters). */
export interface WhirSchedule {
  numVariables: number;
  maxLogDomainSize: number;
  /** The evaluation domain's identity bytes, as bound into the transcript. */
  domainId: number[];
  stratifiedQueries: boolean;
  params: WhirParameters;
  rounds: WhirRoundSchedule[];
  /** Folding factors before the final direct-send phase (the last may be clamped). */
  foldingSchedule: number[];
  commitmentOodSamples: number;
  startingFoldingPowBits: number;
  terminal: { numQueries: number; powBits: number };
  finalSumcheckRounds: number;
  finalFoldingPowBits: number;
}
