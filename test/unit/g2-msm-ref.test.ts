// The G2 MSM's CPU twin (src/ref/g2-msm.ts) against a plain sum of noble multiplications, on the
// zkey words the GPU takes: edge scalars, identity and repeated points, P and -P, a prefix of the
// points, and bad inputs refused.
import { describe, expect, it } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { g2MsmRef } from '../../src/ref/g2-msm.js';
import { g2Words, scalarWords } from '../../src/field/g2-words.js';
import { FQ_P, FR_R, toLimbs } from '../../src/params/bn254.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const G2 = bn254.G2.Point;
type P = InstanceType<typeof G2>;

const words = (ps: P[]) => g2Words(ps.map((p) => (p.is0() ? null : p.toAffine())));
const naive = (ps: P[], ks: bigint[]) => ps.reduce((acc, p, i) => (ks[i] === 0n ? acc : acc.add(p.multiply(ks[i]))), G2.ZERO);

describe('g2MsmRef', () => {
  const rng = new SplitMix64(7);
  const rand = () => rng.next256() % FR_R;
  const pts = Array.from({ length: 12 }, () => G2.BASE.multiply(rand() || 1n));

  it('equals the sum of noble multiplications, edge scalars and points included', () => {
    const ps = [...pts, G2.ZERO, pts[0], pts[1].negate()];
    const ks = [...pts.map(() => rand()), 5n, FR_R - 1n, 1n];
    ks[2] = 0n;
    ks[3] = 1n;
    expect(g2MsmRef(words(ps), scalarWords(ks)).equals(naive(ps, ks))).toBe(true);
  });

  it('P and -P cancel; all-zero scalars and count 0 give the identity', () => {
    const ps = [pts[4], pts[4].negate()];
    expect(g2MsmRef(words(ps), scalarWords([9n, 9n])).is0()).toBe(true);
    expect(g2MsmRef(words(pts), scalarWords(pts.map(() => 0n))).is0()).toBe(true);
    expect(g2MsmRef(words(pts), new Uint32Array(0)).is0()).toBe(true);
  });

  it('uses a prefix of the points when given fewer scalars', () => {
    const ks = [rand(), rand(), rand()];
    expect(g2MsmRef(words(pts), scalarWords(ks)).equals(naive(pts.slice(0, 3), ks))).toBe(true);
  });

  it('refuses points off the twist, coordinates >= q and scalars >= r', () => {
    const w = words(pts.slice(0, 2));
    const off = w.slice();
    off[32 + 16] ^= 1;
    expect(() => g2MsmRef(off, scalarWords([1n, 1n]))).toThrow();
    const big = w.slice();
    big.set(toLimbs(FQ_P), 0);
    expect(() => g2MsmRef(big, scalarWords([1n, 1n]))).toThrow(/>= q/);
    expect(() => g2MsmRef(w, scalarWords([1n, FR_R]))).toThrow(/>= r/);
  });
});
