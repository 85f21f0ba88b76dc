/**
 * CPU twin of the GPU's BN254 Fr NTT, in bigints, with snarkjs's conventions (ffjavascript's
 * `Fr.fft` / `Fr.ifft`): natural order in and out, ω = frRootOfUnity(log2 n),
 *   ntt:  out[i] = Σ_j in[j]·ω^(i·j)
 *   intt: out[j] = n^-1 · Σ_i in[i]·ω^(−i·j)
 * A plain iterative radix-2 (bit-reverse, then DIT butterflies).
 * @module
 */
import { FR_R, frRootOfUnity } from '../params/bn254-fr.js';
import { invMod, powMod } from '../params/bn254.js';

function log2Of(n: number): number {
  const k = Math.log2(n);
  if (!Number.isInteger(k)) throw new RangeError(`NTT length ${n} is not a power of two`);
  return k;
}

function bitReverse(a: bigint[], bits: number): void {
  for (let i = 0; i < a.length; i++) {
    let j = 0;
    for (let b = 0; b < bits; b++) j |= ((i >> b) & 1) << (bits - 1 - b);
    if (j > i) [a[i], a[j]] = [a[j], a[i]];
  }
}

/** In-place transform of `a` with root `omega` of order a.length. */
function transform(a: bigint[], omega: bigint): void {
  const bits = log2Of(a.length);
  bitReverse(a, bits);
  for (let len = 2; len <= a.length; len <<= 1) {
    const w = powMod(omega, BigInt(a.length / len), FR_R);
    const half = len >> 1;
    const tw = [1n];
    for (let k = 1; k < half; k++) tw.push((tw[k - 1] * w) % FR_R);
    for (let s = 0; s < a.length; s += len) {
      for (let k = 0; k < half; k++) {
        const u = a[s + k];
        const v = (a[s + k + half] * tw[k]) % FR_R;
        a[s + k] = (u + v) % FR_R;
        a[s + k + half] = (u - v + FR_R) % FR_R;
      }
    }
  }
}

/** Evaluations of the polynomial with coefficients `coeffs` on ω^i (a fresh array). */
export function frNtt(coeffs: readonly bigint[]): bigint[] {
  const a = [...coeffs];
  transform(a, frRootOfUnity(log2Of(a.length)));
  return a;
}

/** Coefficients of the polynomial with evaluations `evals` on ω^i (a fresh array). */
export function frIntt(evals: readonly bigint[]): bigint[] {
  const a = [...evals];
  const n = a.length;
  transform(a, invMod(frRootOfUnity(log2Of(n)), FR_R));
  const nInv = invMod(BigInt(n), FR_R);
  return a.map((x) => (x * nInv) % FR_R);
}

/** a[i]·shift^i (a fresh array): moves evaluation to the coset shift·<ω>. */
export function frScalePowers(a: readonly bigint[], shift: bigint): bigint[] {
  let s = 1n;
  return a.map((x) => {
    const y = (x * s) % FR_R;
    s = (s * shift) % FR_R;
    return y;
  });
}
