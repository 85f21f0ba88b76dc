/**
 * Helpers for the Poseidon2 / sponge / Merkle / challenger vector files (test/vectors/*.json,
 * made by Plonky3 0.9.0-rc.2): materialize a seeded input exactly as the generator did, and
 * turn a vector's constant set into the library's Poseidon2Constants shape. Shared by the Node
 * unit tests, the dev-page modes and the benchmarks, so it imports no Node modules.
 * @module
 */
import type { Poseidon2Constants } from '../../src/params/poseidon2-babybear.js';
import { SplitMix64 } from './splitmix.js';

export interface SeededInput {
  seed?: number;
  height?: number;
  width?: number;
  values?: number[];
}

/** The input's values: explicit when present, else h·w successive field elements from SplitMix64(seed). */
export function inputValues(inp: SeededInput): Uint32Array {
  if (inp.values) return Uint32Array.from(inp.values);
  if (inp.seed === undefined || inp.height === undefined || inp.width === undefined)
    throw new Error('vector input has neither values nor seed/height/width');
  return new SplitMix64(inp.seed).fieldArray(inp.height * inp.width);
}

export interface ConstantsCase {
  external_initial: number[][];
  internal: number[];
  external_terminal: number[][];
}

export function vectorConstants(c: ConstantsCase): Poseidon2Constants {
  return { externalInitial: c.external_initial, internal: c.internal, externalFinal: c.external_terminal };
}

/** Hex SHA-256 of the values as little-endian u32 bytes (the vectors' `sha256` field); works in Node 20+ and browsers. */
export async function sha256U32(values: Uint32Array): Promise<string> {
  const bytes = new Uint8Array(values.length * 4);
  const dv = new DataView(bytes.buffer);
  values.forEach((v, i) => dv.setUint32(4 * i, v, true));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
