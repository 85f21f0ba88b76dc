/**
 * Inputs and anchors for the hash benchmarks: bench/native's random_matrix (SplitMix64 per
 * 2^16-value chunk, 31-bit rejection sampling) reproduced in fast 32-bit JS arithmetic, so the
 * GPU commits the very matrix Plonky3 committed in the same run and the two roots must match;
 * and the native anchor's JSON lines (NATIVE_ANCHOR=file) for the CPU ratios.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { BB_P } from '../src/params/babybear.js';

const M64 = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/** Unsigned high 32 bits of a·b from 16-bit halves (every partial product exact in a double). */
function mulhi(a: number, b: number): number {
  const a0 = a & 0xffff,
    a1 = a >>> 16,
    b0 = b & 0xffff,
    b1 = b >>> 16;
  const p01 = a0 * b1,
    p10 = a1 * b0;
  const mid = ((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (a1 * b1 + Math.floor(p01 / 65536) + Math.floor(p10 / 65536) + Math.floor(mid / 65536)) >>> 0;
}

/** SplitMix64 on (hi, lo) u32 pairs; `next31()` = (next_u64() >> 33) like bench/native's Rng. */
export class FastSplitMix {
  private hi: number;
  private lo: number;
  constructor(state: bigint) {
    this.hi = Number((state >> 32n) & 0xffffffffn);
    this.lo = Number(state & 0xffffffffn);
  }
  private static mulLo64(hi: number, lo: number, chi: number, clo: number): [number, number] {
    const rlo = Math.imul(lo, clo) >>> 0;
    const rhi = (mulhi(lo, clo) + Math.imul(lo, chi) + Math.imul(hi, clo)) >>> 0;
    return [rhi, rlo];
  }
  /** The next u64 as [hi, lo]. */
  next(): [number, number] {
    const lo = (this.lo + 0x7f4a7c15) >>> 0;
    this.hi = (this.hi + 0x9e3779b9 + (lo < this.lo ? 1 : 0)) >>> 0;
    this.lo = lo;
    let h = this.hi,
      l = this.lo;
    l = (l ^ ((l >>> 30) | (h << 2))) >>> 0;
    h = (h ^ (h >>> 30)) >>> 0;
    [h, l] = FastSplitMix.mulLo64(h, l, 0xbf58476d, 0x1ce4e5b9);
    l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
    h = (h ^ (h >>> 27)) >>> 0;
    [h, l] = FastSplitMix.mulLo64(h, l, 0x94d049bb, 0x133111eb);
    l = (l ^ ((l >>> 31) | (h << 1))) >>> 0;
    h = (h ^ (h >>> 31)) >>> 0;
    return [h, l];
  }
  next31(): number {
    return this.next()[0] >>> 1;
  }
}

/** bench/native random_matrix(log_n, width, seed): chunks of 2^16 values, chunk i seeded seed·0x100000001B3 + i. */
export function nativeMatrix(logN: number, width: number, seed: number): Uint32Array {
  const out = new Uint32Array(2 ** logN * width);
  const CH = 1 << 16;
  for (let c = 0; c * CH < out.length; c++) {
    const s = ((BigInt(seed) * 0x100000001b3n + BigInt(c)) & M64) ^ GOLDEN;
    const rng = new FastSplitMix(s);
    const end = Math.min(out.length, (c + 1) * CH);
    for (let i = c * CH; i < end; i++) {
      let x = rng.next31();
      while (x >= BB_P) x = rng.next31();
      out[i] = x;
    }
  }
  return out;
}

/** Cheap distinct canonical values (for inputs whose exact content does not matter). */
export function quickValues(n: number, seed: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (x >>> 1) % BB_P;
  }
  return out;
}

export type NativeRow = Record<string, unknown> & { bench: string };

/** The native anchor's JSON lines from $NATIVE_ANCHOR (empty when absent). */
export function nativeRows(): NativeRow[] {
  const file = process.env.NATIVE_ANCHOR;
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as NativeRow);
}

export function findNative(rows: NativeRow[], bench: string, match: Record<string, unknown>): NativeRow | undefined {
  return rows.find((r) => r.bench === bench && Object.entries(match).every(([k, v]) => r[k] === v));
}
