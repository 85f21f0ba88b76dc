// The Fq inversion the MSM walker uses (Bernstein-Yang divsteps, src/ref/fq-safegcd.ts, the twin
// of wgsl/lib/bn254_inv.gen.wgsl): right answer in Montgomery form on edge and random inputs, every
// i32 sum inside its bound (the twin throws otherwise), the divstep matrix inside |u| + |v| <= 2^14,
// and the batch count far from the shader's cap.
import { describe, expect, it } from 'vitest';
import { fqInvSafegcd, sgDivsteps, sgLimbs, sgValue, SG_BITS, SG_MAX_BATCHES } from '../../src/ref/fq-safegcd.js';
import { FQ_P, FQ_R, invMod, mod } from '../../src/params/bn254.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const toMont = (a: bigint) => mod(a * FQ_R, FQ_P);
const rand256 = (rng: SplitMix64) =>
  (BigInt(rng.next()) << 192n) | (BigInt(rng.next()) << 128n) | (BigInt(rng.next()) << 64n) | BigInt(rng.next());

describe('fq inversion (safegcd divsteps)', () => {
  it('returns a^-1 in Montgomery form, well under the batch cap', () => {
    const rng = new SplitMix64(0x5a6cd);
    const edge = [
      1n,
      2n,
      3n,
      FQ_P - 1n,
      FQ_P - 2n,
      (FQ_P - 1n) / 2n,
      (FQ_P + 1n) / 2n,
      1n << 253n,
      (1n << 253n) + 1n,
      (1n << 14n) - 1n,
      1n << 14n,
    ];
    const random = Array.from({ length: 3000 }, () => mod(rand256(rng), FQ_P) || 1n);
    let most = 0;
    for (const a of [...edge, ...random]) {
      const { inv, batches } = fqInvSafegcd(toMont(a));
      expect(inv).toBe(toMont(invMod(a, FQ_P)));
      most = Math.max(most, batches);
    }
    // 741 divsteps bound every 256-bit input: 53 batches of 14; random inputs take ~37.
    expect(most).toBeLessThanOrEqual(Math.ceil(741 / SG_BITS));
    expect(most).toBeLessThan(SG_MAX_BATCHES);
  });

  it('zero maps to zero', () => {
    expect(fqInvSafegcd(0n).inv).toBe(0n);
  });

  it('each batch of divsteps is a matrix with |u| + |v| <= 2^14 and |q| + |r| <= 2^14', () => {
    const rng = new SplitMix64(0xd1f);
    for (let k = 0; k < 5000; k++) {
      const f = (Number(BigInt(rng.next()) & 0xffffffffn) | 1) >>> 0;
      const g = Number(BigInt(rng.next()) & 0xffffffffn);
      const delta = Number(BigInt(rng.next()) % 41n) - 20;
      const t = sgDivsteps(delta, f, g);
      expect(Math.abs(t.u) + Math.abs(t.v)).toBeLessThanOrEqual(1 << SG_BITS);
      expect(Math.abs(t.q) + Math.abs(t.r)).toBeLessThanOrEqual(1 << SG_BITS);
      // The matrix maps (f, g) to multiples of 2^14 (mod 2^32): the exact division the shader relies on.
      expect((Math.imul(t.u, f) + Math.imul(t.v, g)) & ((1 << SG_BITS) - 1)).toBe(0);
      expect((Math.imul(t.q, f) + Math.imul(t.r, g)) & ((1 << SG_BITS) - 1)).toBe(0);
    }
  });

  it('limbs round-trip, signed top limb included', () => {
    const x = FQ_P - 12345n;
    expect(sgValue(sgLimbs(x))).toBe(x);
    const neg = sgLimbs(x);
    neg[neg.length - 1] -= 1 << SG_BITS; // same low limbs, top limb negative
    expect(sgValue(neg)).toBe(x - (1n << BigInt(SG_BITS * neg.length)));
  });
});
