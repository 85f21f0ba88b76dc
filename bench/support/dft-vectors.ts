/**
 * test/vectors/dft.json cases (Plonky3 0.9.0-rc.2 dft_batch / idft_batch / coset_lde_batch /
 * encode): rebuild a case's input from its seed, and compare an output against the stored
 * values or against sha256 + head for outputs over 4096 values. Uses crypto.subtle, so the
 * same code runs in Node (vitest, bench) and in the browser (the ntt-check mode).
 * @module
 */
import { SplitMix64 } from './splitmix.js';

export type DftOp = 'dft' | 'idft' | 'coset_lde' | 'encode';

export interface DftCase {
  op: DftOp;
  id?: string;
  log_h: number;
  width: number;
  added_bits?: number;
  shift?: number;
  input: { seed?: number; height: number; width: number; values?: number[] };
  output: { height: number; width: number; values?: number[]; sha256?: string; head?: number[] };
}

export interface DftVectors {
  plonky3: string;
  cases: DftCase[];
}

/** The case's input matrix: explicit values, else h·w SplitMix64 field elements from its seed. */
export function caseInput(c: DftCase): Uint32Array {
  if (c.input.values) return Uint32Array.from(c.input.values);
  return new SplitMix64(c.input.seed!).fieldArray(c.input.height * c.input.width);
}

/** Short label for reports: op, log h, width, added bits, shift. */
export function caseLabel(c: DftCase): string {
  const extra = c.added_bits !== undefined ? ` +${c.added_bits}` : '';
  const shift = c.shift !== undefined ? ` s=${c.shift}` : '';
  return `${c.id ?? c.op} 2^${c.log_h}x${c.width}${extra}${shift}`;
}

async function sha256Hex(v: Uint32Array): Promise<string> {
  // Little-endian u32 bytes: every platform this runs on is little-endian (checked below).
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) throw new Error('big-endian host');
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const digest = await crypto.subtle.digest('SHA-256', bytes.slice().buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** null when `got` equals the case's output, else a one-line description of the first difference. */
export async function compareOutput(c: DftCase, got: Uint32Array): Promise<string | null> {
  const o = c.output;
  const n = o.height * o.width;
  if (got.length !== n) return `length ${got.length}, expected ${n}`;
  if (o.values) {
    for (let i = 0; i < n; i++) if (got[i] !== o.values[i]) return `[${i}] = ${got[i]}, expected ${o.values[i]}`;
    return null;
  }
  const head = o.head ?? [];
  for (let i = 0; i < head.length; i++) if (got[i] !== head[i]) return `[${i}] = ${got[i]}, expected ${head[i]} (head)`;
  const h = await sha256Hex(got);
  return h === o.sha256 ? null : `sha256 ${h.slice(0, 16)}…, expected ${o.sha256!.slice(0, 16)}…`;
}
