/**
 * Whether a value is an NttMatrix, by shape, in a file of its own: the Merkle family, the CPU path
 * and the checks ask without loading the NTT's code (src/api/ntt.ts is imported for its type only).
 * @module
 */
import { ProverError } from '../errors.js';
import { MONTY31_FIELDS, type FieldName } from '../params/fields.js';
import type { NttMatrix } from './ntt.js';

/**
 * An NttMatrix handle of either path (by shape: the worker's and the caller's realms differ).
 */
export function isNttMatrix(v: unknown): v is NttMatrix {
  const m = v as NttMatrix;
  return (
    typeof v === 'object' &&
    v !== null &&
    !ArrayBuffer.isView(v) &&
    typeof m.read === 'function' &&
    typeof m.destroy === 'function' &&
    typeof m.height === 'number'
  );
}

/** Throws INVALID_ARGUMENT unless `m` holds BabyBear values (a Merkle commitment hashes BabyBear rows). */
export function requireBabyBearMatrix(m: { field?: FieldName }): void {
  const field = m.field ?? 'babybear';
  if (field !== 'babybear') {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `this NttMatrix holds ${MONTY31_FIELDS[field].label} values; Merkle commitments hash BabyBear rows, so pass a BabyBear matrix`,
    );
  }
}
