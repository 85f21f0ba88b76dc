/**
 * BabyBear Poseidon2 at width 16 for host-side hashing in bulk (the WHIR verifier's Merkle leaves
 * and nodes, the transcript's sponge): the same permutation as src/ref/poseidon2.ts, which stays
 * the readable twin of the WGSL, about 4x faster: products are babybear-fast.ts's; the linear
 * layers' sums stay unreduced in doubles (at most 35·p < 2^37, exact) and are reduced once per
 * lane; the round constants sit in flat typed arrays; the state is a Float64Array permuted in
 * place, so a permutation allocates nothing.
 * @module
 */
import { BB_P } from '../params/babybear.js';
import { bbMulFast, bbReduceWide } from './babybear-fast.js';
import { POSEIDON2_DEFAULT_16, POSEIDON2_DIAG_16, type Poseidon2Constants } from '../params/poseidon2-babybear.js';

const P = BB_P;
const INV_P = 1 / P;
const WIDTH = 16;
const reduce = bbReduceWide;

/**
 * a·b mod p up to one p either way: bbMulFast without its correction. Its proof holds for any
 * |a|, |b| < 2^31 + 2^11, so the result, in (−2^11, p + 2^11), can feed the next product directly.
 */
function mulLoose(a: number, b: number): number {
  return (Math.imul(a, b) - Math.imul(Math.floor(a * b * INV_P), P)) | 0;
}

/** x^7 as x^4·x^3: four products, three deep; only the last is corrected. */
function pow7(x: number): number {
  const x2 = mulLoose(x, x);
  return bbMulFast(mulLoose(x2, x2), mulLoose(x2, x));
}

/** A constant set laid out for the loops below: 8 full rounds of 16 constants, then the partial ones. */
export interface Poseidon2Bb16 {
  readonly full: Float64Array;
  readonly partial: Float64Array;
  readonly diag: Float64Array;
  /** V_i as a signed integer where it is ±1..4, else 0. */
  readonly small: Float64Array;
}

/** Lay out a BabyBear width-16 constant set (Plonky3's default when omitted). */
export function poseidon2Bb16(constants: Poseidon2Constants = POSEIDON2_DEFAULT_16): Poseidon2Bb16 {
  const rounds = [...constants.externalInitial, ...constants.externalFinal];
  if (rounds.length !== 8 || rounds.some((r) => r.length !== WIDTH))
    throw new RangeError('Poseidon2-16 needs 8 external rounds of 16 constants');
  const signed = (v: number) => (v > P / 2 ? v - P : v);
  return {
    full: Float64Array.from(rounds.flat()),
    partial: Float64Array.from(constants.internal),
    diag: Float64Array.from(POSEIDON2_DIAG_16),
    small: Float64Array.from(POSEIDON2_DIAG_16, (v) => (Math.abs(signed(v)) <= 4 ? signed(v) : 0)),
  };
}

const DEFAULT = poseidon2Bb16();

/**
 * M_E = circ(2·M4, M4, M4, M4) on s[o..o+16]: M4 on each 4-lane chunk (Plonky3's addition chain
 * evaluates [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]), then each lane adds its column's sum.
 * Lanes in [0, p) come out unreduced, below 35·p.
 */
function externalLayer(s: Float64Array): void {
  for (let o = 0; o < WIDTH; o += 4) {
    const x0 = s[o],
      x1 = s[o + 1],
      x2 = s[o + 2],
      x3 = s[o + 3];
    const t01 = x0 + x1,
      t23 = x2 + x3,
      t0123 = t01 + t23;
    s[o] = t0123 + x1 + t01;
    s[o + 1] = t0123 + x1 + 2 * x2;
    s[o + 2] = t0123 + x3 + t23;
    s[o + 3] = t0123 + x3 + 2 * x0;
  }
  for (let i = 0; i < 4; i++) {
    const sum = s[i] + s[i + 4] + s[i + 8] + s[i + 12];
    s[i] += sum;
    s[i + 4] += sum;
    s[i + 8] += sum;
    s[i + 12] += sum;
  }
}

/** A full round on lanes below 35·p: add the constants, reduce, S-box every lane, M_E. */
function fullRound(s: Float64Array, full: Float64Array, o: number): void {
  for (let i = 0; i < WIDTH; i++) s[i] = pow7(reduce(s[i] + full[o + i]));
  externalLayer(s);
}

/**
 * Permute the 16 canonical values of `s` in place. In the partial rounds M_I = J + diag(V) takes
 * V_i·s_i as a plain product where V_i is ±1..4 (exact, below 2^34) and a field product elsewhere.
 */
export function permuteBb16(s: Float64Array, c: Poseidon2Bb16 = DEFAULT): void {
  const { full, partial, diag, small } = c;
  externalLayer(s);
  for (let r = 0; r < 4; r++) fullRound(s, full, r * WIDTH);
  for (let i = 0; i < WIDTH; i++) s[i] = reduce(s[i]);
  for (let k = 0; k < partial.length; k++) {
    s[0] = pow7(reduce(s[0] + partial[k]));
    let sum = 0;
    for (let i = 0; i < WIDTH; i++) sum += s[i];
    for (let i = 0; i < WIDTH; i++) {
      const v = small[i];
      s[i] = reduce(sum + (v !== 0 ? v * s[i] : bbMulFast(diag[i], s[i])));
    }
  }
  for (let r = 4; r < 8; r++) fullRound(s, full, r * WIDTH);
  for (let i = 0; i < WIDTH; i++) s[i] = reduce(s[i]);
}

const scratch = new Float64Array(WIDTH);

/**
 * PaddingFreeSponge<Perm16, 16, 8, 8> (src/ref/merkle.ts `hashRow`): each chunk of up to 8
 * values overwrites the state's first lanes, then the state is permuted; the digest is lanes 0..8.
 */
export function hashRowBb16(row: ArrayLike<number>, out: Uint32Array = new Uint32Array(8)): Uint32Array {
  scratch.fill(0);
  for (let o = 0; o < row.length; o += 8) {
    const end = Math.min(o + 8, row.length);
    for (let i = o; i < end; i++) scratch[i - o] = row[i];
    permuteBb16(scratch);
  }
  for (let i = 0; i < 8; i++) out[i] = scratch[i];
  return out;
}

/** TruncatedPermutation<Perm16, 2, 8, 16> (src/ref/merkle.ts `compress`): Perm16(left ‖ right)[0..8]. */
export function compressBb16(left: ArrayLike<number>, right: ArrayLike<number>, out: Uint32Array = new Uint32Array(8)): Uint32Array {
  for (let i = 0; i < 8; i++) {
    scratch[i] = left[i];
    scratch[i + 8] = right[i];
  }
  permuteBb16(scratch);
  for (let i = 0; i < 8; i++) out[i] = scratch[i];
  return out;
}

/** Permute 16 canonical values held in 32-bit words (a sponge's state) in place. */
export function permuteBb16Words(state: Uint32Array): void {
  for (let i = 0; i < WIDTH; i++) scratch[i] = state[i];
  permuteBb16(scratch);
  for (let i = 0; i < WIDTH; i++) state[i] = scratch[i];
}
