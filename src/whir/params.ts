/**
 * `deriveWhirSchedule`: p3-whir 0.9.0-rc.2's `WhirConfig::new(numVariables, params)` for
 * F = BabyBear, EF = BabyBear^4 and the two-adic DFT domain (the PCS prover's path), step for
 * step and error for error. test/vectors/whir-schedules.json holds the crate's own output.
 *
 * Every p3-whir error becomes ProverError('INVALID_ARGUMENT') whose message starts with the
 * crate's Debug rendering of it (e.g. `PowBitsExceedBudget { required: 21, budget: 16 }`), then
 * says what to change.
 * @module
 */
import { ProverError } from '../errors.js';
import { BB_TWO_ADICITY } from '../params/babybear.js';
import { ownEntry, requireDenseArray, requireInt, requireOptions, show } from '../validate.js';
import type { FoldingFactorSpec, SoundnessAssumption, WhirParameters, WhirRoundSchedule, WhirSchedule } from './schedule.js';
import {
  asUsize,
  determineOodSamples,
  foldingPowBits,
  initialClaimsError,
  queries,
  queriesCombinationError,
  queriesError,
} from './security.js';

/** Bit length of |BabyBear| = p < 2^31 (`F::bits()`). */
export const WHIR_F_BITS = 31;
/** Bit length of |BabyBear^4| = p^4 ~ 2^123.6 (`EF::bits()`); errors are priced at one bit less. */
export const WHIR_EF_BITS = 124;
/** At or below this many variables the prover sends the polynomial (`MAX_NUM_VARIABLES_TO_SEND_COEFFS`). */
export const WHIR_DIRECT_SEND_VARIABLES = 6;
/** `usize::BITS` of the 64-bit hosts the Rust verifier runs on (the initial domain must fit a usize). */
const USIZE_BITS = 64;

/** Caller-facing bounds (p3-whir takes any usize; these only keep inputs sane and exact in f64). */
export const MAX_VARIABLES = 64;
export const MAX_RATE = 64;
export const MAX_BITS = 1 << 20;
export const SOUNDNESS: readonly SoundnessAssumption[] = ['UniqueDecoding', 'JohnsonBound', 'CapacityBound'];

function configError(debug: string, what: string): ProverError {
  return new ProverError('INVALID_ARGUMENT', `${debug}: ${what}`);
}

/** Rust's `{:?}` of an f64 (shortest round-trip digits; integers keep a ".0"). */
function rustF64(x: number): string {
  if (x === Infinity) return 'inf';
  return Number.isInteger(x) && Math.abs(x) < 1e16 ? x.toFixed(1) : String(x);
}

/**
 * `FoldingFactor::compute_folding_schedule`: the folds before direct send. Constant schedules clamp
 * their last fold to the variables left (Constant(8) on 15 variables gives [8, 7]); PerRound
 * schedules are used exactly and stop at the first prefix that reaches the direct-send threshold.
 */
export function foldingSchedule(spec: FoldingFactorSpec, numVariables: number): number[] {
  const err = (inner: string, what: string) => configError(`FoldingFactor(${inner})`, what);
  const tooLarge = (f: number, n: number) =>
    err(
      `TooLarge(${f}, ${n})`,
      `folding factor ${f} exceeds the ${n} variables left; use a smaller folding factor (or send a polynomial this small directly)`,
    );
  const zero = err('ZeroFactor', 'a folding factor is 0; every fold must fold at least one variable');
  const schedule: number[] = [];
  let remaining = numVariables;
  switch (spec.kind) {
    case 'Constant':
      if (spec.factor === 0) throw zero;
      if (spec.factor > numVariables) throw tooLarge(spec.factor, numVariables);
      do {
        const f = Math.min(spec.factor, remaining);
        schedule.push(f);
        remaining -= f;
      } while (remaining > WHIR_DIRECT_SEND_VARIABLES);
      return schedule;
    case 'ConstantFromSecondRound':
      if (spec.first === 0 || spec.rest === 0) throw zero;
      if (spec.first > numVariables) throw tooLarge(spec.first, numVariables);
      schedule.push(spec.first);
      remaining -= spec.first;
      while (remaining > WHIR_DIRECT_SEND_VARIABLES) {
        const f = Math.min(spec.rest, remaining);
        schedule.push(f);
        remaining -= f;
      }
      return schedule;
    case 'PerRound':
      if (spec.factors.length === 0) throw err('EmptySchedule', 'the per-round folding factors are empty; give at least one fold');
      for (const f of spec.factors) {
        if (f === 0) throw zero;
        if (f > numVariables) throw tooLarge(f, numVariables);
      }
      for (const f of spec.factors) {
        if (f > remaining) throw tooLarge(f, remaining);
        schedule.push(f);
        remaining -= f;
        if (remaining <= WHIR_DIRECT_SEND_VARIABLES) return schedule;
      }
      throw err(
        `InsufficientFolding { num_variables: ${numVariables}, remaining: ${remaining}, threshold: ${WHIR_DIRECT_SEND_VARIABLES} }`,
        `the per-round folding factors leave ${remaining} of ${numVariables} variables, above the direct-send threshold ${WHIR_DIRECT_SEND_VARIABLES}; fold more variables`,
      );
  }
}

