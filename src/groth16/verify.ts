/**
 * The Groth16 verifier on the CPU with @noble/curves' BN254 pairing (the check snarkjs's
 * groth16_verify.js makes):
 *   e(πA, πB) = e(α1, β2) · e(L, γ2) · e(πC, δ2),   L = IC[0] + Σ_i IC[i]·public[i-1],
 * run as one multi-pairing e(−πA, πB)·e(α1, β2)·e(L, γ2)·e(πC, δ2) = 1: one shared Miller loop and
 * one final exponentiation (~13 ms for the 4 pairs), (α1, β2)'s Miller loop kept per key. With the
 * proof points' group checks (G2's subgroup check included) and L (~5 ms a public signal), measured
 * on a busy 2-core machine before that: ~40-55 ms at nPublic 1-3, ~105 ms at nPublic 10. A pair
 * with the point at infinity is left out (its pairing is 1; noble's pairing refuses infinity
 * rather than returning 1).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { FR_R } from '../params/bn254-fr.js';
import type { G1Point, G2Point } from './point-words.js';
import type { Groth16Proof } from './proof-json.js';

/** What the verifier needs of a key: a Groth16Zkey has all of it. */
export interface Groth16VerifyingKey {
  readonly alpha1: G1Point;
  readonly beta2: G2Point;
  readonly gamma2: G2Point;
  readonly delta2: G2Point;
  readonly ic: readonly G1Point[];
}

function valid(p: G1Point | G2Point): boolean {
  try {
    p.assertValidity();
    return true;
  } catch {
    return false;
  }
}

/**
 * True when `proof` proves `publics` under `vk`. Answers, never throws: false for the wrong
 * number of public signals, a signal outside [0, r), or a proof point not in its prime-order
 * group (not on the curve, or off G2's subgroup), as well as for a proof that fails the pairing
 * check.
 * @example
 * const ok = verifyGroth16(zkey, [7n], cpuProve(zkey, witness).proof);
 */
export function verifyGroth16(vk: Groth16VerifyingKey, publics: readonly bigint[], proof: Groth16Proof): boolean {
  if (!Array.isArray(publics) || publics.length !== vk.ic.length - 1) return false;
  if (!publics.every((x) => typeof x === 'bigint' && x >= 0n && x < FR_R)) return false;
  if (!proof || !valid(proof.a) || !valid(proof.b) || !valid(proof.c)) return false;
  let l = vk.ic[0];
  for (let i = 0; i < publics.length; i++) {
    if (publics[i] !== 0n) l = l.add(vk.ic[i + 1].multiplyUnsafe(publics[i]));
  }
  const pairs = [
    { g1: proof.a.negate(), g2: proof.b },
    { g1: l, g2: vk.gamma2 },
    { g1: proof.c, g2: vk.delta2 },
  ].filter(({ g1, g2 }) => !g1.is0() && !g2.is0());
  const { Fp12 } = bn254.fields;
  return Fp12.eql(Fp12.finalExponentiate(Fp12.mul(bn254.pairingBatch(pairs, false), alphaBetaLoop(vk))), Fp12.ONE);
}

/**
 * The Miller loop of (α1, β2), once per key: it is the same for every proof (a fourth of a check's
 * pairing work); e(α1, β2) in snarkjs's verification key is its final exponentiation.
 */
const alphaBeta = new WeakMap<Groth16VerifyingKey, ReturnType<typeof bn254.pairingBatch>>();
export function alphaBetaLoop(vk: Groth16VerifyingKey): ReturnType<typeof bn254.pairingBatch> {
  let f = alphaBeta.get(vk);
  if (!f) {
    f = vk.alpha1.is0() || vk.beta2.is0() ? bn254.fields.Fp12.ONE : bn254.pairingBatch([{ g1: vk.alpha1, g2: vk.beta2 }], false);
    alphaBeta.set(vk, f);
  }
  return f;
}
