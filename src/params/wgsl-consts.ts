/**
 * The numbers WGSL may use, by name: the linker (scripts/gen-wgsl.ts) lets a kernel reference
 * these without declaring them, and src/gpu/wgsl.ts prepends `const NAME: u32 = ...u;` for
 * exactly the ones a kernel uses. Any other SCREAMING_CASE name a kernel uses is a plan
 * constant (workgroup size, iteration count) that the host must supply when it builds the
 * pipeline. Nothing here is written as a literal in a .wgsl file.
 *
 * The 31-bit field's names (BB_P, BB_MU, ...: the prefix is historical) take their values from
 * a field record, so a pipeline request that names KoalaBear gets the same WGSL with KoalaBear's
 * numbers (wgslParamConsts); BabyBear is the default.
 * @module
 */
import { BABY_BEAR } from './babybear.js';
import { BN254_WGSL_CONSTS } from './bn254.js';
import { BN254_G2_WGSL_CONSTS } from './bn254-g2.js';
import { BN254_FR_WGSL_CONSTS } from './bn254-fr.js';
import { MSM_WGSL_CONSTS } from './msm-layout.js';
import { MONTY31_FIELDS, type FieldName } from './fields.js';
import { shoupQuotient, type Monty31Params } from './monty31.js';

/** A WGSL u32 scalar or a u32 array constant. */
export type WgslConst = number | readonly number[];

/** The field constants of `F` under their WGSL names. */
export function fieldWgslConsts(F: Monty31Params): Readonly<Record<string, WgslConst>> {
  const P = BigInt(F.p);
  const mod = (x: bigint) => Number(((x % P) + P) % P);
  // ω_32^i for i < 32, canonical.
  const roots32 = Array.from({ length: 32 }, (_, i) => Number(BigInt(F.twoAdicGenerators[5]) ** BigInt(i) % P));
  return {
    BB_P: F.p,
    BB_MU: F.mu,
    BB_ONE: F.one,
    BB_R2: F.r2,
    BB_SHIFT_HI: F.shiftHi,
    BB_SHIFT_LO: F.shiftLo,
    // W in Montgomery form: W·R mod p.
    EXT4_W_MONTY: mod(BigInt(F.ext4W) << 32n),
    // ω_32^i, i < 32, in Montgomery form: the NTT's butterfly roots as compile-time constants, so
    // the compiler folds their 16-bit halves into each multiply (no register or split per use).
    BB_ROOTS_32: roots32.map((w) => mod(BigInt(w) << 32n)),
    // The same roots plain, and their Shoup quotients (bb_mul_shoup).
    BB_ROOTS_32_PLAIN: roots32,
    BB_ROOTS_32_SHOUP: roots32.map((w) => shoupQuotient(F.p, w)),
  };
}

/** Every named constant with BabyBear's field values (the default of every pipeline). */
export const WGSL_PARAM_CONSTS: Readonly<Record<string, WgslConst>> = {
  ...fieldWgslConsts(BABY_BEAR),
  ...BN254_WGSL_CONSTS,
  ...BN254_G2_WGSL_CONSTS,
  ...BN254_FR_WGSL_CONSTS,
  ...MSM_WGSL_CONSTS,
};

const byField = new Map<FieldName, Readonly<Record<string, WgslConst>>>([['babybear', WGSL_PARAM_CONSTS]]);

/** The named constants a pipeline over `field` sees: that field's numbers, the same BN254 ones. */
export function wgslParamConsts(field: FieldName = 'babybear'): Readonly<Record<string, WgslConst>> {
  let consts = byField.get(field);
  if (!consts) {
    consts = { ...fieldWgslConsts(MONTY31_FIELDS[field]), ...BN254_WGSL_CONSTS, ...BN254_G2_WGSL_CONSTS, ...MSM_WGSL_CONSTS };
    byField.set(field, consts);
  }
  return consts;
}
