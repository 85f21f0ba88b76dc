/**
 * The soundness formulas `p3-security 0.9.0-rc.2` prices a WHIR schedule with (`assumption.rs`,
 * `proximity.rs`, `whir/mod.rs`), as functions of the `SoundnessAssumption`.
 *
 * Every result feeds a `ceil` (query counts, PoW bits), so a difference of one ulp can move a
 * count by one and change the transcript. Each expression therefore performs the same f64
 * operations in the same order as the Rust code; `Math.log2` / `Math.pow` and the crate's `libm`
 * both port FreeBSD's msun routines, and test/vectors/whir-schedules.json checks the agreement.
 * @module
 */
import type { SoundnessAssumption } from './schedule.js';

/** `core::f64::consts::LOG2_10` (not `Math.log2(10)`, which may round differently). */
const LOG2_10 = 3.321928094887362347870319429489390175864831393;

/** log2(1 / eta): eta is sqrt(rho)/20 under Johnson, rho/20 under capacity; none for unique decoding. */
function logEtaOrZero(s: SoundnessAssumption, logInvRate: number): number {
  switch (s) {
    case 'UniqueDecoding':
      return 0;
    case 'JohnsonBound':
      return -(0.5 * logInvRate + LOG2_10 + 1);
    case 'CapacityBound':
      return -(logInvRate + LOG2_10 + 1);
  }
}

/** log2 of the list size at proximity eta (1 in unique decoding). */
export function listSizeBits(s: SoundnessAssumption, logDegree: number, logInvRate: number): number {
  const logEta = logEtaOrZero(s, logInvRate);
  switch (s) {
    case 'UniqueDecoding':
      return 0;
    case 'JohnsonBound':
      return logInvRate / 2 - (1 + logEta);
    case 'CapacityBound':
      return logDegree + logInvRate - logEta;
  }
}

/** DKT26 Theorem 5.12: log2 of the Johnson-regime exceptional line count for parameter m. */
function johnsonLineCountLog2(logDegree: number, logInvRate: number, m: number): number {
  if (m < 3 || logInvRate === 0) return Infinity;
  if (logDegree === 0) {
    const logNMinusOne = logInvRate + Math.log2(1 - Math.pow(2, -logInvRate));
    return logInvRate + logNMinusOne - 1;
  }
  const logN = logDegree + logInvRate;
  const logRhoMinus = Math.log2(1 - Math.pow(2, -logDegree)) - logInvRate;
  return 3 + logN + 3 * Math.log2(m + 0.5) - Math.log2(3) - logRhoMinus;
}

/** Bits of security of the proximity gap for `numFunctions` (>= 2) functions. */
export function proxGapsError(
  s: SoundnessAssumption,
  logDegree: number,
  logInvRate: number,
  fieldBits: number,
  numFunctions: number,
): number {
  const logEta = logEtaOrZero(s, logInvRate);
  switch (s) {
    case 'UniqueDecoding':
      return fieldBits - (logDegree + logInvRate + Math.log2(numFunctions - 1));
    case 'JohnsonBound': {
      // m = max(ceil(sqrt(rho) / (2 eta)), 3); the exponent is LOG2_10 give or take an ulp, so pow
      // lands near 10 and the ceil depends on that ulp: keep the Rust expression as is.
      const logSqrtRhoOver2Eta = -logInvRate / 2 - 1 - logEta;
      const m = Math.max(Math.ceil(Math.pow(2, logSqrtRhoOver2Eta)), 3);
      return fieldBits - (johnsonLineCountLog2(logDegree, logInvRate, m) + Math.log2(numFunctions - 1));
    }
    case 'CapacityBound':
      return fieldBits - (logDegree + 2 * logInvRate - logEta + Math.log2(numFunctions - 1));
  }
}

/** log2(1 - delta) for the regime's proximity parameter delta (negative for a redundant rate). */
function log1Delta(s: SoundnessAssumption, logInvRate: number): number {
  const log21Over20 = Math.log2(21 / 20);
  switch (s) {
    case 'UniqueDecoding':
      return Math.log2(1 + Math.pow(2, -logInvRate)) - 1;
    case 'JohnsonBound':
      return log21Over20 - 0.5 * logInvRate;
    case 'CapacityBound':
      return log21Over20 - logInvRate;
  }
}

/** Rust's `f64 as usize`: saturating, NaN to 0 (every value reaching it here is far below 2^53). */
export function asUsize(x: number): number {
  return Number.isNaN(x) || x <= 0 ? 0 : Math.min(x, Number.MAX_SAFE_INTEGER);
}

/** Queries for `protocolSecurityLevel` bits at this rate: ceil(-lambda / log2(1 - delta)). */
export function queries(s: SoundnessAssumption, protocolSecurityLevel: number, logInvRate: number): number {
  return asUsize(Math.ceil(-protocolSecurityLevel / log1Delta(s, logInvRate)));
}

/** Bits of security that `numQueries` queries buy at this rate. */
export function queriesError(s: SoundnessAssumption, logInvRate: number, numQueries: number): number {
  return -numQueries * log1Delta(s, logInvRate);
}

/** Bits of security of `oodSamples` out-of-domain samples (UniqueDecoding needs none). */
function oodError(s: SoundnessAssumption, logDegree: number, logInvRate: number, fieldBits: number, oodSamples: number): number {
  if (s === 'UniqueDecoding') return 0;
  const error = 2 * listSizeBits(s, logDegree, logInvRate) + logDegree * oodSamples;
  return oodSamples * fieldBits + 1 - error;
}

/** The least OOD sample count in 1..63 reaching `securityLevel`, 0 for unique decoding, undefined if none does. */
export function determineOodSamples(
  s: SoundnessAssumption,
  securityLevel: number,
  logDegree: number,
  logInvRate: number,
  fieldBits: number,
): number | undefined {
  if (s === 'UniqueDecoding') return 0;
  for (let k = 1; k < 64; k++) if (oodError(s, logDegree, logInvRate, fieldBits, k) >= securityLevel) return k;
  return undefined;
}

/** Bits of security of the random combination of OOD and query claims in one round. */
export function queriesCombinationError(
  s: SoundnessAssumption,
  fieldBits: number,
  numVariables: number,
  logInvRate: number,
  oodSamples: number,
  numQueries: number,
): number {
  const listSize = listSizeBits(s, numVariables, logInvRate);
  const logCombination = Math.log2(oodSamples + numQueries);
  return fieldBits - (logCombination + listSize + 1);
}

/** The (fractional) PoW bits a folding sumcheck needs: the target minus its weaker error term. */
export function foldingPowBits(
  s: SoundnessAssumption,
  securityLevel: number,
  fieldBits: number,
  numVariables: number,
  logInvRate: number,
): number {
  const proxGaps = proxGapsError(s, numVariables, logInvRate, fieldBits, 2);
  const sumcheck = fieldBits - (listSizeBits(s, numVariables, logInvRate) + 1);
  return Math.max(0, securityLevel - Math.min(proxGaps, sumcheck));
}

/** Bits retained by batching `numClaims` initial claims with one challenge (Infinity for <= 1). */
export function initialClaimsError(
  s: SoundnessAssumption,
  fieldBits: number,
  numVariables: number,
  logInvRate: number,
  numClaims: number,
): number {
  if (numClaims <= 1) return Infinity;
  return fieldBits - Math.log2(numClaims - 1) - listSizeBits(s, numVariables, logInvRate);
}
