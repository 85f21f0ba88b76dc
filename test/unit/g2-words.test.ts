// The G2 MSM's word layout (a snarkjs zkey's): Montgomery coordinates decode to noble's affine
// coordinates and back, all-zero words are the identity, non-canonical words and scalars >= r are
// found, and the twist's constants derived in src/params/bn254-g2.ts are noble's b'.
import { describe, expect, it } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { G2_B, G2_B3, BN254_G2_WGSL_CONSTS } from '../../src/params/bn254-g2.js';
import { FQ_P, FR_R, toLimbs, toMont, mod } from '../../src/params/bn254.js';
import { scanScalars, g2AffineFromWords, g2Words, g2WordsNonCanonical, scalarFromWords, scalarWords } from '../../src/field/g2-words.js';

const G2 = bn254.G2.Point;

describe('G2 words', () => {
  it("b' = 3/(9 + u) is noble's, and b3 = 3b'", () => {
    const b = G2.CURVE().b as { c0: bigint; c1: bigint };
    expect(G2_B).toEqual({ c0: b.c0, c1: b.c1 });
    expect(G2_B3).toEqual({ c0: mod(3n * b.c0, FQ_P), c1: mod(3n * b.c1, FQ_P) });
    expect(BN254_G2_WGSL_CONSTS.FQ2_B3_C0_LIMBS).toEqual(toLimbs(toMont(G2_B3.c0)));
  });

  it('round-trips points, identity as zeros, in Montgomery form', () => {
    const ps = [G2.BASE, G2.BASE.multiply(12345n), G2.ZERO, G2.BASE.negate()];
    const words = g2Words(ps.map((p) => (p.is0() ? null : p.toAffine())));
    expect(words.length).toBe(128);
    expect(Array.from(words.subarray(64, 96)).every((w) => w === 0)).toBe(true);
    // x.c0 of the generator in Montgomery form at words 0..8.
    expect(Array.from(words.subarray(0, 8))).toEqual(toLimbs(toMont(G2.BASE.toAffine().x.c0)));
    for (let i = 0; i < ps.length; i++) {
      const a = g2AffineFromWords(words, i);
      if (ps[i].is0()) expect(a).toBeNull();
      else expect(G2.fromAffine(a!).equals(ps[i])).toBe(true);
      expect(g2WordsNonCanonical(words, i)).toBe(false);
    }
    words.set(toLimbs(FQ_P), 32 + 24); // y.c1 of point 1 = q
    expect(g2WordsNonCanonical(words, 1)).toBe(true);
  });

  it('scalars as 8 little-endian words; the first >= r is found', () => {
    const ks = [0n, 1n, FR_R - 1n, 2n ** 200n + 7n];
    const w = scalarWords(ks);
    expect(ks.map((_, i) => scalarFromWords(w, i))).toEqual(ks);
    expect(scanScalars(w, 4).firstBad).toBe(-1);
    const bad = scalarWords([1n, FR_R - 1n, FR_R, 2n ** 256n - 1n]);
    expect(scanScalars(bad, 4).firstBad).toBe(2);
    expect(scanScalars(bad, 2).firstBad).toBe(-1);
    expect(scanScalars(scalarWords([2n ** 256n - 1n]), 1).firstBad).toBe(0);
  });

  it('scanScalars counts bit lengths (the window choice) beside the range check', () => {
    const ks = [0n, 0n, 1n, 2n, 3n, 2n ** 32n, 2n ** 31n, FR_R - 1n];
    const { firstBad, bits } = scanScalars(scalarWords(ks), ks.length);
    expect(firstBad).toBe(-1);
    const want = new Array(257).fill(0);
    for (const k of ks) want[k.toString(2).length - (k === 0n ? 1 : 0)]++;
    expect(Array.from(bits)).toEqual(want);
    expect(bits[254]).toBe(1);
  });
});
