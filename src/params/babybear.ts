/**
 * BabyBear parameters, every number derived from the modulus in code (nothing pasted
 * but p itself, the extension's W = 11 and the shape of p that the GPU reduction uses).
 * Plonky3 `p3-baby-bear` stores elements as x·2^32 mod p (MontyField31, MONTY_BITS = 32)
 * with MU = +p^-1 mod 2^32; we use the same Montgomery domain on the GPU.
 * @module
 */

/** p = 2^31 - 2^27 + 1 = 15·2^27 + 1 (0x78000001). */
export const BB_P = 2013265921;
export const BB_P_BIG = 2013265921n;

// The GPU computes hi(t·p) with two shifts instead of a multiply (wgsl/lib/babybear.wgsl),
// which needs p = 2^S1 - 2^S2 + 1. Checked at load so a changed p fails loudly.
export const BB_SHIFT_HI = 31;
export const BB_SHIFT_LO = 27;
if (2 ** BB_SHIFT_HI - 2 ** BB_SHIFT_LO + 1 !== BB_P) throw new Error('BabyBear: p is not 2^31 - 2^27 + 1');

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

/** Montgomery radix R = 2^32 (Plonky3 MONTY_BITS = 32). */
export const BB_MONTY_BITS = 32;
/** MU = p^-1 mod 2^32 (Plonky3 MONTY_MU, the + sign convention): 0x88000001. */
export const BB_MU = Number(invMod2e32(BB_P_BIG));
const R = 1n << 32n;
/** R mod p: the Montgomery form of 1. */
export const BB_R = Number(R % BB_P_BIG);
/** R^2 mod p: to_monty(x) = montMul(x, R^2). */
export const BB_R2 = Number((R * R) % BB_P_BIG);
/** R^3 mod p: montMul(inverse-of-monty, R^3) gives the Montgomery form of an inverse. */
export const BB_R3 = Number((R * R * R) % BB_P_BIG);

/** Two-adicity: p - 1 = ODD · 2^TWO_ADICITY. */
export const BB_TWO_ADICITY = (() => {
  let k = 0;
  for (let m = BB_P_BIG - 1n; (m & 1n) === 0n; m >>= 1n) k++;
  return k;
})();

/** Distinct prime factors of p - 1 (= 2^27 · 3 · 5), by trial division. */
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

/** The smallest generator of the multiplicative group (Plonky3 BabyBear::GENERATOR = 31). */
export const BB_GENERATOR = (() => {
  const factors = primeFactors(BB_P_BIG - 1n);
  for (let g = 2n; ; g++) {
    if (factors.every((q) => powModBig(g, (BB_P_BIG - 1n) / q, BB_P_BIG) !== 1n)) return Number(g);
  }
})();

/**
 * two_adic_generator(bits) for bits = 0..27: GENERATOR^((p-1)/2^bits), as Plonky3 defines it
 * (g27 = 31^15 = 0x1a427a41 and each lower entry is the square of the next).
 */
export const BB_TWO_ADIC_GENERATORS: readonly number[] = (() => {
  const out: number[] = [];
  for (let bits = 0; bits <= BB_TWO_ADICITY; bits++) {
    out.push(Number(powModBig(BigInt(BB_GENERATOR), (BB_P_BIG - 1n) >> BigInt(bits), BB_P_BIG)));
  }
  return out;
})();

/**
 * Shoup's precomputed quotient of a multiplier w < p: floor(w·2^31 / p) < 2^31. Then for x < p,
 * q = floor(x·w' / 2^31) is floor(x·w / p) or one less, so x·w − q·p lies in [0, 2p) and one
 * conditional subtraction reduces it (bb_mul_shoup in wgsl/lib/babybear.wgsl).
 */
export function bbShoupQuotient(w: number): number {
  // Long division in two exact steps of doubles (w·2^16 < 2^47, then the remainder·2^15 < 2^46)
  // instead of a BigInt division: the NTT's twiddle tables take one quotient per entry, and a
  // first call at a new size built its 1M-entry table in ~160-290 ms (the cold bench's other size).
  // A floating quotient may round up past the true one; the remainder's sign catches it.
  const a = w * 65536;
  let q1 = Math.floor(a / BB_P);
  let r1 = a - q1 * BB_P;
  if (r1 < 0) { q1--; r1 += BB_P; }
  const b = r1 * 32768;
  let q2 = Math.floor(b / BB_P);
  if (b - q2 * BB_P < 0) q2--;
  return q1 * 32768 + q2;
}

/** Degree-4 binomial extension F_p[X]/(X^4 - W), W = 11 as in Plonky3 BinomialExtensionData<4>. */
export const EXT4_W = 11;
// X^4 - W is irreducible when W is not a square (p ≡ 1 mod 4): checked by Euler's criterion.
if (powModBig(BigInt(EXT4_W), (BB_P_BIG - 1n) / 2n, BB_P_BIG) === 1n) throw new Error('EXT4_W must be a non-square');
