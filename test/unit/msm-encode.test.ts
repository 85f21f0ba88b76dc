// MSM input encoding (src/api/msm-encode.ts): packed bytes against the bigint path and toLimbs.
import { describe, it, expect } from 'vitest';
import { encodePoints, encodeScalars } from '../../src/api/msm-encode.js';
import { FQ_P, FR_R, toLimbs } from '../../src/params/bn254.js';
import { isProverError } from '../../src/index.js';
import { SplitMix64 } from '../support/splitmix.js';

const be32 = (x: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * (31 - i))) & 0xffn));
const pack = (xs: bigint[]) => {
  const out = new Uint8Array(32 * xs.length);
  xs.forEach((x, i) => out.set(be32(x), 32 * i));
  return out;
};
const code = (f: () => unknown) => {
  try { f(); return 'ok'; } catch (e) { return isProverError(e) ? e.code : String(e); }
};

describe('encodeScalars', () => {
  const rng = new SplitMix64(0xe5c0de);
  const random = (bound: bigint) => {
    let k = 0n;
    for (let w = 0; w < 4; w++) k = (k << 64n) | rng.next();
    return k % bound;
  };
  // Sizes across the transpose's block edge (4096), values near r and with leading byte 0x30.
  const edges = [0n, 1n, FR_R - 1n, FR_R - 2n, (FR_R >> 8n) << 8n, 0x30n << 248n, (1n << 253n) + 12345n];

  it.each([1, 7, 4096, 4097, 9000])('packed bytes give the bigint path\'s half-planes (n = %i)', (n) => {
    const xs = Array.from({ length: n }, (_, i) => (i < edges.length ? edges[i] : random(FR_R)));
    const fromBytes = encodeScalars(pack(xs), n);
    expect(fromBytes).toEqual(encodeScalars(xs, n));
    // and the planes are the scalars' 16-bit halves, little end first
    for (const i of [0, n >> 1, n - 1]) {
      const words = toLimbs(xs[i]);
      for (let h = 0; h < 16; h++) expect(fromBytes[h * n + i]).toBe((words[h >> 1] >>> (16 * (h & 1))) & 0xffff);
    }
  });

  it('reads packed scalars at any byte offset of their buffer', () => {
    const xs = Array.from({ length: 10 }, () => random(FR_R));
    const shifted = new Uint8Array(1 + 32 * xs.length);
    shifted.set(pack(xs), 1);
    expect(encodeScalars(shifted.subarray(1), xs.length)).toEqual(encodeScalars(xs, xs.length));
  });

  it('rejects scalars >= r in either form, wherever they sit', () => {
    for (const bad of [FR_R, FR_R + 1n, (1n << 256n) - 1n, 0x31n << 248n]) {
      const xs = [1n, 2n, bad, 3n];
      expect(code(() => encodeScalars(pack(xs), 4))).toBe('NON_CANONICAL');
      expect(code(() => encodeScalars(xs, 4))).toBe('NON_CANONICAL');
    }
    expect(code(() => encodeScalars(new Uint8Array(33), 1))).toBe('INVALID_LENGTH');
  });
});

describe('encodePoints', () => {
  it('packed coordinates become 16 LE words (x then y); all zeros is the identity; >= p is rejected', () => {
    const coords = [[1n, 2n], [0n, 0n], [FQ_P - 1n, 0x30n << 248n], [0n, 7n]];
    const bytes = new Uint8Array(64 * coords.length);
    coords.forEach(([x, y], i) => { bytes.set(be32(x), 64 * i); bytes.set(be32(y), 64 * i + 32); });
    const { words, n, identity } = encodePoints(bytes);
    expect(n).toBe(4);
    expect(identity).toEqual([1]);
    coords.forEach(([x, y], i) => expect(Array.from(words.subarray(16 * i, 16 * i + 16))).toEqual([...toLimbs(x), ...toLimbs(y)]));
    for (const at of [0, 32]) {
      const bad = bytes.slice(0, 64);
      bad.set(be32(FQ_P), at);
      expect(code(() => encodePoints(bad))).toBe('NON_CANONICAL');
    }
  });
});
