/**
 * BabyBear's parameter record and its constants under the names the code has always used
 * (BB_P, BB_MU, ...). The record is derived in src/params/monty31.ts from the modulus' shape and
 * W = 11, as Plonky3 `p3-baby-bear` defines the field (MontyField31, MONTY_BITS = 32,
 * MU = +p^-1 mod 2^32); the same Montgomery domain runs on the GPU.
 * @module
 */
import { defineMonty31, powModBig, shoupQuotient } from './monty31.js';

export { powModBig };

/** The BabyBear record: p = 2^31 - 2^27 + 1 = 15·2^27 + 1 (0x78000001), W = 11. */
export const BABY_BEAR = defineMonty31('babybear', { label: 'BabyBear', shiftHi: 31, shiftLo: 27, ext4W: 11 });

/** p = 2^31 - 2^27 + 1 = 15·2^27 + 1 (0x78000001). */
export const BB_P = BABY_BEAR.p;
export const BB_P_BIG = BABY_BEAR.pBig;

/** The shape of p the GPU reduction uses: p = 2^BB_SHIFT_HI - 2^BB_SHIFT_LO + 1. */
export const BB_SHIFT_HI = BABY_BEAR.shiftHi;
export const BB_SHIFT_LO = BABY_BEAR.shiftLo;

/** Montgomery radix R = 2^32 (Plonky3 MONTY_BITS = 32). */
export const BB_MONTY_BITS = BABY_BEAR.montyBits;
/** MU = p^-1 mod 2^32 (Plonky3 MONTY_MU, the + sign convention): 0x88000001. */
export const BB_MU = BABY_BEAR.mu;
/** R mod p: the Montgomery form of 1. */
export const BB_R = BABY_BEAR.one;
/** R^2 mod p: to_monty(x) = montMul(x, R^2). */
export const BB_R2 = BABY_BEAR.r2;
/** R^3 mod p: montMul(inverse-of-monty, R^3) gives the Montgomery form of an inverse. */
export const BB_R3 = BABY_BEAR.r3;

/** Two-adicity: p - 1 = ODD · 2^TWO_ADICITY (27). */
export const BB_TWO_ADICITY = BABY_BEAR.twoAdicity;

/** The smallest generator of the multiplicative group (Plonky3 BabyBear::GENERATOR = 31). */
export const BB_GENERATOR = BABY_BEAR.generator;

/**
 * two_adic_generator(bits) for bits = 0..27: GENERATOR^((p-1)/2^bits), as Plonky3 defines it
 * (g27 = 31^15 = 0x1a427a41 and each lower entry is the square of the next).
 */
export const BB_TWO_ADIC_GENERATORS: readonly number[] = BABY_BEAR.twoAdicGenerators;

/** Shoup's quotient floor(w·2^31 / p) of a BabyBear multiplier w < p (params/monty31.ts shoupQuotient). */
export function bbShoupQuotient(w: number): number {
  return shoupQuotient(BB_P, w);
}

/** Degree-4 binomial extension F_p[X]/(X^4 - W), W = 11 as in Plonky3 BinomialExtensionData<4>. */
export const EXT4_W = BABY_BEAR.ext4W;
