/**
 * The options of a WHIR opening beyond the job's (signal, progress, check): a caller-given point
 * (p3-whir's `PrescribedPointPcs::open_at` / `verify_at`) and the debug transcript trace. Both are
 * plain data, so they cross the worker boundary by structured clone.
 * @module
 */
import { ProverError } from '../errors.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { isTypedArray, nonCanonicalError, optionalBoolean, requireDenseArray, requireLength, show } from '../validate.js';
import { BB_P } from '../params/babybear.js';
import type { Ext4 } from './ext.js';

/** One extension element as a caller writes it: 4 canonical coefficients [c0, c1, c2, c3] (x^4 = 11). */
export type Ext4Like = readonly number[] | Uint32Array;

export interface WhirOpenOptions extends JobOptions {
  /**
   * Open at this point instead of one drawn from the transcript: n extension elements, x_0 (the
   * most significant bit of the hypercube index) first, the order `opening.point` has. The
   * transcript is then p3-whir's `open_at`: the point is not absorbed, so a protocol that takes it
   * from its own transcript must have bound it there.
   */
  point?: readonly Ext4Like[];
  /**
   * Also return `opening.trace`: every challenger permutation of the commit and this open, one JSONL
   * line `{"i":k,"in":[16],"out":[16]}` each (canonical), the oracle's `prove --trace` format.
   * A debugging aid for diffing against p3-whir; the proof is the same either way.
   */
  trace?: boolean;
}

/** The parsed options: the job's, the point (copied, canonical) or undefined, and the trace flag. */
export function requireOpenOptions(
  name: string,
  given: unknown,
  numVariables: number,
): { job: JobOptions; point?: Ext4[]; trace: boolean } {
  const job = requireJobOptions(name, given);
  if (given === undefined) return { job, trace: false };
  const { point, trace } = given as WhirOpenOptions;
  return {
    job,
    ...(point === undefined ? {} : { point: requireExtPoint(`${name}.point`, point, numVariables) }),
    trace: optionalBoolean(`${name}.trace`, trace) ?? false,
  };
}

/**
 * A point of `n` extension elements, each an array (or Uint32Array) of 4 canonical coefficients.
 * @throws ProverError INVALID_ARGUMENT (not an array, a coefficient not an integer), INVALID_LENGTH (not n elements, an element not 4 coefficients), NON_CANONICAL (a coefficient >= p)
 */
export function requireExtPoint(name: string, v: unknown, n: number): Ext4[] {
  const what = `an array of ${n} extension elements [c0, c1, c2, c3]`;
  const list = requireDenseArray(name, v, what);
  requireLength(name, list, n, `one extension element per variable; this configuration has ${n} variables`);
  return list.map((e, i) => {
    const at = `${name}[${i}]`;
    const coeffs = isTypedArray(e, 'Uint32Array')
      ? Array.from(e)
      : requireDenseArray(at, e, 'an array of 4 canonical BabyBear coefficients [c0, c1, c2, c3]');
    requireLength(at, coeffs, 4, 'an extension element has 4 coefficients [c0, c1, c2, c3]');
    return coeffs.map((c, j) => {
      if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c > 0xffffffff) {
        throw new ProverError('INVALID_ARGUMENT', `${at}[${j}] must be an integer in 0..p-1 (a canonical BabyBear value), got ${show(c)}`);
      }
      if (c >= BB_P) throw nonCanonicalError(at, j, c);
      return c;
    }) as Ext4;
  });
}