/**
 * p3-whir's default round rates (used when `roundLogInvRates` is empty): each intermediate round
 * adds fold_i - 1 to the previous rate, so the domain halves once per round.
 */
export function defaultRoundLogInvRates(schedule: readonly number[], startingLogInvRate: number): number[] {
  const rates: number[] = [];
  let rate = startingLogInvRate;
  for (const f of schedule.slice(0, schedule.length - 1)) rates.push((rate += f - 1));
  return rates;
}

/**
 * `WhirConfig::new(numVariables, params)` (max domain 2^27, empty domain id, unstratified
 * queries). With `numOpeningClaims`, also `validate_initial_claims(openings + commitment OOD)`,
 * the check `new_with_initial_claims` and the PCS's `open` make (one opening plus OOD at sec 100
 * fails it for most sizes: InitialClaimsBelowTarget).
 * @throws ProverError INVALID_ARGUMENT for malformed inputs and for every error p3-whir returns.
 */
export function deriveWhirSchedule(numVariables: number, params: WhirParameters, numOpeningClaims?: number): WhirSchedule {
  const n = requireInt('numVariables', numVariables, 0, MAX_VARIABLES);
  const p = checkParameters(params);
  if (numOpeningClaims !== undefined) requireInt('numOpeningClaims', numOpeningClaims, 0, 2 ** 32);
  const s = p.soundness;
  const sec = p.securityLevel;

  if (p.startingLogInvRate === 0) {
    throw configError(
      'NonRedundantStartingRate { log_inv_rate: 0 }',
      'startingLogInvRate must be >= 1 (rate <= 1/2); rate 1 adds no redundancy and the proximity test would make no queries',
    );
  }
  const schedule = foldingSchedule(p.foldingFactor, n);
  const protocolSecurity = Math.max(0, sec - p.powBits);
  const fieldBits = WHIR_EF_BITS - 1 - (s === 'JohnsonBound' ? 1 : 0);

  let logInvRate = p.startingLogInvRate;
  const logDomain = n + logInvRate;
  if (logDomain >= USIZE_BITS) {
    throw configError(
      `InitialDomainExceedsUsize { num_variables: ${n}, starting_log_inv_rate: ${logInvRate}, usize_bits: ${USIZE_BITS} }`,
      `the initial domain 2^${logDomain} does not fit a 64-bit size; lower numVariables or startingLogInvRate`,
    );
  }
  const maxLogDomainSize = BB_TWO_ADICITY;
  if (logDomain - schedule[0] > maxLogDomainSize) {
    throw configError(
      `FoldedDomainExceedsCapacity { log_folded_domain_size: ${logDomain - schedule[0]}, max_log_domain_size: ${maxLogDomainSize} }`,
      `after the first fold the domain is 2^${logDomain - schedule[0]}, above BabyBear's 2^${maxLogDomainSize}; increase the first folding factor or lower startingLogInvRate`,
    );
  }

  const numRounds = schedule.length - 1;
  const folded = schedule.reduce((a, b) => a + b, 0);
  const finalSumcheckRounds = n - folded;
  let rates: number[];
  if (p.roundLogInvRates.length === 0) rates = defaultRoundLogInvRates(schedule, p.startingLogInvRate);
  else if (p.roundLogInvRates.length !== numRounds) {
    throw configError(
      `RoundRateCountMismatch { expected: ${numRounds}, actual: ${p.roundLogInvRates.length} }`,
      `roundLogInvRates needs one rate per intermediate round (${numRounds} for folding schedule [${schedule.join(', ')}]), or leave it empty for the default`,
    );
  } else rates = [...p.roundLogInvRates];
  const zeroAt = rates.indexOf(0);
  if (zeroAt >= 0) {
    throw configError(
      `NonRedundantRoundRate { round: ${zeroAt}, log_inv_rate: 0 }`,
      `roundLogInvRates[${zeroAt}] must be >= 1 (rate <= 1/2)`,
    );
  }
  if (p.foldingFactor.kind === 'PerRound' && p.foldingFactor.factors.length !== numRounds + 1) {
    throw configError(
      `FoldingFactorCountMismatch { expected: ${numRounds + 1}, actual: ${p.foldingFactor.factors.length} }`,
      `the folds reach the direct-send threshold after ${numRounds + 1} of the ${p.foldingFactor.factors.length} per-round factors; drop the extra ones`,
    );
  }

  const oodOrThrow = (logDegree: number, rate: number): number => {
    const k = determineOodSamples(s, sec, logDegree, rate, fieldBits);
    if (k === undefined) {
      throw configError(
        `OodSamplesInfeasible { security_level: ${sec}, field_size_bits: ${fieldBits} }`,
        `no out-of-domain sample count reaches ${sec} bits over a ${fieldBits}-bit field; lower securityLevel`,
      );
    }
    return k;
  };
  const commitmentOodSamples = oodOrThrow(n, logInvRate);
  const startingFoldingPow = foldingPowBits(s, sec, fieldBits, n, logInvRate);

  const rounds: WhirRoundSchedule[] = [];
  let vars = n - schedule[0];
  let logDomainSize = logDomain;
  for (let round = 0; round < rates.length; round++) {
    const nextRate = rates[round];
    const foldingFactor = schedule[round];
    if (nextRate > logInvRate + foldingFactor) {
      throw configError(
        `RateGrowsDomain { round: ${round} }`,
        `roundLogInvRates[${round}] = ${nextRate} would grow the domain; it can be at most ${logInvRate + foldingFactor}`,
      );
    }
    // Queries test the codeword before this round's fold (old rate); OOD and folding use the new one.
    const numQueries = queries(s, protocolSecurity, logInvRate);
    const oodSamples = oodOrThrow(vars, nextRate);
    const queryError = queriesError(s, logInvRate, numQueries);
    const combinationError = queriesCombinationError(s, fieldBits, vars, nextRate, oodSamples, numQueries);
    const powBits = Math.max(0, sec - Math.min(queryError, combinationError));
    rounds.push({
      powBits: asUsize(Math.ceil(powBits)),
      foldingPowBits: asUsize(Math.ceil(foldingPowBits(s, sec, fieldBits, vars, nextRate))),
      numQueries,
      oodSamples,
      numVariables: vars,
      foldingFactor,
      logInvRate: nextRate,
      domainSize: 2 ** logDomainSize,
      logFoldedDomainSize: logDomainSize - foldingFactor,
    });
    vars -= schedule[round + 1];
    logDomainSize -= logInvRate + foldingFactor - nextRate;
    logInvRate = nextRate;
  }

  const finalQueries = queries(s, protocolSecurity, logInvRate);
  const terminal = {
    numQueries: finalQueries,
    powBits: asUsize(Math.ceil(Math.max(0, sec - queriesError(s, logInvRate, finalQueries)))),
  };
  const finalFoldingPowBits = asUsize(Math.ceil(Math.max(0, sec - (fieldBits - 1))));
  const startingFoldingPowBits = asUsize(Math.ceil(startingFoldingPow));

  if (terminal.numQueries === 0 && rounds.every((r) => r.numQueries === 0)) {
    throw configError(
      'ZeroQueries',
      `powBits ${p.powBits} covers the whole ${sec}-bit target, so no query would be made; lower powBits below securityLevel`,
    );
  }
  const required = Math.max(
    startingFoldingPowBits,
    terminal.powBits,
    finalFoldingPowBits,
    ...rounds.map((r) => Math.max(r.powBits, r.foldingPowBits)),
  );
  if (required > p.powBits) {
    throw configError(
      `PowBitsExceedBudget { required: ${required}, budget: ${p.powBits} }`,
      `reaching ${sec} bits needs ${required} bits of proof-of-work, above powBits ${p.powBits}; raise powBits, lower securityLevel, or raise the rate`,
    );
  }
  const fieldBitsF = Math.min(WHIR_F_BITS, USIZE_BITS);
  if (required >= fieldBitsF) {
    throw configError(
      `PowBitsExceedField { bits: ${required}, field_bits: ${fieldBitsF} }`,
      `a ${required}-bit proof-of-work cannot be sampled from a ${fieldBitsF}-bit field; lower securityLevel`,
    );
  }

  const result: WhirSchedule = {
    numVariables: n,
    maxLogDomainSize,
    domainId: [],
    stratifiedQueries: false,
    params: p,
    rounds,
    foldingSchedule: schedule,
    commitmentOodSamples,
    startingFoldingPowBits,
    terminal,
    finalSumcheckRounds,
    finalFoldingPowBits,
  };
  if (numOpeningClaims !== undefined) validateInitialClaims(result, numOpeningClaims + commitmentOodSamples);
  return result;
}

