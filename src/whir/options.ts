/**
 * `prover.whir(options)`'s options, checked: the WhirOptions record (numVariables and the
 * p3-whir WhirParameters fields, with their defaults), type- and range-checked into the
 * parameters `deriveWhirSchedule` (./params.ts) takes.
 * @module
 */
import { ProverError } from '../errors.js';
import { requireDenseArray, requireInt, requireOptions, show } from '../validate.js';
import { deriveWhirSchedule, foldingSchedule, MAX_BITS, MAX_RATE, MAX_VARIABLES, SOUNDNESS, validateInitialClaims } from './params.js';
import type { FoldingFactorSpec, SoundnessAssumption, WhirParameters, WhirSchedule } from './schedule.js';

/** The public WHIR options (the names). */
export interface WhirOptions {
  numVariables: number;
  /** A number folds that many variables every round (Constant); an array gives each fold (PerRound). */
  foldingFactor: number | readonly number[];
  startingLogInvRate: number;
  /** Default 90: at 100 the PCS refuses most sizes (InitialClaimsBelowTarget at n + rate >= 20 or so). */
  securityLevel?: number;
  /** Proof-of-work budget in bits, default 16 (p3-whir's DEFAULT_MAX_POW). */
  powBits?: number;
  soundness?: SoundnessAssumption;
  /** One rate per intermediate round; leave out for p3-whir's default (or rsInitialReduction). */
  roundLogInvRates?: readonly number[];
  /**
   * r0: round 0's codeword shrinks its domain by 2^r0 instead of 2 (rate = startingLogInvRate +
   * fold_0 - r0), later rounds by 2 (rate += fold_i - 1). whir-p3-metal uses r0 = min(fold, 3);
   * r0 = 1 is p3-whir's default schedule.
   */
  rsInitialReduction?: number;
}

const OPTION_NAMES = [
  'numVariables',
  'foldingFactor',
  'startingLogInvRate',
  'securityLevel',
  'powBits',
  'soundness',
  'roundLogInvRates',
  'rsInitialReduction',
] as const;

/** Maps the public options to `deriveWhirSchedule`'s arguments (validated; p3-whir's own errors come from deriving). */
export function whirParameters(options: WhirOptions): { numVariables: number; params: WhirParameters } {
  const o = requireOptions<WhirOptions>('options', options, false, OPTION_NAMES);
  const numVariables = requireInt('numVariables', o.numVariables, 0, MAX_VARIABLES, 'log2 of the number of evaluations');
  const fold = (name: string, x: unknown) => requireInt(name, x, 0, MAX_VARIABLES, 'variables folded per round');
  const foldingFactor: FoldingFactorSpec =
    typeof o.foldingFactor === 'number'
      ? { kind: 'Constant', factor: fold('foldingFactor', o.foldingFactor) }
      : {
          kind: 'PerRound',
          factors: requireDenseArray('foldingFactor', o.foldingFactor, 'a number or an array of numbers').map((f, i) =>
            fold(`foldingFactor[${i}]`, f),
          ),
        };
  const startingLogInvRate = requireInt('startingLogInvRate', o.startingLogInvRate, 0, MAX_RATE, 'log2 of the inverse code rate');
  const soundness = o.soundness ?? 'CapacityBound';
  if (!SOUNDNESS.includes(soundness)) {
    throw new ProverError('INVALID_ARGUMENT', `soundness must be one of ${SOUNDNESS.join(', ')}, got ${show(soundness)}`);
  }
  let roundLogInvRates: number[] = [];
  if (o.roundLogInvRates !== undefined) {
    if (o.rsInitialReduction !== undefined) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        'pass roundLogInvRates or rsInitialReduction, not both (rsInitialReduction derives the rates)',
      );
    }
    roundLogInvRates = requireDenseArray('roundLogInvRates', o.roundLogInvRates, 'an array of log inverse rates').map((r, i) =>
      requireInt(`roundLogInvRates[${i}]`, r, 0, MAX_RATE),
    );
  } else if (o.rsInitialReduction !== undefined) {
    const schedule = foldingSchedule(foldingFactor, numVariables);
    const r0 = requireInt(
      'rsInitialReduction',
      o.rsInitialReduction,
      0,
      startingLogInvRate + schedule[0] - 1,
      `log2 of round 0's domain reduction; at most startingLogInvRate + fold0 - 1 = ${startingLogInvRate + schedule[0] - 1} keeps round 0's rate >= 1`,
    );
    let rate = startingLogInvRate + 1 - r0;
    for (const f of schedule.slice(0, -1)) roundLogInvRates.push((rate += f - 1));
  }
  return {
    numVariables,
    params: {
      securityLevel: requireInt('securityLevel', o.securityLevel ?? 90, 0, MAX_BITS, 'bits of security'),
      powBits: requireInt('powBits', o.powBits ?? 16, 0, MAX_BITS, 'the proof-of-work budget in bits'),
      foldingFactor,
      soundness,
      startingLogInvRate,
      roundLogInvRates,
    },
  };
}

/** The schedule for `options`, checked as p3-whir checks it when opening (one opening claim plus the OOD claims). */
export function whirSchedule(options: WhirOptions): WhirSchedule {
  const { numVariables, params } = whirParameters(options);
  const schedule = deriveWhirSchedule(numVariables, params);
  validateInitialClaims(schedule, 1 + schedule.commitmentOodSamples);
  return schedule;
}
