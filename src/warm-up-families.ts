/**
 * The kernel families `prover.warmUp(families)` and `createProver({ warmUp })` name, and their
 * check: plain data, so createProver's options check in a page imports no kernel code
 * (src/kernels/warm-up.ts holds what each family compiles).
 * @module
 */
import { ProverError } from './errors.js';
import { show } from './validate.js';

/** Families with pipelines of their own; `commit` is `ntt` and `merkle` together. */
export const WARM_UP_FAMILIES = ['ntt', 'merkle', 'poseidon2', 'grind', 'msm'] as const;
export type WarmUpFamily = (typeof WARM_UP_FAMILIES)[number] | 'commit';

/** `families` checked: an array of family names; undefined means all of them. */
export function requireWarmUpFamilies(families: unknown, name = 'warmUp families'): readonly WarmUpFamily[] {
  if (families === undefined) return WARM_UP_FAMILIES;
  const known: readonly string[] = [...WARM_UP_FAMILIES, 'commit'];
  if (!Array.isArray(families) || families.some((f) => typeof f !== 'string' || !known.includes(f))) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `${name} must be an array of ${known.map((f) => `'${f}'`).join(', ')}, got ${show(families)}`,
    );
  }
  return families as WarmUpFamily[];
}
