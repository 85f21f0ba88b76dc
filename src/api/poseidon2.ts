/**
 * Public facet: batched Poseidon2 permutations (prover.poseidon2), Plonky3's BabyBear (or, with
 * `field: 'koalabear'`, KoalaBear) Poseidon2 at width 16 or 24 with the default constants or any
 * set of the same shape.
 * @module
 */
import { ProverError } from '../errors.js';
import { runPoseidon2 } from '../kernels/poseidon2.js';
import { constantsProblem, type Poseidon2Constants, type Poseidon2Width } from '../params/poseidon2.js';
import type { FieldName } from '../params/fields.js';
import { fieldRecord, optionalOut, requireFieldArray, requireFieldName, requireMultipleOf, requireOptions, show } from '../validate.js';
import { maxBindingWords, type ApiEnv } from './env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';

export interface Poseidon2Options extends JobOptions {
  /** 16 or 24. */
  width: Poseidon2Width;
  /**
   * The field: 'babybear' (default; x^7 S-box, 13 / 21 partial rounds) or 'koalabear'
   * (Plonky3's p3-koala-bear: p = 2^31 - 2^24 + 1, x^3 S-box, 20 / 23 partial rounds).
   * States and constants must be canonical in that field.
   */
  field?: FieldName;
  /**
   * Round constants (canonical values): 4 rows of `width` external-initial, the field's partial
   * round count of internal (BabyBear 13 / 21, KoalaBear 20 / 23 at width 16 / 24), 4 rows of
   * `width` external-final. Default: Plonky3's default_babybear_poseidon2_16/24
   * (src/params/poseidon2-babybear.ts) or default_koalabear_poseidon2_16/24.
   */
  constants?: Poseidon2Constants;
  /** Write the result into this array (the states' length; it may be `states` itself) and return it. */
  out?: Uint32Array;
}

export interface Poseidon2Methods {
  /**
   * Permute k states at once: `states` holds k·width canonical values, state after state; the
   * result has the same shape. Equals Plonky3's Poseidon2BabyBear<width>::permute (with
   * `field: 'koalabear'`, Poseidon2KoalaBear<width>::permute).
   * @throws ProverError INVALID_ARGUMENT (width, field, constants' type), INVALID_LENGTH (empty, not whole states, constants' shape), NON_CANONICAL (states or constants), TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const out = await prover.poseidon2(new Uint32Array(16), { width: 16 });
   */
  poseidon2(states: Uint32Array, options: Poseidon2Options): Promise<Uint32Array>;
}

/** Validate width and constants (shared with merkle/grind options). */
export function requirePoseidon2Options(options: Poseidon2Options | undefined): {
  width: Poseidon2Width;
  field: FieldName;
  constants?: Poseidon2Constants;
} {
  const o = requireOptions<Poseidon2Options>('poseidon2 options', options, false);
  const width = o.width;
  if (width !== 16 && width !== 24) throw new ProverError('INVALID_ARGUMENT', `poseidon2: width must be 16 or 24, got ${show(width)}`);
  const field = requireFieldName('poseidon2 options.field', o.field);
  const constants = o.constants;
  if (constants !== undefined) {
    const problem = constantsProblem(width, constants, fieldRecord(field));
    if (problem) throw new ProverError(problem.code, `poseidon2 constants for width ${width}: ${problem.message}`);
  }
  return { width, field, constants };
}

/** A poseidon2 call, checked: the states (whole states of `width` canonical values) and the permutation. */
export function requirePoseidon2Job(
  states: unknown,
  options: Poseidon2Options | undefined,
  gpuScans = false,
): { states: Uint32Array; width: Poseidon2Width; field: FieldName; constants?: Poseidon2Constants; out?: Uint32Array } {
  const { width, field, constants } = requirePoseidon2Options(options);
  const s = requireFieldArray('states', states, gpuScans, fieldRecord(field));
  requireMultipleOf('states', s, width, `k states of ${width} values`);
  return { states: s, width, field, constants, out: optionalOut(options?.out, s.length) };
}

export function poseidon2Methods({ ctx, sched, alive }: ApiEnv): Poseidon2Methods {
  return {
    async poseidon2(given, options) {
      alive();
      const { states, width, field, constants, out } = requirePoseidon2Job(given, options, true);
      if (states.length > maxBindingWords(ctx)) {
        throw new ProverError(
          'TOO_LARGE',
          `poseidon2: ${states.length} values exceed this device's ${maxBindingWords(ctx)}-value binding limit; split the batch`,
        );
      }
      return sched.run('poseidon2', requireJobOptions('poseidon2 options', options), () =>
        runPoseidon2(ctx, states, width, constants, out, field),
      );
    },
  };
}
