// BN254 scalars as 8 little-endian words (src/field/fr-words.ts) against bigint arithmetic: the
// range check every Groth16 and MSM input passes, and the Groth16 offsets' addition mod r, on
// random values and on the edges (0, r - 1, r, the top word equal to r's, values within 2^64 of r).
import { describe, expect, it } from 'vitest';
import { FR_R, toLimbs } from '../../src/params/bn254.js';
import { addOffsetsModR, atLeastR, firstAtLeastR, offsetScalars, randomOffsets } from '../../src/field/fr-words.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const R_TOP = FR_R >> 224n;

function words(values: readonly bigint[]): Uint32Array {
  const out = new Uint32Array(8 * values.length);
  values.forEach((v, i) => out.set(toLimbs(v), 8 * i));
  return out;
}

function values(w: Uint32Array): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < w.length; i += 8) {
    let v = 0n;
    for (let k = 7; k >= 0; k--) v = (v << 32n) | BigInt(w[i + k]);
    out.push(v);
  }
  return out;
}

const random256 = (rng: SplitMix64) => rng.next256();

describe('atLeastR / firstAtLeastR', () => {
  it('agree with v >= r on edges and random values', () => {
    const rng = new SplitMix64(7);
    const edges = [0n, 1n, FR_R - 1n, FR_R, FR_R + 1n, 2n ** 256n - 1n, R_TOP << 224n, (R_TOP << 224n) - 1n, ((R_TOP + 1n) << 224n) - 1n];
    const all = [
      ...edges,
      ...Array.from({ length: 500 }, () => random256(rng)),
      ...Array.from({ length: 200 }, () => random256(rng) % FR_R),
    ];
    const w = words(all);
    all.forEach((v, i) => expect(atLeastR(w, 8 * i), `value ${v}`).toBe(v >= FR_R));
  });

  it('finds the first value >= r, or -1', () => {
    expect(firstAtLeastR(words([0n, FR_R - 1n, 5n]), 3)).toBe(-1);
    expect(firstAtLeastR(words([0n, FR_R - 1n, FR_R, 2n ** 256n - 1n]), 4)).toBe(2);
    expect(firstAtLeastR(words([0n, FR_R - 1n, FR_R]), 2)).toBe(-1);
    expect(firstAtLeastR(new Uint32Array(0), 0)).toBe(-1);
  });
});

describe('addOffsetsModR', () => {
  it('equals (w + t) mod r for random, small and near-r values', () => {
    const rng = new SplitMix64(11);
    const n = 600;
    const w: bigint[] = [];
    for (let i = 0; i < n; i++) {
      const kind = i % 4;
      if (kind === 0) w.push(random256(rng) % FR_R);
      else if (kind === 1) w.push(rng.next() & 1n);
      else if (kind === 2)
        w.push(FR_R - 1n - (rng.next() % 2n ** 64n)); // within 2^64 of r: a reduction may be due
      else w.push(0xffffffffn * (rng.next() & 0xffn)); // carries out of the low words
    }
    const t = randomOffsets(n);
    t.set([0xffffffff, 0xffffffff], 2); // the largest offset, 2^64 - 1
    const got = values(addOffsetsModR(words(w), t));
    const offsets = values(offsetScalars(t));
    got.forEach((v, i) => expect(v, `value ${i}`).toBe((w[i] + offsets[i]) % FR_R));
  });

  it('writes into a given array, a slice at a time as the Groth16 key does', () => {
    const w = words([FR_R - 1n, 3n, 0n, FR_R - 2n]);
    const t = new Uint32Array([1, 0, 5, 0, 0, 0, 3, 0]);
    const out = new Uint32Array(w.length);
    addOffsetsModR(w.subarray(0, 16), t.subarray(0, 4), out.subarray(0, 16));
    addOffsetsModR(w.subarray(16), t.subarray(4), out.subarray(16));
    expect(values(out)).toEqual([0n, 8n, 0n, 1n]);
  });

  it('offsets are 64-bit scalars', () => {
    const t = randomOffsets(1000);
    expect(t.length).toBe(2000);
    const s = offsetScalars(t);
    for (let i = 0; i < 1000; i++) expect([...s.subarray(8 * i + 2, 8 * i + 8)]).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
