/**
 * CPU twin of Groth16's polynomial stage as snarkjs runs it (groth16_prove.js): the QAP's A and B
 * evaluations on the domain from the zkey's coefficients and the witness, C = A ∘ B, then each of
 * A, B, C interpolated (intt), moved to the coset ω_2n·<ω_n> (coefficient i times ω_2n^i) and
 * evaluated there (ntt); h[i] = A·B − C at the coset's i-th point, in natural order. The zkey's H
 * points already carry the vanishing polynomial's inverse, so h goes straight into the H MSM.
 * @module
 */
import { FR_R, ZKEY_COEF_UNSCALE, frRootOfUnity } from '../params/bn254-fr.js';
import { fromLimbs } from '../params/bn254.js';
import { frIntt, frNtt, frScalePowers } from './fr-ntt.js';
import type { QapCoefficients } from '../field/qap-coefficients.js';

export type { QapCoefficients };

/** A and B evaluations on the domain of `domainSize` points, and C = A ∘ B. */
export function qapEvaluations(
  coeffs: QapCoefficients,
  witness: readonly bigint[],
  domainSize: number,
): { a: bigint[]; b: bigint[]; c: bigint[] } {
  const ab = [new Array<bigint>(domainSize).fill(0n), new Array<bigint>(domainSize).fill(0n)];
  for (let i = 0; i < coeffs.count; i++) {
    const v = (fromLimbs(coeffs.values, 8 * i) * ZKEY_COEF_UNSCALE) % FR_R;
    const row = ab[coeffs.matrix[i]];
    const c = coeffs.constraint[i];
    row[c] = (row[c] + v * witness[coeffs.signal[i]]) % FR_R;
  }
  const [a, b] = ab;
  return { a, b, c: a.map((x, i) => (x * b[i]) % FR_R) };
}

/** h[i] = (A·B − C)(ω_2n · ω_n^i), i < n: the H MSM's scalars. */
export function groth16H(coeffs: QapCoefficients, witness: readonly bigint[], domainSize: number): bigint[] {
  const { a, b, c } = qapEvaluations(coeffs, witness, domainSize);
  const shift = frRootOfUnity(Math.log2(domainSize) + 1);
  const onCoset = (e: bigint[]) => frNtt(frScalePowers(frIntt(e), shift));
  const [ao, bo, co] = [onCoset(a), onCoset(b), onCoset(c)];
  return ao.map((x, i) => (((x * bo[i] - co[i]) % FR_R) + FR_R) % FR_R);
}
