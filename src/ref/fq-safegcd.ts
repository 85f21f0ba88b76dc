/**
 * CPU twin of the WGSL Fq inversion (scripts/gen-bn254-inv.ts -> wgsl/lib/bn254_inv.gen.wgsl):
 * Bernstein-Yang divsteps ("safegcd", variable-time form), in the shader's exact integer
 * arithmetic — 32-bit wrapping products (Math.imul), arithmetic shifts, 19 signed limbs of 14
 * bits — so tests check the shader's algorithm, its bounds and its batch count without a GPU.
 *
 * Why this algorithm: the MSM walker's step waits on one inversion per workgroup, done by one
 * thread while the others idle, so what matters is the inversion's latency. The binary extended
 * Euclid took ~550 steps, each a chain of dependent 8-limb carries. Here 14 divsteps at a time
 * run on the low 32 bits only (a handful of word operations), and their 2x2 matrix is applied to
 * the full numbers once per batch: products of 14-bit limbs by matrix entries |u| + |v| <= 2^14
 * fit an i32 with no emulated 64-bit multiply, and each limb's products are independent, leaving
 * only a 3-operation carry chain per limb.
 *
 * State (all integers, limbs little-endian, top limb signed): f = p, g = x, d = 0, e = R^2 mod p
 * (R = 2^256), δ = 1/2 (the "half-delta" divsteps: on 20000 random inputs 37.0 batches on
 * average and at most 38, against 38.0 and 40 from δ = 1), kept as the integer δ - 1/2. Invariants: f ≡ d·x·R^-2 and g ≡ e·x·R^-2 (mod p). Each batch maps
 * (f, g) -> T·(f, g) / 2^14 exactly and (d, e) -> T·(d, e) / 2^14 mod p (adding the multiple of
 * p that makes the low 14 bits zero), keeping d, e in (-2p, p). When g reaches 0, f = ±1, so
 * ±d = R^2 / x: for x = aR (Montgomery form) that is a^-1·R, the Montgomery form of a^-1.
 * @module
 */
import { FQ_P, FQ_R, invMod, mod, toLimbsOf } from '../params/bn254.js';

/** Limb width and divsteps per batch. */
export const SG_BITS = 14;
/** Limbs: 19 x 14 = 266 bits hold d, e in (-2p, p) with a sign. */
export const SG_LIMBS = 19;
/**
 * Batch cap: 64 x 14 = 896 divsteps, past the 741-divstep bound for 256-bit inputs
 * (Bernstein-Yang); it only keeps a non-canonical input from hanging the GPU.
 */
export const SG_MAX_BATCHES = 64;

const MASK = (1 << SG_BITS) - 1;
/** p^-1 mod 2^14, for the multiple of p that clears d's low limb. */
export const SG_PINV = Number(invMod(FQ_P, 1n << BigInt(SG_BITS)));
/** R^2 mod p: the starting e, which turns the result into Montgomery form directly. */
export const SG_E0 = mod(FQ_R * FQ_R, FQ_P);

/** Nonnegative x < 2^266 as 14-bit limbs. */
export function sgLimbs(x: bigint): number[] {
  return toLimbsOf(x, SG_BITS, SG_LIMBS);
}

/** The integer of 14-bit limbs whose top limb is signed. */
export function sgValue(l: ArrayLike<number>): bigint {
  let x = 0n;
  for (let i = SG_LIMBS - 1; i >= 0; i--) x = (x << BigInt(SG_BITS)) + BigInt(l[i]);
  return x;
}

/** An i32 sum as the shader computes it; throws where the exact value would not fit (a bound broken). */
function i32(x: number): number {
  if (x > 0x7fffffff || x < -0x80000000) throw new Error(`safegcd: ${x} overflows i32`);
  return x | 0;
}

function ctz32(x: number): number {
  return x === 0 ? 32 : 31 - Math.clz32(x & -x);
}

export interface Divsteps {
  delta: number;
  u: number;
  v: number;
  q: number;
  r: number;
}

/**
 * 14 divsteps on the low 32 bits of f (odd) and g (u32), δ given as the integer δ - 1/2. Runs of
 * case-3 steps (g even) are one shift by ctz(g); runs where f stays fixed (δ < 0: at most -δ
 * steps in the integer form) are one addition of
 * w·f, w = -g/f mod 2^k, with 1/f mod 2^24 by three Newton steps from f (valid mod 8). Every bit
 * used is still valid: after k steps g's low 32 - k >= 18 bits are known, and k <= 14.
 */
export function sgDivsteps(delta0: number, f0: number, g0: number): Divsteps {
  let delta = delta0,
    f = f0 >>> 0,
    g = g0 >>> 0;
  let u = 1,
    v = 0,
    q = 0,
    r = 1,
    i = SG_BITS;
  for (;;) {
    const z = ctz32((g | (0xffffffff << i)) >>> 0);
    g >>>= z;
    u = i32(u * 2 ** z);
    v = i32(v * 2 ** z);
    delta += z;
    i -= z;
    if (i === 0) break;
    if (delta >= 0) {
      // Case 1 (δ > 0, g odd) as a swap (f, g) <- (g, -f), after which it is case 2.
      delta = -delta - 1;
      const t = f;
      f = g;
      g = (0 - t) >>> 0;
      const tu = u,
        tv = v;
      u = q;
      v = r;
      q = -tu;
      r = -tv;
    }
    const limit = Math.min(-delta, i);
    let x = f;
    for (let k = 0; k < 3; k++) x = Math.imul(x, (2 - Math.imul(f, x)) >>> 0) >>> 0;
    const w = (Math.imul(0 - g, x) & ((1 << limit) - 1)) >>> 0;
    g = (g + Math.imul(w, f)) >>> 0;
    q = i32(q + w * u);
    r = i32(r + w * v);
  }
  return { delta, u, v, q, r };
}

