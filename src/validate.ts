/**
 * The validation layer at the API boundary: every public argument passes through one of these
 * before it reaches a loop, a WGSL constant or the GPU. Each throws a ProverError whose code
 * follows docs/errors.md (wrong type or option out of range: INVALID_ARGUMENT; wrong element
 * count: INVALID_LENGTH; a field element at or past its modulus: NON_CANONICAL) and whose message
 * names the argument, what it got (formatted by `show`, which cannot throw) and what to do.
 * @module
 */
import { ProverError } from './errors.js';
import { BABY_BEAR } from './params/babybear.js';
import { FIELD_NAMES, isFieldName, MONTY31_FIELDS, type FieldName, type Monty31Params } from './params/fields.js';

/**
 * A value as an error message may quote it, for any input: symbols, proxies, objects whose
 * toString throws, huge strings. Building an error message must never throw a second error.
 */
export function show(v: unknown): string {
  try {
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
      case 'number':
      case 'boolean':
      case 'undefined':
        return String(v);
      case 'bigint':
        return `${v}n`;
      case 'symbol':
        return v.description === undefined ? 'a Symbol' : `Symbol(${v.description.slice(0, 40)})`;
      case 'function':
        return 'a function';
    }
    if (v === null) return 'null';
    if (Array.isArray(v)) return `an array of ${v.length}`;
    const tag = Object.prototype.toString.call(v).slice(8, -1);
    return tag === 'Object' ? 'an object' : `a ${tag}`;
  } catch {
    return 'an unreadable value';
  }
}

/** `o[key]` only when `key` is o's own property: caller-given names never reach Object.prototype. */
export function ownEntry<T>(o: Record<string, T>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(o, key) ? o[key] : undefined;
}

/** True for a typed array of this type, of this realm or another (an iframe's, a worker's structured clone). */
export function isTypedArray<K extends 'Uint32Array' | 'Uint8Array'>(
  v: unknown,
  type: K,
): v is K extends 'Uint32Array' ? Uint32Array : Uint8Array {
  return ArrayBuffer.isView(v) && Object.prototype.toString.call(v) === `[object ${type}]`;
}

/**
 * `v`, or a copy where WebGPU or the encoders cannot use it as is: views on resizable or
 * length-tracking buffers (writeBuffer refuses them) and on SharedArrayBuffers (another thread
 * may write during the job). A view of a detached buffer has length 0 and fails length checks.
 */
export function plainView<T extends Uint32Array | Uint8Array>(v: T): T {
  const buf = v.buffer as ArrayBuffer & { resizable?: boolean; growable?: boolean };
  if (buf.resizable !== true && buf.growable !== true && buf instanceof ArrayBuffer) return v;
  return (isTypedArray(v, 'Uint8Array') ? new Uint8Array(v) : new Uint32Array(v)) as T;
}

/** A Uint32Array WebGPU can copy from (plainView). */
export function requireUint32Array(name: string, v: unknown): Uint32Array {
  if (!isTypedArray(v, 'Uint32Array')) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `${name} must be a Uint32Array of canonical BabyBear values, got ${show(v)}; wrap plain arrays with Uint32Array.from(...)`,
    );
  }
  return plainView(v);
}

/**
 * A caller's array for a result (`out`): a Uint32Array of exactly `expected` values, or
 * undefined. The result is written into it and it is returned, so a caller reusing one array
 * across calls pays no allocation (a fresh 64 MB array costs ~50 ms of page faults).
 */
export function optionalOut(out: unknown, expected: number): Uint32Array | undefined {
  if (out === undefined) return undefined;
  if (!isTypedArray(out, 'Uint32Array'))
    throw new ProverError('INVALID_ARGUMENT', `out must be a Uint32Array to write the result into, got ${show(out)}`);
  requireLength('out', out, expected, `the result has ${expected} values; pass an array of that length, or leave out out`);
  return out;
}

/** The NON_CANONICAL error for value `x` at `name[i]` (found by the host scan or on the GPU). */
export function nonCanonicalError(name: string, i: number, x: number, field: Monty31Params = BABY_BEAR): ProverError {
  return new ProverError(
    'NON_CANONICAL',
    `${name}[${i}] = ${x} is not a canonical ${field.label} value (must be < p = ${field.p}); reduce it mod p first`,
  );
}

/**
 * Every value in [0, p). Values are canonical integers, never Montgomery form. A first pass
 * without branches finds whether any value is out of range (read as int32, x | (p - 1 - x) is
 * negative exactly when x >= p or x >= 2^31; four accumulators): 64 MB in ~14 ms where the
 * branching loop took ~27 (this is most of a large job's host time after the copies).
 */
export function requireCanonical(name: string, v: Uint32Array, field: Monty31Params = BABY_BEAR): void {
  const w = new Int32Array(v.buffer, v.byteOffset, v.length);
  const P = field.p;
  const top = P - 1;
  let b0 = 0,
    b1 = 0,
    b2 = 0,
    b3 = 0;
  const n4 = w.length & ~3;
  for (let i = 0; i < n4; i += 4) {
    const x0 = w[i],
      x1 = w[i + 1],
      x2 = w[i + 2],
      x3 = w[i + 3];
    b0 |= x0 | (top - x0);
    b1 |= x1 | (top - x1);
    b2 |= x2 | (top - x2);
    b3 |= x3 | (top - x3);
  }
  for (let i = n4; i < w.length; i++) b0 |= w[i] | (top - w[i]);
  if ((b0 | b1 | b2 | b3) >= 0) return;
  for (let i = 0; i < v.length; i++) if (v[i] >= P) throw nonCanonicalError(name, i, v[i], field);
}

