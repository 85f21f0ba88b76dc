/**
 * A 31-bit prime field in Montgomery form as one parameter record, Plonky3's `MontyField31`
 * pattern (p3-monty-31): the modulus and its shape are given, every other number (MU, R mod p,
 * two-adic generators) is derived here in code. Host math (src/field/monty31-ops.ts) and the
 * WGSL preamble (src/params/wgsl-consts.ts) are built from a record, so a second field is a
 * record, not a fork. Elements are stored as x·2^32 mod p with MU = +p^-1 mod 2^32, as in Plonky3.
 * @module
 */

/** The fields this library knows by name (the `field` option of the public API). */
export type FieldName = 'babybear' | 'koalabear';

export interface Monty31Params {
  readonly name: FieldName;
  /** For messages: 'BabyBear'. */
  readonly label: string;
  /** p = 2^shiftHi - 2^shiftLo + 1 < 2^31. */
  readonly p: number;
  readonly pBig: bigint;
  /**
   * The GPU computes hi(t·p) with two shifts instead of a multiply (bb_mulhi_p in
   * wgsl/lib/babybear.wgsl), which needs p = 2^shiftHi - 2^shiftLo + 1; the Poseidon2 x·2^-k
   * (p2s_div2k) needs the same shape.
   */
  readonly shiftHi: number;
  readonly shiftLo: number;
  /** Montgomery radix bits (Plonky3 MONTY_BITS = 32). */
  readonly montyBits: 32;
  /** p^-1 mod 2^32 (Plonky3 MONTY_MU, the + sign convention). */
  readonly mu: number;
  /** R mod p: the Montgomery form of 1. */
  readonly one: number;
  /** R^2 mod p: toMonty(x) = montMul(x, R^2). */
  readonly r2: number;
  /** R^3 mod p: montMul(inverse-of-monty, R^3) is the Montgomery form of an inverse. */
  readonly r3: number;
  /** p - 1 = odd · 2^twoAdicity. */
  readonly twoAdicity: number;
  /** The smallest generator of the multiplicative group (Plonky3 MONTY_GEN). */
  readonly generator: number;
  /** two_adic_generator(bits) = generator^((p-1)/2^bits), bits = 0..twoAdicity. */
  readonly twoAdicGenerators: readonly number[];
  /** W of the degree-4 binomial extension F_p[X]/(X^4 - W) (Plonky3 BinomialExtensionData<4>). */
  readonly ext4W: number;
}

const MASK32 = (1n << 32n) - 1n;

/** x^e mod m, BigInt square-and-multiply. */
export function powModBig(x: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  let b = ((x % m) + m) % m;
  for (let k = e; k > 0n; k >>= 1n) {
    if (k & 1n) r = (r * b) % m;
    b = (b * b) % m;
  }
  return r;
}

/** Inverse of an odd a modulo 2^32 by Newton iteration (each step doubles the correct bits). */
function invMod2e32(a: bigint): bigint {
  let x = a; // correct to 3 bits for odd a
  for (let i = 0; i < 5; i++) x = (x * (2n - a * x)) & MASK32;
  return x;
}

/** Distinct prime factors of n, by trial division (n = p - 1 has small odd part here). */
function primeFactors(n: bigint): bigint[] {
  const out: bigint[] = [];
  for (let q = 2n; q * q <= n; q++) {
    if (n % q === 0n) {
      out.push(q);
      while (n % q === 0n) n /= q;
    }
  }
  if (n > 1n) out.push(n);
  return out;
}

/**
 * The whole record from the modulus' shape and the extension's W. Throws if p is not a 31-bit
 * value of the form the GPU reduction assumes or W is a square (X^4 - W would not be irreducible).
 */
export function defineMonty31(name: FieldName, shape: { label: string; shiftHi: number; shiftLo: number; ext4W: number }): Monty31Params {
  const { label, shiftHi, shiftLo, ext4W } = shape;
  const pBig = (1n << BigInt(shiftHi)) - (1n << BigInt(shiftLo)) + 1n;
  if (shiftHi !== 31 || shiftLo < 1 || shiftLo >= shiftHi) throw new Error(`${name}: p must be 2^31 - 2^k + 1`);
  const p = Number(pBig);
  const R = 1n << 32n;
  let twoAdicity = 0;
  for (let m = pBig - 1n; (m & 1n) === 0n; m >>= 1n) twoAdicity++;
  const factors = primeFactors(pBig - 1n);
  let g = 2n;
  while (!factors.every((q) => powModBig(g, (pBig - 1n) / q, pBig) !== 1n)) g++;
  if (powModBig(BigInt(ext4W), (pBig - 1n) / 2n, pBig) === 1n) throw new Error(`${name}: W = ${ext4W} must be a non-square`);
  return Object.freeze({
    name,
    label,
    p,
    pBig,
    shiftHi,
    shiftLo,
    montyBits: 32,
    ext4W,
    mu: Number(invMod2e32(pBig)),
    one: Number(R % pBig),
    r2: Number((R * R) % pBig),
    r3: Number((R * R * R) % pBig),
    twoAdicity,
    generator: Number(g),
    twoAdicGenerators: Object.freeze(
      Array.from({ length: twoAdicity + 1 }, (_, bits) => Number(powModBig(g, (pBig - 1n) >> BigInt(bits), pBig))),
    ),
  });
}

/**
 * Shoup's precomputed quotient of a multiplier w < p: floor(w·2^31 / p) < 2^31. Then for x < p,
 * q = floor(x·w' / 2^31) is floor(x·w / p) or one less, so x·w − q·p lies in [0, 2p) and one
 * conditional subtraction reduces it (bb_mul_shoup in wgsl/lib/babybear.wgsl).
 */
export function shoupQuotient(p: number, w: number): number {
  // Long division in two exact steps of doubles (w·2^16 < 2^47, then the remainder·2^15 < 2^46)
  // instead of a BigInt division: the NTT's twiddle tables take one quotient per entry, and a
  // first call at a new size built its 1M-entry table in ~160-290 ms (the cold bench's other size).
  // A floating quotient may round up past the true one; the remainder's sign catches it.
  const a = w * 65536;
  let q1 = Math.floor(a / p);
  let r1 = a - q1 * p;
  if (r1 < 0) {
    q1--;
    r1 += p;
  }
  const b = r1 * 32768;
  let q2 = Math.floor(b / p);
  if (b - q2 * p < 0) q2--;
  return q1 * 32768 + q2;
}
