/**
 * BN254 (alt_bn128) constants: base field Fq, scalar field Fr, G1 (y^2 = x^3 + 3), and the
 * 8 x 32-bit Montgomery layout the WGSL field (wgsl/lib/bn254_fq.gen.wgsl) uses. Everything
 * derived is computed here from the two moduli, never typed in.
 * @module
 */

/** Fq, the base field of G1 (254 bits). */
export const FQ_P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
/** r, the order of G1 and the scalar field (254 bits). */
export const FR_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
/** G1: y^2 = x^3 + B. */
export const G1_B = 3n;

/** 8 limbs of 32 bits, little-endian: R = 2^256. */
export const FQ_LIMBS = 8;
export const FQ_LIMB_BITS = 32;
export const FQ_R = 1n << 256n;

export function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

export function powMod(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b = mod(b, m);
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return r;
}

export function invMod(a: bigint, m: bigint): bigint {
  // Extended Euclid: a must be nonzero mod m.
  let [r0, r1, s0, s1] = [mod(a, m), m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new RangeError('invMod: not invertible');
  return mod(s0, m);
}

/** bigint in [0, 2^256) -> 8 little-endian u32 limbs. */
export function toLimbs(x: bigint, limbs = FQ_LIMBS): number[] {
  const out: number[] = [];
  for (let i = 0; i < limbs; i++) out.push(Number((x >> BigInt(32 * i)) & 0xffffffffn));
  return out;
}

/** bigint in [0, 2^256) -> 32 big-endian bytes at out[at..at + 32) (the packed point and scalar format). */
export function beBytes32<T extends Uint8Array>(x: bigint, out: T = new Uint8Array(32) as T, at = 0): T {
  for (let i = 0; i < 32; i++) out[at + 31 - i] = Number((x >> BigInt(8 * i)) & 0xffn);
  return out;
}

/** 32 big-endian bytes at b[at..at + 32) -> bigint. */
export function fromBeBytes32(b: ArrayLike<number>, at = 0): bigint {
  let x = 0n;
  for (let i = 0; i < 32; i++) x = (x << 8n) | BigInt(b[at + i]);
  return x;
}

export function fromLimbs(v: ArrayLike<number>, off = 0, limbs = FQ_LIMBS): bigint {
  let x = 0n;
  for (let i = limbs - 1; i >= 0; i--) x = (x << 32n) | BigInt(v[off + i] >>> 0);
  return x;
}

export const FQ_R_MOD = mod(FQ_R, FQ_P);
export const FQ_R2 = mod(FQ_R * FQ_R, FQ_P);
/** -p^-1 mod 2^32, the CIOS per-limb reduction factor. */
export const FQ_NP0 = Number(mod(-invMod(FQ_P, 1n << 32n), 1n << 32n));

/** Montgomery form x·R mod p and back. */
export const toMont = (x: bigint): bigint => mod(x * FQ_R, FQ_P);
const FQ_R_INV = invMod(FQ_R, FQ_P);
export const fromMont = (x: bigint): bigint => mod(x * FQ_R_INV, FQ_P);

/**
 * The alternative layout (wgsl/lib/bn254_fq13.gen.wgsl): 20 limbs of 13 bits, R13 = 2^260. 13 bits is
 * the widest limb for which 40 limb products (2 per row, 20 rows) fit a u32 accumulator
 * (40·(2^13-1)^2 < 2^31.4), so the Montgomery rows need no carries.
 */
export const FQ13_LIMBS = 20;
export const FQ13_LIMB_BITS = 13;
export const FQ13_R = 1n << 260n;
/** -p^-1 mod 2^13, the per-row reduction factor of the 13-bit layout. */
export const FQ13_MU = Number(mod(-invMod(FQ_P, 1n << 13n), 1n << 13n));

/** Nonnegative x < 2^(bits·n) -> n little-endian limbs of `bits` bits (bits < 32). */
export function toLimbsOf(x: bigint, bits: number, n: number): number[] {
  const mask = (1n << BigInt(bits)) - 1n;
  return Array.from({ length: n }, (_, i) => Number((x >> BigInt(bits * i)) & mask));
}

/** bigint in [0, 2^260) -> 20 little-endian 13-bit limbs. */
export function toLimbs13(x: bigint): number[] {
  return toLimbsOf(x, 13, FQ13_LIMBS);
}

/** Sum of limbs·2^(13i); limbs may exceed 13 bits (unnormalized accumulators). */
export function fromLimbs13(v: ArrayLike<number>, off = 0): bigint {
  let x = 0n;
  for (let i = FQ13_LIMBS - 1; i >= 0; i--) x = (x << 13n) + BigInt(v[off + i] >>> 0);
  return x;
}

/**
 * Constants for WGSL (src/params/wgsl-consts.ts). B3 = 3·B = 9 in Montgomery form is the
 * constant of the complete projective formulas (Renes-Costello-Batina 2015, a = 0).
 */
export const BN254_WGSL_CONSTS = {
  FQ_P_LIMBS: toLimbs(FQ_P),
  FQ_NP0,
  FQ_ONE_LIMBS: toLimbs(FQ_R_MOD),
  FQ_R2_LIMBS: toLimbs(FQ_R2),
  FQ_B3_LIMBS: toLimbs(toMont(3n * G1_B)),
  FQ_B_LIMBS: toLimbs(toMont(G1_B)),
  FQ13_P_LIMBS: toLimbs13(FQ_P),
  FQ13_MU,
  FQ13_R2_LIMBS: toLimbs13(mod(FQ13_R * FQ13_R, FQ_P)),
  /** r, the scalar field's modulus: msm_split's range check of the caller's scalars. */
  FR_R_LIMBS: toLimbs(FR_R),
} as const;
