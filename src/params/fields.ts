/**
 * The 31-bit fields by name: what a `field` option or a pipeline request names resolves here.
 * @module
 */
import { BABY_BEAR } from './babybear.js';
import { KOALA_BEAR } from './koalabear.js';
import type { FieldName, Monty31Params } from './monty31.js';

export type { FieldName, Monty31Params };

export const MONTY31_FIELDS: Readonly<Record<FieldName, Monty31Params>> = Object.freeze({ babybear: BABY_BEAR, koalabear: KOALA_BEAR });

export const FIELD_NAMES = Object.keys(MONTY31_FIELDS) as readonly FieldName[];

export function isFieldName(x: unknown): x is FieldName {
  return typeof x === 'string' && Object.hasOwn(MONTY31_FIELDS, x);
}
