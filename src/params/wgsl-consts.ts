/**
 * The numbers WGSL may use, by name: the linker (scripts/gen-wgsl.ts) lets a kernel reference
 * these without declaring them, and src/gpu/wgsl.ts prepends `const NAME: u32 = ...u;` for
 * exactly the ones a kernel uses. Any other SCREAMING_CASE name a kernel uses is a plan
 * constant (workgroup size, iteration count) that the host must supply when it builds the
 * pipeline. Nothing here is written as a literal in a .wgsl file.
 * @module
 */
import { BB_MU, BB_P, BB_R, BB_R2, BB_SHIFT_HI, BB_SHIFT_LO, BB_TWO_ADIC_GENERATORS, bbShoupQuotient, EXT4_W } from './babybear.js';
import { BN254_WGSL_CONSTS } from './bn254.js';
import { MSM_WGSL_CONSTS } from './msm-layout.js';

/** A WGSL u32 scalar or a u32 array constant. */
export type WgslConst = number | readonly number[];

/** ω_32^i for i < 32, canonical. */
const ROOTS_32: number[] = Array.from({ length: 32 }, (_, i) => Number(BigInt(BB_TWO_ADIC_GENERATORS[5]) ** BigInt(i) % BigInt(BB_P)));

const mod = (x: bigint) => Number(((x % BigInt(BB_P)) + BigInt(BB_P)) % BigInt(BB_P));

export const WGSL_PARAM_CONSTS: Readonly<Record<string, WgslConst>> = {
  BB_P,
  BB_MU,
  BB_ONE: BB_R,
  BB_R2,
  BB_SHIFT_HI,
  BB_SHIFT_LO,
  // W in Montgomery form: W·R mod p.
  EXT4_W_MONTY: mod(BigInt(EXT4_W) << 32n),
  // ω_32^i, i < 32, in Montgomery form: the NTT's butterfly roots as compile-time constants, so
  // the compiler folds their 16-bit halves into each multiply (no register or split per use).
  BB_ROOTS_32: ROOTS_32.map((w) => mod(BigInt(w) << 32n)),
  // The same roots plain, and their Shoup quotients (bb_mul_shoup).
  BB_ROOTS_32_PLAIN: ROOTS_32,
  BB_ROOTS_32_SHOUP: ROOTS_32.map(bbShoupQuotient),
  ...BN254_WGSL_CONSTS,
  ...MSM_WGSL_CONSTS,
};
