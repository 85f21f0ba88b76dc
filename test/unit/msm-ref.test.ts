// src/ref/msm.ts stage by stage against @noble/curves (pippenger and plain multiply).
import { describe, expect, it } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { FQ_NP0, FQ_P, FQ_R, FR_R, fromLimbs, fromMont, toLimbs, toMont } from '../../src/params/bn254.js';
import { affineAdd, bucketCsr, combine, msmRef, signedDigit, windowCount, type Affine } from '../../src/ref/msm.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { windowBits, windowStart } from '../../src/params/msm-layout.js';

const G = bn254.G1.Point;
const toAff = (p: InstanceType<typeof G>): Affine => (p.is0() ? null : p.toAffine());
const eq = (a: Affine, p: InstanceType<typeof G>) => expect(a).toEqual(toAff(p));

function scalar(rng: SplitMix64): bigint {
  let k = 0n;
  for (let i = 0; i < 4; i++) k |= rng.next() << BigInt(64 * i);
  return k % FR_R;
}

describe('bn254 params', () => {
  it('Montgomery constants', () => {
    expect((BigInt(FQ_NP0) * FQ_P + 1n) % (1n << 32n)).toBe(0n);
    expect(fromMont(toMont(12345n))).toBe(12345n);
    expect(fromLimbs(toLimbs(FQ_P))).toBe(FQ_P);
    expect(FQ_R).toBe(1n << 256n);
  });
});

describe('signed digits', () => {
  it.each([2, 4, 6, 8, 12, 13, 14, 15, 16])('recompose k for c = %i', (c) => {
    const rng = new SplitMix64(5);
    const ks = [0n, 1n, FR_R - 1n, (1n << 253n) + 12345n, (1n << 253n) - 1n, ...Array.from({ length: 20 }, () => scalar(rng))];
    for (const k of ks) {
      let sum = 0n;
      for (let j = 0; j < windowCount(c); j++) {
        const d = signedDigit(k, j, c);
        expect(Math.abs(d)).toBeLessThanOrEqual(1 << (windowBits(j, c) - 1));
        sum += BigInt(d) << BigInt(windowStart(j, c));
      }
      expect(sum).toBe(k);
    }
  });

  it.each([2, 4, 6, 8, 12, 13, 14, 15, 16])('windows of c bits, then of c - 1, cover bits [0, 255) for c = %i', (c) => {
    const T = windowCount(c);
    let start = 0;
    for (let j = 0; j < T; j++) {
      expect(windowStart(j, c)).toBe(start);
      expect([c, c - 1]).toContain(windowBits(j, c));
      if (j > 0 && windowBits(j, c) === c) expect(windowBits(j - 1, c)).toBe(c); // the narrow ones on top
      start += windowBits(j, c);
    }
    expect(start).toBe(255);
    expect(windowStart(T, c)).toBe(255);
    // the top window sees c - 2 bits or more of a scalar below 2^254 (not 2 of 14, as all-c windows did)
    expect(254 - windowStart(T - 1, c)).toBeGreaterThanOrEqual(c - 2);
  });
});

describe('affine add and CSR', () => {
  it('handles P = Q, P = -Q and identity like noble', () => {
    const p = G.BASE.multiply(7n),
      q = G.BASE.multiply(11n);
    eq(affineAdd(toAff(p), toAff(q)), p.add(q));
    eq(affineAdd(toAff(p), toAff(p)), p.double());
    eq(affineAdd(toAff(p), toAff(p.negate())), G.ZERO);
    eq(affineAdd(null, toAff(p)), p);
  });
  it('CSR holds every nonzero digit once, in bucket order', () => {
    const rng = new SplitMix64(9);
    const ks = Array.from({ length: 50 }, () => scalar(rng));
    const c = 5,
      T = windowCount(c);
    const csr = bucketCsr(ks, c, 0, T);
    let nonzero = 0;
    for (const k of ks) for (let j = 0; j < T; j++) if (signedDigit(k, j, c) !== 0) nonzero++;
    expect(csr.entries.length).toBe(nonzero);
    expect(csr.offsets.at(-1)).toBe(nonzero);
  });
});

describe('msmRef equals noble pippenger', () => {
  it.each([
    [1, 4, 2, [2]],
    [7, 5, 4, [1, 1]],
    [33, 8, 16, [2, 1]],
    [64, 6, 8, [2]],
    [40, 7, 1, [2, 2, 2]],
    [20, 3, 4, []],
  ] as Array<[number, number, number, number[]]>)('n = %i, c = %i, seg = %i, levels %j', (n, c, seg, levels) => {
    const rng = new SplitMix64(100 + n);
    const pts = Array.from({ length: n }, () => G.BASE.multiply(scalar(rng) || 1n));
    const ks = Array.from({ length: n }, () => scalar(rng));
    // edge cases folded in: zero, 1, r-1, a repeated point with -P
    if (n >= 7) {
      ks[0] = 0n;
      ks[1] = 1n;
      ks[2] = FR_R - 1n;
      pts[4] = pts[3];
      pts[5] = pts[3].negate();
      ks[5] = ks[3];
    }
    eq(msmRef(pts.map(toAff), ks, c, seg, levels), pippenger(G, pts, ks));
  });
  it('combine of single windows', () => {
    eq(combine([toAff(G.BASE), toAff(G.BASE)], 3), G.BASE.multiply(9n));
  });
});
