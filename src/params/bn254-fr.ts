/**
 * BN254's scalar field Fr as Groth16 over circom uses it: the two-adic roots of unity (snarkjs's,
 * through ffjavascript: 2-adicity 28, the 2^28-th root 5^((r-1)/2^28)), the Montgomery constants
 * of the 8 x 32-bit layout (R = 2^256, as for Fq), and the scaling of a zkey's coefficients.
 * Everything is computed from r.
 * @module
 */
import { FQ13_R, FR_R, invMod, mod, powMod, toLimbs, toLimbs13 } from './bn254.js';

export { FR_R };

/** r - 1 = 2^FR_TWO_ADICITY · odd. */
export const FR_TWO_ADICITY = 28;

/** The quadratic non-residue ffjavascript takes for r (its smallest), whose odd power gives the roots. */
export const FR_NQR = 5n;

/** The primitive 2^FR_TWO_ADICITY-th root of unity: 5^((r - 1) / 2^28). */
export const FR_ROOT_MAX = powMod(FR_NQR, (FR_R - 1n) >> BigInt(FR_TWO_ADICITY), FR_R);

/** ω with ω^(2^logN) = 1 primitively: the root of the domain of 2^logN points snarkjs uses. */
export function frRootOfUnity(logN: number): bigint {
  if (!Number.isInteger(logN) || logN < 0 || logN > FR_TWO_ADICITY) throw new RangeError(`Fr has no 2^${logN}-th root of unity`);
  let w = FR_ROOT_MAX;
  for (let i = FR_TWO_ADICITY; i > logN; i--) w = (w * w) % FR_R;
  return w;
}

/** R = 2^256 mod r and its square: the 8 x 32-bit Montgomery layout. */
export const FR_MONT_R = mod(1n << 256n, FR_R);
export const FR_MONT_R2 = mod(FR_MONT_R * FR_MONT_R, FR_R);
/** -r^-1 mod 2^32, the CIOS per-limb reduction factor. */
export const FR_NP0 = Number(mod(-invMod(FR_R, 1n << 32n), 1n << 32n));

/**
 * snarkjs writes each coefficient of the zkey's A and B matrices as value·R² mod r (zkey_new.js),
 * so that one Montgomery product with a witness value in normal form gives the term's Montgomery
 * form. value = stored · R^-2 mod r.
 */
export const ZKEY_COEF_UNSCALE = invMod(FR_MONT_R2, FR_R);

/** Constants for WGSL (src/params/wgsl-consts.ts): Fr in the 8 x 32-bit Montgomery layout. */
export const BN254_FR_WGSL_CONSTS = {
  FR_P_LIMBS: toLimbs(FR_R),
  FR_NP0,
  FR_ONE_LIMBS: toLimbs(FR_MONT_R),
  FR_R2_LIMBS: toLimbs(FR_MONT_R2),
  // The 20 x 13-bit layout (wgsl/lib/bn254_fr13.gen.wgsl, R13 = 2^260): fr_mul13 computes fr_mul's a·b·2^-256.
  FR13_P_LIMBS: toLimbs13(FR_R),
  /** -r^-1 mod 2^13, the per-row reduction factor of the 13-bit layout. */
  FR13_MU: Number(mod(-invMod(FR_R, 1n << 13n), 1n << 13n)),
  FR13_R2_LIMBS: toLimbs13(mod(FQ13_R * FQ13_R, FR_R)),
} as const;
