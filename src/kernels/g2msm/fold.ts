/**
 * The host's last step of a G2 MSM: the GPU's window sums (projective, Montgomery words) as noble
 * points, folded by Horner, sum_j 2^(s_j)·G_j (window j starts at bit s_j: windowStart). ~255
 * doublings in noble whatever c is, a few ms: cheap next to the GPU work at any size that
 * matters.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { fq2FromMontWords } from '../../field/g2-words.js';
import { G2_WORDS } from '../../params/bn254-g2.js';
import { windowBits } from '../../params/msm-layout.js';

const G2 = bn254.G2.Point;
export type G2Point = InstanceType<typeof G2>;

/** The projective point (X : Y : Z) at words[at..at + 48) (Montgomery Fq2s); Z = 0 is the identity. */
export function g2FromProjectiveWords(words: ArrayLike<number>, at: number): G2Point {
  const f = G2_WORDS.fq2;
  const X = fq2FromMontWords(words, at);
  const Y = fq2FromMontWords(words, at + f);
  const Z = fq2FromMontWords(words, at + 2 * f);
  if (Z.c0 === 0n && Z.c1 === 0n) return G2.ZERO;
  return new G2(X, Y, Z);
}

/** sum_j 2^(bits(0) + ... + bits(j - 1))·sums[j] by Horner, top sum first. */
export function foldHorner(sums: readonly G2Point[], bits: (j: number) => number): G2Point {
  let acc = G2.ZERO;
  for (let j = sums.length - 1; j >= 0; j--) {
    if (!acc.is0()) for (let b = 0; b < bits(j); b++) acc = acc.double();
    acc = acc.add(sums[j]);
  }
  return acc;
}

/** sum_j 2^(windowStart(j, c))·sums[j]: the window sums of a bucket run. */
export function foldWindows(sums: readonly G2Point[], c: number): G2Point {
  return foldHorner(sums, (j) => windowBits(j, c));
}
