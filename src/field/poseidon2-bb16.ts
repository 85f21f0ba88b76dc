/**
 * BabyBear Poseidon2 at width 16 for host-side hashing in bulk (the WHIR verifier's Merkle leaves
 * and nodes, the transcript's sponge): the same permutation as src/ref/poseidon2.ts, which stays
 * the readable twin of the WGSL, about 6x faster. Products are babybear-fast.ts's lazy ones (no
 * floor, no branch, results in [0, 2p)), which also take the linear layers' unreduced lanes; those
 * sums stay unreduced in doubles (always below 71·p < 2^38, exact) and are reduced only before the
 * partial rounds and once per lane in each of them. The round constants sit in flat typed arrays,
 * and the state is a Float64Array permuted in place, so nothing allocates.
 * @module
 */
import { BB_P } from '../params/babybear.js';
import { bbMulLazy, bbReduceLazy } from './babybear-fast.js';
import { POSEIDON2_DEFAULT_16, POSEIDON2_DIAG_16 } from '../params/poseidon2-babybear.js';

const WIDTH = 16;

/**
 * The permutation, built once. Everything its loops touch is a `const` of this one function's
 * scope: V8 folds those into the optimized code of the single closures it returns, whereas
 * module-level bindings are reloaded and checked on every use wherever they stay mutable (an
 * imported binding; top-level `const` that a bundler such as esbuild rewrites to `var`), which
 * costs 10-30% of a permutation.
 */
function buildPermutation(): (s: Float64Array) => void {
  const P = BB_P;
  const mulLazy = bbMulLazy;
  const reduceLazy = bbReduceLazy;
  /** Keeps the partial rounds' sums non-negative: V_i·s_i >= -4·2p. */
  const OFFSET = 8 * P;
  // Plonky3's default constants, laid out for the loops below: 8 full rounds of 16, then the partial ones.
  const FULL = Float64Array.from([...POSEIDON2_DEFAULT_16.externalInitial, ...POSEIDON2_DEFAULT_16.externalFinal].flat());
  const PARTIAL = Float64Array.from(POSEIDON2_DEFAULT_16.internal);
  const DIAG = Float64Array.from(POSEIDON2_DIAG_16);
  const signed = (v: number) => (v > P / 2 ? v - P : v);
  /** V_i as a signed integer where it is ±1..4, else 0. */
  const SMALL = Float64Array.from(POSEIDON2_DIAG_16, (v) => (Math.abs(signed(v)) <= 4 ? signed(v) : 0));

  /** x^7 as x^4·x^3 (four products, three deep), for 0 <= x < 2^37; the result is in [0, 2p). */
  const pow7 = (x: number): number => {
    const x2 = mulLazy(x, x);
    return mulLazy(mulLazy(x2, x2), mulLazy(x2, x));
  };

  /**
   * M_E = circ(2·M4, M4, M4, M4): M4 on each 4-lane chunk (Plonky3's addition chain evaluates
   * [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]), then each lane adds its column's sum. Lanes in
   * [0, 2p) come out unreduced, below 35·2p.
   */
  const externalLayer = (s: Float64Array): void => {
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
  };

  /** A full round on unreduced lanes (below 71·p, which bbMulLazy takes as they are): constants, S-box every lane, M_E. */
  const fullRound = (s: Float64Array, o: number): void => {
    for (let i = 0; i < WIDTH; i++) s[i] = pow7(s[i] + FULL[o + i]);
    externalLayer(s);
  };

  // In the partial rounds M_I = J + diag(V) takes V_i·s_i as a plain product where V_i is ±1..4
  // (exact, below 2^35) and a field product elsewhere.
  return (s: Float64Array): void => {
    externalLayer(s);
    for (let r = 0; r < 4; r++) fullRound(s, r * WIDTH);
    for (let i = 0; i < WIDTH; i++) s[i] = reduceLazy(s[i]);
    for (let k = 0; k < PARTIAL.length; k++) {
      s[0] = pow7(s[0] + PARTIAL[k]);
      let sum = OFFSET;
      for (let i = 0; i < WIDTH; i++) sum += s[i];
      for (let i = 0; i < WIDTH; i++) {
        const v = SMALL[i];
        s[i] = reduceLazy(sum + (v !== 0 ? v * s[i] : mulLazy(DIAG[i], s[i])));
      }
    }
    for (let r = 4; r < 8; r++) fullRound(s, r * WIDTH);
    for (let i = 0; i < WIDTH; i++) {
      const x = reduceLazy(s[i]);
      s[i] = x >= P ? x - P : x;
    }
  };
}

/** Permute the 16 canonical values of `s` in place. */
export const permuteBb16: (s: Float64Array) => void = buildPermutation();

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

/** compressBb16 of every 16-word pair (left ‖ right digest) in `pairs`: 8 words per pair. */
export function compressPairsBb16(pairs: Uint32Array): Uint32Array {
  const count = pairs.length >>> 4;
  const out = new Uint32Array(8 * count);
  for (let j = 0; j < count; j++) {
    for (let i = 0; i < WIDTH; i++) scratch[i] = pairs[16 * j + i];
    permuteBb16(scratch);
    for (let i = 0; i < 8; i++) out[8 * j + i] = scratch[i];
  }
  return out;
}
