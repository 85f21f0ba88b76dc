/**
 * The numbers WGSL may use, by name: the linker (scripts/gen-wgsl.ts) lets a kernel reference
 * these without declaring them, and src/gpu/wgsl.ts prepends `const NAME: u32 = ...u;` for
 * exactly the ones a kernel uses. Any other SCREAMING_CASE name a kernel uses is a plan
 * constant (workgroup size, iteration count) that the host must supply when it builds the
 * pipeline. Nothing here is written as a literal in a .wgsl file.
 * @module
 */
import { BB_MU, BB_P, BB_R, BB_R2, BB_SHIFT_HI, BB_SHIFT_LO, EXT4_W } from './babybear.js';
import { BN254_WGSL_CONSTS } from './bn254.js';

/** A WGSL u32 scalar or a u32 array constant. */
export type WgslConst = number | readonly number[];

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
  ...BN254_WGSL_CONSTS,
};
