// The Fq inversion the MSM walker uses (binary extended Euclid, src/ref/fq-inv.ts twin of the
// shader): right answer in Montgomery form, and far from the shader's step cap on every input tried.
import { describe, expect, it } from 'vitest';
import { FQ_INV_MAX_STEPS, fqInvMont } from '../../src/ref/fq-inv.js';
import { FQ_P, FQ_R, invMod, mod } from '../../src/params/bn254.js';
import { SplitMix64 } from '../support/splitmix.js';

const toMont = (a: bigint) => mod(a * FQ_R, FQ_P);

describe('fq inversion (binary extended Euclid)', () => {
  it('returns a^-1 in Montgomery form and needs well under the step cap', () => {
    const rng = new SplitMix64(0xf91);
    const edge = [1n, 2n, 3n, FQ_P - 1n, FQ_P - 2n, (FQ_P - 1n) / 2n, 1n << 253n, (1n << 253n) + 1n];
    const random = Array.from({ length: 2000 }, () => mod((BigInt(rng.next()) << 192n) | (BigInt(rng.next()) << 128n) | (BigInt(rng.next()) << 64n) | BigInt(rng.next()), FQ_P) || 1n);
    let most = 0;
    for (const a of [...edge, ...random]) {
      const { inv, steps } = fqInvMont(toMont(a));
      expect(inv).toBe(toMont(invMod(a, FQ_P)));
      most = Math.max(most, steps);
    }
    // 2·(254 + 254) = 1016 is the proven bound; typical inputs take ~500-570.
    expect(most).toBeLessThanOrEqual(1016);
    expect(most).toBeLessThan(FQ_INV_MAX_STEPS);
  });

  it('zero maps to zero', () => {
    expect(fqInvMont(0n).inv).toBe(0n);
  });
});
