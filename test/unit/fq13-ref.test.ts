// The 20 x 13-bit Montgomery multiply (src/ref/fq13.ts, twin of wgsl/lib/bn254_fq13.gen.wgsl)
// against bigint, with the u32 accumulator bound checked on edge and random inputs.
import { describe, expect, it } from 'vitest';
import { BN254_WGSL_CONSTS, FQ13_MU, FQ13_R, FQ_P, fromLimbs13, invMod, mod, toLimbs, toLimbs13 } from '../../src/params/bn254.js';
import { fq13FromWords, fq13MulRef, fq13Stats } from '../../src/ref/fq13.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const R13_INV = invMod(FQ13_R, FQ_P);
const EDGES = [0n, 1n, 2n, FQ_P - 1n, FQ_P - 2n, 1n << 253n, (1n << 13n) - 1n, FQ_P >> 1n, (1n << 255n) % FQ_P];

function rand(rng: SplitMix64): bigint {
  let k = 0n;
  for (let i = 0; i < 4; i++) k |= rng.next() << BigInt(64 * i);
  return k % FQ_P;
}

describe('bn254 fq13 (20 x 13-bit limbs)', () => {
  it('constants', () => {
    expect((BigInt(FQ13_MU) * FQ_P + 1n) % 8192n).toBe(0n);
    expect(fromLimbs13(BN254_WGSL_CONSTS.FQ13_P_LIMBS)).toBe(FQ_P);
    expect(fromLimbs13(BN254_WGSL_CONSTS.FQ13_R2_LIMBS)).toBe(mod(FQ13_R * FQ13_R, FQ_P));
  });

  it('multiply equals a·b·2^-260 mod p, accumulators < 2^32', () => {
    const rng = new SplitMix64(13);
    const vals = [...EDGES, ...Array.from({ length: 40 }, () => rand(rng))];
    fq13Stats.maxAcc = 0;
    for (const a of vals) {
      for (const b of vals) {
        const got = fromLimbs13(fq13MulRef(toLimbs13(a), toLimbs13(b)));
        expect(got).toBe(mod(a * b * R13_INV, FQ_P));
      }
    }
    // The worst case 40·(2^13-1)^2 + 2^19 ~ 2^31.3 needs all-ones limbs (> p); real values reach ~2^30.
    expect(fq13Stats.maxAcc).toBeGreaterThan(2 ** 29);
    expect(fq13Stats.maxAcc).toBeLessThan(2 ** 32);
  });

  it('fq_mul13: 16a times b (a, b < p) is a·b·2^-256 mod p, accumulators < 2^32', () => {
    const rng = new SplitMix64(0x16);
    const vals = [...EDGES, ...Array.from({ length: 40 }, () => rand(rng))];
    const R32_INV = invMod(1n << 256n, FQ_P);
    fq13Stats.maxAcc = 0;
    for (const a of vals) {
      for (const b of vals) {
        const got = fromLimbs13(fq13MulRef(toLimbs13(16n * a), toLimbs13(b)));
        expect(got).toBe(mod(a * b * R32_INV, FQ_P));
      }
    }
    expect(fq13Stats.maxAcc).toBeLessThan(2 ** 32);
  });

  it('layout conversion from 8 x 32 words', () => {
    for (const v of EDGES) expect(fromLimbs13(fq13FromWords(toLimbs(v)))).toBe(v);
  });
});
