/**
 * Input checks shared by the public API. Each throws a ProverError whose message names the
 * argument, the offending index or value, and what was expected.
 * @module
 */
import { ProverError } from './errors.js';
import { BB_P } from './params/babybear.js';

export function requireUint32Array(name: string, v: unknown): Uint32Array {
  if (!(v instanceof Uint32Array)) {
    throw new ProverError('INVALID_ARGUMENT', `${name} must be a Uint32Array of canonical BabyBear values, got ${Object.prototype.toString.call(v)}`);
  }
  return v;
}

/** Every value in [0, p). Values are canonical integers, never Montgomery form. */
export function requireCanonical(name: string, v: Uint32Array): void {
  for (let i = 0; i < v.length; i++) {
    if (v[i] >= BB_P) {
      throw new ProverError('NON_CANONICAL', `${name}[${i}] = ${v[i]} is not a canonical BabyBear value (must be < p = ${BB_P}); reduce it mod p first`);
    }
  }
}

export function requireLength(name: string, v: { length: number }, expected: number, why: string): void {
  if (v.length !== expected) {
    throw new ProverError('INVALID_LENGTH', `${name} has ${v.length} elements, expected ${expected} (${why})`);
  }
}

export function requireMultipleOf(name: string, v: { length: number }, k: number, why: string): void {
  if (v.length % k !== 0) {
    throw new ProverError('INVALID_LENGTH', `${name} has ${v.length} elements, not a multiple of ${k} (${why})`);
  }
}
