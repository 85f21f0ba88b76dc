/**
 * The G2 MSM's CPU twin: sum_i k_i·P_i over BN254 G2 with @noble/curves, from the same inputs as
 * the GPU (src/kernels/g2msm/): zkey point words (Montgomery, all zero = identity) and 8-word
 * scalars, of which the first `count` are used. What the GPU's result must equal.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { FR_R } from '../params/bn254.js';
import { G2_POINT_WORDS, g2AffineFromWords, g2WordsNonCanonical, scalarFromWords } from '../field/g2-words.js';

const G2 = bn254.G2.Point;
export type G2Point = InstanceType<typeof G2>;

/**
 * Point i of zkey words as a noble point.
 * @throws RangeError for a coordinate >= q or a point off the twist (noble's own check)
 */
export function g2PointFromWords(words: ArrayLike<number>, i: number): G2Point {
  if (g2WordsNonCanonical(words, i)) throw new RangeError(`G2 point ${i}: a coordinate is >= q`);
  const a = g2AffineFromWords(words, i);
  if (!a) return G2.ZERO;
  const p = G2.fromAffine(a);
  p.assertValidity();
  return p;
}

/** sum_{i < count} scalars[i]·points[i] (count defaults to every scalar given). */
export function g2MsmRef(points: Uint32Array, scalars: Uint32Array, count = scalars.length / 8): G2Point {
  if (!Number.isInteger(count) || count < 0 || 8 * count > scalars.length || G2_POINT_WORDS * count > points.length) {
    throw new RangeError(`g2MsmRef: ${count} scalars over ${points.length / G2_POINT_WORDS} points`);
  }
  if (count === 0) return G2.ZERO;
  const ps: G2Point[] = [];
  const ks: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const k = scalarFromWords(scalars, i);
    if (k >= FR_R) throw new RangeError(`g2MsmRef: scalar ${i} is >= r`);
    ps.push(g2PointFromWords(points, i));
    ks.push(k);
  }
  return pippenger(G2, ps, ks);
}
