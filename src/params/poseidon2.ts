/**
 * Poseidon2 per field and width as one record: S-box degree, rounds, the internal diagonal and
 * the default round constants (Plonky3's `default_<field>_poseidon2_<width>()`), plus the shape
 * check of a caller's constant set. The CPU twin (src/ref/poseidon2.ts), the WGSL generator
 * (scripts/gen-poseidon2-wgsl.ts) and the kernels' host code all read these records.
 * @module
 */
import { BABY_BEAR } from './babybear.js';
import { KOALA_BEAR } from './koalabear.js';
import type { FieldName, Monty31Params } from './monty31.js';
import {
  POSEIDON2_DEFAULT_16,
  POSEIDON2_DEFAULT_24,
  POSEIDON2_DIAG_16,
  POSEIDON2_DIAG_24,
  POSEIDON2_ROUNDS_P_16,
  POSEIDON2_ROUNDS_P_24,
  type Poseidon2Constants,
} from './poseidon2-babybear.js';
import {
  KB_POSEIDON2_DEFAULT_16,
  KB_POSEIDON2_DEFAULT_24,
  KB_POSEIDON2_DIAG_16,
  KB_POSEIDON2_DIAG_24,
  KB_POSEIDON2_ROUNDS_P_16,
  KB_POSEIDON2_ROUNDS_P_24,
  KB_POSEIDON2_SBOX_DEGREE,
} from './poseidon2-koalabear.js';

export type Poseidon2Width = 16 | 24;
export type { Poseidon2Constants };

export const POSEIDON2_WIDTHS: readonly Poseidon2Width[] = [16, 24];

export interface Poseidon2Params {
  readonly field: Monty31Params;
  readonly width: Poseidon2Width;
  /** x^sboxDegree (7 for BabyBear, 3 for KoalaBear: the smallest d with gcd(d, p - 1) = 1). */
  readonly sboxDegree: 3 | 7;
  /** Full rounds, half before and half after the partial ones. */
  readonly roundsF: 8;
  readonly roundsP: number;
  /** V of the internal matrix J + diag(V), canonical. */
  readonly diag: readonly number[];
  readonly constants: Poseidon2Constants;
}

const kbSbox = KB_POSEIDON2_SBOX_DEGREE as 3;

const TABLE: Readonly<Record<FieldName, Readonly<Record<Poseidon2Width, Poseidon2Params>>>> = {
  babybear: {
    16: {
      field: BABY_BEAR,
      width: 16,
      sboxDegree: 7,
      roundsF: 8,
      roundsP: POSEIDON2_ROUNDS_P_16,
      diag: POSEIDON2_DIAG_16,
      constants: POSEIDON2_DEFAULT_16,
    },
    24: {
      field: BABY_BEAR,
      width: 24,
      sboxDegree: 7,
      roundsF: 8,
      roundsP: POSEIDON2_ROUNDS_P_24,
      diag: POSEIDON2_DIAG_24,
      constants: POSEIDON2_DEFAULT_24,
    },
  },
  koalabear: {
    16: {
      field: KOALA_BEAR,
      width: 16,
      sboxDegree: kbSbox,
      roundsF: 8,
      roundsP: KB_POSEIDON2_ROUNDS_P_16,
      diag: KB_POSEIDON2_DIAG_16,
      constants: KB_POSEIDON2_DEFAULT_16,
    },
    24: {
      field: KOALA_BEAR,
      width: 24,
      sboxDegree: kbSbox,
      roundsF: 8,
      roundsP: KB_POSEIDON2_ROUNDS_P_24,
      diag: KB_POSEIDON2_DIAG_24,
      constants: KB_POSEIDON2_DEFAULT_24,
    },
  },
};

/** The Poseidon2 of `field` at `width` (BabyBear by default). */
export function poseidon2Params(width: Poseidon2Width, field: Monty31Params = BABY_BEAR): Poseidon2Params {
  return TABLE[field.name][width];
}

export function roundsP(width: Poseidon2Width, field?: Monty31Params): number {
  return poseidon2Params(width, field).roundsP;
}

export function defaultConstants(width: Poseidon2Width, field?: Monty31Params): Poseidon2Constants {
  return poseidon2Params(width, field).constants;
}

export function internalDiagonal(width: Poseidon2Width, field?: Monty31Params): readonly number[] {
  return poseidon2Params(width, field).diag;
}

/**
 * Why a constant set does not fit `width` (4 × width external-initial, R_P internal,
 * 4 × width external-final, every value canonical), or undefined when it does.
 */
export function constantsProblem(
  width: Poseidon2Width,
  c: Poseidon2Constants,
  field: Monty31Params = BABY_BEAR,
): { code: 'INVALID_ARGUMENT' | 'INVALID_LENGTH' | 'NON_CANONICAL'; message: string } | undefined {
  const rp = roundsP(width, field);
  const P = field.p;
  const isList = (x: unknown) => Array.isArray(x) || x instanceof Uint32Array;
  const isRows = (x: unknown) =>
    Array.isArray(x) && x.length === 4 && x.every((r) => isList(r) && (r as ArrayLike<number>).length === width);
  const wrong = (message: string) => ({ code: 'INVALID_LENGTH' as const, message });
  if (!c || typeof c !== 'object')
    return { code: 'INVALID_ARGUMENT', message: 'constants must be { externalInitial, internal, externalFinal }' };
  if (!isRows(c.externalInitial)) return wrong(`externalInitial must be 4 rows of ${width} values`);
  if (!isRows(c.externalFinal)) return wrong(`externalFinal must be 4 rows of ${width} values`);
  if (!isList(c.internal) || c.internal.length !== rp)
    return wrong(`internal must hold ${rp} values (one per partial round at width ${width})`);
  const all: unknown[] = [];
  for (const list of [...c.externalInitial, c.internal, ...c.externalFinal]) for (let i = 0; i < list.length; i++) all.push(list[i]);
  const bad = all.findIndex((v) => typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= P);
  if (bad >= 0) {
    const v = all[bad];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0
      ? {
          code: 'NON_CANONICAL',
          message: `constant #${bad} = ${v} is not a canonical ${field.label} value (must be < ${P}); reduce it mod p`,
        }
      : { code: 'INVALID_ARGUMENT', message: `constant #${bad} is not a non-negative integer; pass canonical ${field.label} values` };
  }
  return undefined;
}