/**
 * Field arrays up to this many bytes are checked for canonical values here; a GPU job checks
 * larger ones on the GPU after their upload (kernels/canonical.ts), where it costs ~nothing.
 */
export const HOST_SCAN_MAX_BYTES = 1 << 20;

/**
 * A non-empty Uint32Array of canonical values, copied where WebGPU cannot read it as is.
 * `gpuScans`: the caller uploads it with uploadField, which checks the range of a large array
 * on the GPU; only a small one is scanned here.
 */
export function requireFieldArray(name: string, v: unknown, gpuScans = false, field: Monty31Params = BABY_BEAR): Uint32Array {
  const a = requireUint32Array(name, v);
  requireNonEmpty(name, a);
  if (!gpuScans || a.byteLength <= HOST_SCAN_MAX_BYTES) requireCanonical(name, a, field);
  return a;
}

/** An optional `field` option: one of FIELD_NAMES, 'babybear' when absent. */
export function requireFieldName(name: string, v: unknown): FieldName {
  if (v === undefined) return 'babybear';
  if (!isFieldName(v))
    throw new ProverError('INVALID_ARGUMENT', `${name} must be one of ${FIELD_NAMES.map((f) => `'${f}'`).join(', ')}, got ${show(v)}`);
  return v;
}

/** The record of a validated field name. */
export function fieldRecord(name: FieldName): Monty31Params {
  return MONTY31_FIELDS[name];
}

export function requireNonEmpty(name: string, v: { length: number }): void {
  if (v.length === 0) throw new ProverError('INVALID_LENGTH', `${name} is empty; pass at least one element`);
}

export function requireLength(name: string, v: { length: number }, expected: number, why: string): void {
  if (v.length !== expected) {
    throw new ProverError('INVALID_LENGTH', `${name} has ${v.length} elements, expected ${expected} (${why})`);
  }
}

export function requireMultipleOf(name: string, v: { length: number }, k: number, why: string): void {
  if (v.length % k !== 0) {
    throw new ProverError('INVALID_LENGTH', `${name} has ${v.length} elements, not a multiple of ${k} (${why}); pad or trim it`);
  }
}

/** An integer in [min, max]; `hint` says what the range means. */
export function requireInt(name: string, v: unknown, min: number, max: number, hint = ''): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ProverError('INVALID_ARGUMENT', `${name} must be an integer in ${min}..${max}${hint ? ` (${hint})` : ''}, got ${show(v)}`);
  }
  return v;
}

/**
 * An NTT's or commit's blow-up: log2 of it an integer in 0..A (else INVALID_ARGUMENT), and the
 * output, `height` rows times 2^addedBits, within the field's two-adic subgroup of 2^A rows (else
 * TOO_LARGE: the job is too large, not the option bad); A = 27 for BabyBear (the default), 24 for
 * KoalaBear. `op` names the call in the message.
 */
export function requireAddedBits(op: string, height: number, addedBits: unknown, field: Monty31Params = BABY_BEAR): number {
  const A = field.twoAdicity;
  const bits = requireInt('addedBits', addedBits, 0, A, 'log2 of the blow-up');
  if (height * 2 ** bits > 2 ** A) {
    throw new ProverError(
      'TOO_LARGE',
      `${op}: ${height} rows x 2^${bits} exceeds 2^${A} rows, ${field.label}'s largest power-of-two subgroup; lower addedBits or the height`,
    );
  }
  return bits;
}

/** A power of two in [min, max]. */
export function requirePow2(name: string, v: unknown, min: number, max: number): number {
  const x = requireInt(name, v, min, max);
  if ((x & (x - 1)) !== 0) throw new ProverError('INVALID_ARGUMENT', `${name} must be a power of two in ${min}..${max}, got ${x}`);
  return x;
}

/** undefined, or a boolean. */
export function optionalBoolean(name: string, v: unknown): boolean | undefined {
  if (v !== undefined && typeof v !== 'boolean') throw new ProverError('INVALID_ARGUMENT', `${name} must be true or false, got ${show(v)}`);
  return v;
}

/**
 * An options bag: a plain object (or undefined where `optional`). With `known`, any other own key
 * is refused, so a misspelt tuning field fails instead of silently changing nothing.
 */
export function requireOptions<T extends object>(name: string, v: unknown, optional: boolean, known?: readonly string[]): Partial<T> {
  if (v === undefined && optional) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ProverError('INVALID_ARGUMENT', `${name} must be an options object${optional ? ' or undefined' : ''}, got ${show(v)}`);
  }
  if (known) {
    const extra = Reflect.ownKeys(v).find((k) => typeof k !== 'string' || !known.includes(k));
    if (extra !== undefined) {
      throw new ProverError('INVALID_ARGUMENT', `${name} has an unknown field ${show(extra)}; known fields: ${known.join(', ')}`);
    }
  }
  return v as Partial<T>;
}

/**
 * A dense array: Array.isArray and every index an own element. forEach and map skip holes, so a
 * sparse array would otherwise be read as a shorter one.
 */
export function requireDenseArray(name: string, v: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new ProverError('INVALID_ARGUMENT', `${name} must be ${what}, got ${show(v)}`);
  for (let i = 0; i < v.length; i++) {
    if (!Object.hasOwn(v, i))
      throw new ProverError('INVALID_ARGUMENT', `${name}[${i}] is a hole (a sparse array); pass ${what} with every element set`);
  }
  return v;
}
