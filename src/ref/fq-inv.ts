/**
 * CPU twin of the WGSL Fq inversion (scripts/gen-bn254-fq.ts -> wgsl/lib/bn254_fq.gen.wgsl fq_inv):
 * the binary extended Euclid algorithm on the Montgomery integer aR, one step per loop turn as
 * the shader takes them, so tests can check its answer and how many steps it needs (the shader
 * stops after FQ_INV_MAX_STEPS, a bound that must never bind for canonical inputs).
 * @module
 */
import { FQ_P, FQ_R, mod } from '../params/bn254.js';

/** The shader's step cap: every canonical input finishes within 2·(254 + 254) = 1016 steps. */
export const FQ_INV_MAX_STEPS = 1024;

/** (aR)^-1 · R^2 mod p = a^-1·R for aR in [1, p), and the steps taken; aR = 0 gives 0. */
export function fqInvMont(aR: bigint): { inv: bigint; steps: number } {
  if (aR === 0n) return { inv: 0n, steps: 0 };
  let u = aR, v = FQ_P, x1 = 1n, x2 = 0n;
  const half = (x: bigint) => ((x & 1n) === 0n ? x >> 1n : (x + FQ_P) >> 1n);
  for (let steps = 0; steps < FQ_INV_MAX_STEPS; steps++) {
    // u = x1·aR and v = x2·aR (mod p) throughout; R^2 turns (aR)^-1 into a^-1·R (the shader
    // multiplies by R^3 in Montgomery form, i.e. by R^2 as integers).
    if (u === 1n) return { inv: mod(x1 * FQ_R * FQ_R, FQ_P), steps };
    if (v === 1n) return { inv: mod(x2 * FQ_R * FQ_R, FQ_P), steps };
    if ((u & 1n) === 0n) { u >>= 1n; x1 = half(x1); }
    else if ((v & 1n) === 0n) { v >>= 1n; x2 = half(x2); }
    else if (u >= v) { u -= v; x1 = mod(x1 - x2, FQ_P); }
    else { v -= u; x2 = mod(x2 - x1, FQ_P); }
  }
  return { inv: 0n, steps: FQ_INV_MAX_STEPS };
}