/** (a, b) <- (u·a + v·b, q·a + r·b) / 2^14, exact (the low limb is zero by construction). */
function updateFg(a: number[], b: number[], t: Divsteps): void {
  let ca = i32(t.u * a[0] + t.v * b[0]),
    cb = i32(t.q * a[0] + t.r * b[0]);
  if ((ca & MASK) !== 0 || (cb & MASK) !== 0) throw new Error('safegcd: f, g not divisible');
  ca >>= SG_BITS;
  cb >>= SG_BITS;
  for (let i = 1; i < SG_LIMBS; i++) {
    ca = i32(ca + i32(t.u * a[i] + t.v * b[i]));
    cb = i32(cb + i32(t.q * a[i] + t.r * b[i]));
    a[i - 1] = ca & MASK;
    b[i - 1] = cb & MASK;
    ca >>= SG_BITS;
    cb >>= SG_BITS;
  }
  a[SG_LIMBS - 1] = ca;
  b[SG_LIMBS - 1] = cb;
}

/**
 * (d, e) <- (u·d + v·e, q·d + r·e) / 2^14 mod p. md, me start at the entries of the negative
 * inputs (which keeps the results in (-2p, p)), then move down by less than 2^14 to the multiple
 * of p that zeroes the low limb: |md| < 2^15, so every limb sum stays under 2^30.
 */
function updateDe(d: number[], e: number[], t: Divsteps, P: number[]): void {
  const dneg = d[SG_LIMBS - 1] < 0,
    eneg = e[SG_LIMBS - 1] < 0;
  let md = (dneg ? t.u : 0) + (eneg ? t.v : 0),
    me = (dneg ? t.q : 0) + (eneg ? t.r : 0);
  let cd = i32(t.u * d[0] + t.v * e[0]),
    ce = i32(t.q * d[0] + t.r * e[0]);
  md -= (Math.imul(SG_PINV, cd) + md) & MASK;
  me -= (Math.imul(SG_PINV, ce) + me) & MASK;
  cd = i32(cd + P[0] * md);
  ce = i32(ce + P[0] * me);
  if ((cd & MASK) !== 0 || (ce & MASK) !== 0) throw new Error('safegcd: d, e not divisible');
  cd >>= SG_BITS;
  ce >>= SG_BITS;
  for (let i = 1; i < SG_LIMBS; i++) {
    cd = i32(cd + i32(i32(t.u * d[i] + t.v * e[i]) + P[i] * md));
    ce = i32(ce + i32(i32(t.q * d[i] + t.r * e[i]) + P[i] * me));
    d[i - 1] = cd & MASK;
    e[i - 1] = ce & MASK;
    cd >>= SG_BITS;
    ce >>= SG_BITS;
  }
  d[SG_LIMBS - 1] = cd;
  e[SG_LIMBS - 1] = ce;
}

/** a <- s·a + k·P in one carry pass (s = ±1, k small): the final normalization's step. */
function mulAddP(a: number[], s: number, k: number, P: number[]): void {
  let c = 0;
  for (let i = 0; i < SG_LIMBS; i++) {
    c = i32(c + s * a[i] + k * P[i]);
    a[i] = i === SG_LIMBS - 1 ? c : c & MASK;
    c >>= SG_BITS;
  }
}

/** Low 32 bits of limbs 0..2 (14 + 14 + 4 bits). */
function low32(a: number[]): number {
  return (a[0] + a[1] * 2 ** 14 + ((a[2] << 28) >>> 0)) >>> 0;
}

/**
 * x^-1 · R^2 mod p for x in [0, p) (0 gives 0), and the batches it took, by the shader's steps.
 * For x = aR that is a^-1 in Montgomery form.
 */
export function fqInvSafegcd(x: bigint): { inv: bigint; batches: number } {
  const P = sgLimbs(FQ_P);
  const f = [...P],
    g = sgLimbs(x),
    d = sgLimbs(0n),
    e = sgLimbs(SG_E0);
  let delta = 0,
    batches = 0;
  for (; batches < SG_MAX_BATCHES; batches++) {
    if (g.every((l) => l === 0)) break;
    const t = sgDivsteps(delta, low32(f), low32(g));
    delta = t.delta;
    updateDe(d, e, t, P);
    updateFg(f, g, t);
    const dv = sgValue(d),
      ev = sgValue(e);
    if (dv <= -2n * FQ_P || dv >= FQ_P || ev <= -2n * FQ_P || ev >= FQ_P) throw new Error('safegcd: d, e left (-2p, p)');
  }
  // f = ±1: d·sign(f), then into [0, p) (from (-2p, 2p): add p while negative, then maybe subtract p).
  mulAddP(d, f[SG_LIMBS - 1] < 0 ? -1 : 1, 0, P);
  if (d[SG_LIMBS - 1] < 0) mulAddP(d, 1, 1, P);
  if (d[SG_LIMBS - 1] < 0) mulAddP(d, 1, 1, P);
  const t = [...d];
  mulAddP(t, 1, -1, P);
  return { inv: sgValue(t[SG_LIMBS - 1] < 0 ? d : t), batches };
}