/** Bits the initial batching of `numClaims` claims (openings plus commitment OOD) retains. */
export function initialClaimsBits(schedule: WhirSchedule, numClaims: number): number {
  const p = schedule.params;
  return initialClaimsError(p.soundness, WHIR_EF_BITS - 1, schedule.numVariables, p.startingLogInvRate, numClaims);
}

/** p3-whir's `validate_initial_claims`: the PCS refuses to open when batching drops below the target. */
export function validateInitialClaims(schedule: WhirSchedule, numClaims: number): void {
  const bits = initialClaimsBits(schedule, numClaims);
  const sec = schedule.params.securityLevel;
  if (bits < sec) {
    throw configError(
      `InitialClaimsBelowTarget { num_claims: ${numClaims}, bits: ${rustF64(bits)}, security_level: ${sec} }`,
      `batching ${numClaims} initial claims keeps ${bits.toFixed(1)} bits, below the ${sec}-bit target; lower securityLevel (try 90), numVariables or startingLogInvRate`,
    );
  }
}

/** The caller's WhirParameters, type- and range-checked, as a fresh record. */
function checkParameters(params: unknown): WhirParameters {
  const known = ['securityLevel', 'powBits', 'foldingFactor', 'soundness', 'startingLogInvRate', 'roundLogInvRates'] as const;
  const o = requireOptions<WhirParameters>('params', params, false, known);
  const soundness = o.soundness as SoundnessAssumption;
  if (!SOUNDNESS.includes(soundness)) {
    throw new ProverError('INVALID_ARGUMENT', `params.soundness must be one of ${SOUNDNESS.join(', ')}, got ${show(o.soundness)}`);
  }
  const rates = requireDenseArray('params.roundLogInvRates', o.roundLogInvRates, 'an array of log inverse rates (empty for the default)');
  return {
    securityLevel: requireInt('params.securityLevel', o.securityLevel, 0, MAX_BITS, 'bits of security'),
    powBits: requireInt('params.powBits', o.powBits, 0, MAX_BITS, 'the proof-of-work budget in bits'),
    foldingFactor: checkFoldingFactor(o.foldingFactor),
    soundness,
    startingLogInvRate: requireInt('params.startingLogInvRate', o.startingLogInvRate, 0, MAX_RATE, 'log2 of the inverse code rate'),
    roundLogInvRates: rates.map((r, i) => requireInt(`params.roundLogInvRates[${i}]`, r, 0, MAX_RATE)),
  };
}

