/**
 * BN254 G2: the twist E'(Fq2): y^2 = x^3 + b' with b' = 3 / (9 + u) over Fq2 = Fq[u]/(u^2 + 1)
 * (EIP-197; noble's bn254 G2 has the same b'), and the word layouts of the G2 MSM's buffers
 * (src/kernels/g2msm/). b' and 3·b' are derived here from the definition, never typed in; the
 * WGSL reads them in Montgomery form as the constants of BN254_G2_WGSL_CONSTS.
 * @module
 */
import { FQ_LIMBS, FQ_P, invMod, mod, toLimbs, toMont } from './bn254.js';

/** An Fq2 element c0 + c1·u, coordinates in [0, q). */
export interface Fq2Value {
  readonly c0: bigint;
  readonly c1: bigint;
}

/** 1 / (a + b·u) = (a - b·u) / (a^2 + b^2), since u^2 = -1. */
function fq2Inv({ c0, c1 }: Fq2Value): Fq2Value {
  const d = invMod(mod(c0 * c0 + c1 * c1, FQ_P), FQ_P);
  return { c0: mod(c0 * d, FQ_P), c1: mod(-c1 * d, FQ_P) };
}

const scale = (k: bigint, { c0, c1 }: Fq2Value): Fq2Value => ({ c0: mod(k * c0, FQ_P), c1: mod(k * c1, FQ_P) });

/** The twist's b' = 3 / (9 + u). */
export const G2_B: Fq2Value = scale(3n, fq2Inv({ c0: 9n, c1: 1n }));
/** 3·b', the constant of the complete projective formulas (Renes-Costello-Batina 2015, a = 0). */
export const G2_B3: Fq2Value = scale(3n, G2_B);

/** Words of the G2 MSM's records. */
export const G2_WORDS = Object.freeze({
  /** an Fq2 element: c0 then c1, 8 little-endian words each */
  fq2: 2 * FQ_LIMBS,
  /** a base point as a snarkjs zkey stores it: x.c0, x.c1, y.c0, y.c1 in Montgomery form; all zero = identity */
  affine: 4 * FQ_LIMBS,
  /** a projective point (X : Y : Z), each an Fq2 in Montgomery form: bucket sums */
  projective: 6 * FQ_LIMBS,
  /** a partial bucket sum between accumulation levels: its bucket's key, then a projective point */
  part: 1 + 6 * FQ_LIMBS,
  /** a reduction pair (W, S): two projective points */
  pair: 12 * FQ_LIMBS,
});

/** The key of an empty partial slot: above every bucket, so the slots stay sorted by key. */
export const G2_NO_KEY = 0xffffffff;

/** Constants for WGSL (src/params/wgsl-consts.ts). */
export const BN254_G2_WGSL_CONSTS = {
  FQ2_B_C0_LIMBS: toLimbs(toMont(G2_B.c0)),
  FQ2_B_C1_LIMBS: toLimbs(toMont(G2_B.c1)),
  FQ2_B3_C0_LIMBS: toLimbs(toMont(G2_B3.c0)),
  FQ2_B3_C1_LIMBS: toLimbs(toMont(G2_B3.c1)),
  G2_FQ2_WORDS: G2_WORDS.fq2,
  G2_AFFINE_WORDS: G2_WORDS.affine,
  G2_PROJ_WORDS: G2_WORDS.projective,
  G2_PART_WORDS: G2_WORDS.part,
  G2_PAIR_WORDS: G2_WORDS.pair,
  G2_NO_KEY,
} as const;
