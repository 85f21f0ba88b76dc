/**
 * BN254 scalars (Fr) as 8 little-endian u32 words each, in bulk, without bigints: what the Groth16
 * key does to a million witness values per proof.
 * @module
 */
import { FR_R, toLimbs } from '../params/bn254.js';

const R = toLimbs(FR_R);

/**
 * Whether the 8-word little-endian value at words[at..at + 8) is >= r, without a bigint: the top
 * word decides all but ~2^-32 of values (a million in ~2 ms).
 */
export function atLeastR(words: Uint32Array, at: number): boolean {
  for (let k = 7; k >= 0; k--) {
    const w = words[at + k];
    if (w !== R[k]) return w > R[k];
  }
  return true; // equal to r
}

/** The first of `count` 8-word little-endian values that is >= r, or -1. */
export function firstAtLeastR(words: Uint32Array, count: number): number {
  for (let i = 0; i < count; i++) if (atLeastR(words, 8 * i)) return i;
  return -1;
}

/**
 * out[i] = (a[i] + t[i]) mod r, where a holds 8-word values below r and t 2-word offsets below
 * 2^64. A value's words above the offset's are touched only by a carry, so a pass over a million
 * values costs a few milliseconds; only values within 2^64 of r can reach r and need a reduction.
 */
export function addOffsetsModR(a: Uint32Array, t: Uint32Array, out = new Uint32Array(a.length)): Uint32Array {
  const n = a.length >> 3;
  out.set(a);
  for (let i = 0, o = 0; i < n; i++, o += 8) {
    const lo = a[o] + t[2 * i];
    out[o] = lo >>> 0;
    const hi = a[o + 1] + t[2 * i + 1] + (lo > 0xffffffff ? 1 : 0);
    out[o + 1] = hi >>> 0;
    let carry = hi > 0xffffffff ? 1 : 0;
    for (let k = 2; carry && k < 8; k++) {
      const w = out[o + k] + 1;
      out[o + k] = w >>> 0;
      carry = w > 0xffffffff ? 1 : 0;
    }
    if (out[o + 7] >= R[7]) reduceOnce(out, o);
  }
  return out;
}

/** out[o..o+8) -= r when it is >= r (it is below 2r). */
function reduceOnce(v: Uint32Array, o: number): void {
  for (let k = 7; k >= 0; k--) {
    if (v[o + k] !== R[k]) {
      if (v[o + k] < R[k]) return;
      break;
    }
  }
  let borrow = 0;
  for (let k = 0; k < 8; k++) {
    const d = v[o + k] - R[k] - borrow;
    v[o + k] = d >>> 0;
    borrow = d < 0 ? 1 : 0;
  }
}

/** n offsets below 2^64 (2 words each) from crypto.getRandomValues. */
export function randomOffsets(n: number): Uint32Array {
  const out = new Uint32Array(2 * n);
  const CHUNK = 16384; // getRandomValues fills at most 64 KiB a call
  for (let at = 0; at < out.length; at += CHUNK) globalThis.crypto.getRandomValues(out.subarray(at, Math.min(out.length, at + CHUNK)));
  return out;
}

/** The offsets as 8-word scalars (the MSM's input form). */
export function offsetScalars(t: Uint32Array): Uint32Array {
  const n = t.length >> 1;
  const out = new Uint32Array(8 * n);
  for (let i = 0; i < n; i++) {
    out[8 * i] = t[2 * i];
    out[8 * i + 1] = t[2 * i + 1];
  }
  return out;
}
