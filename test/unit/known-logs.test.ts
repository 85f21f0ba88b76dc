// MSM answers from the bases' discrete logs (src/field/known-logs.ts), which the checks' small MSMs
// compare the GPU's answer with: equal to noble's own multiplication and pippenger.
import { describe, expect, it } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { knownMultiples, msmOfKnownLogs, timesBase } from '../../src/field/known-logs.js';

const G1 = bn254.G1.Point;
const r = bn254.fields.Fr.ORDER;

describe('known-logs', () => {
  it('timesBase is noble multiplication, at 0, 1, 2^k, r - 1 and random scalars', () => {
    expect(timesBase(G1, 0n).equals(G1.ZERO)).toBe(true);
    let s = 0x9e3779b97f4a7c15n;
    for (const k of [1n, 2n, 1n << 200n, r - 1n, ...Array.from({ length: 4 }, () => (s = (s * s + 12345n) % r))]) {
      expect(timesBase(G1, k).equals(G1.BASE.multiply(k))).toBe(true);
    }
  });

  it('points in arithmetic progression and an MSM over them equal noble pippenger, repeated points and zero scalars included', () => {
    const first = 123456789n;
    const { points, logs } = knownMultiples(G1, first, 5n, 16);
    points.forEach((p, i) => expect(p.equals(G1.BASE.multiply(first + 5n * BigInt(i)))).toBe(true));
    expect(logs).toEqual(points.map((_, i) => first + 5n * BigInt(i)));
    points[5] = points[4];
    logs[5] = logs[4];
    let s = 7n;
    const scalars = points.map(() => (s = (s * 6364136223846793005n + 1442695040888963407n) % r));
    scalars[2] = 0n;
    scalars[3] = r - 1n;
    expect(msmOfKnownLogs(G1, logs, scalars).equals(pippenger(G1, points, scalars))).toBe(true);
  });
});