function checkFoldingFactor(v: unknown): FoldingFactorSpec {
  const o = requireOptions<Record<string, unknown>>('params.foldingFactor', v, false);
  const fold = (name: string, x: unknown) => requireInt(`params.foldingFactor.${name}`, x, 0, MAX_VARIABLES, 'variables folded per round');
  const shape = (keys: readonly string[]) => requireOptions('params.foldingFactor', v, false, ['kind', ...keys]);
  switch (ownEntry(o, 'kind')) {
    case 'Constant':
      shape(['factor']);
      return { kind: 'Constant', factor: fold('factor', o.factor) };
    case 'ConstantFromSecondRound':
      shape(['first', 'rest']);
      return { kind: 'ConstantFromSecondRound', first: fold('first', o.first), rest: fold('rest', o.rest) };
    case 'PerRound': {
      shape(['factors']);
      const fs = requireDenseArray('params.foldingFactor.factors', o.factors, 'an array of folding factors');
      return { kind: 'PerRound', factors: fs.map((f, i) => fold(`factors[${i}]`, f)) };
    }
    default:
      throw new ProverError(
        'INVALID_ARGUMENT',
        `params.foldingFactor.kind must be Constant, ConstantFromSecondRound or PerRound, got ${show(o.kind)}`,
      );
  }
}
