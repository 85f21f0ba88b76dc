/**
 * The Groth16 verifier on the CPU with @noble/curves' BN254 pairing (the check snarkjs's
 * groth16_verify.js makes):
 *   e(πA, πB) = e(α1, β2) · e(L, γ2) · e(πC, δ2),   L = IC[0] + Σ_i IC[i]·public[i-1],
 * run as e(−πA, πB)·e(α1, β2)·e(L, γ2)·e(πC, δ2) = 1: a product of Miller loops and one final
 * exponentiation, (α1, β2)'s Miller loop kept per key. It comes in parts: the signals' (L and its
 * loop), πA and πB's (their group checks, G2's subgroup check included, and their loop) and πC's
 * (its group check and loop), then the final exponentiation of their product, so that a prover can
 * make the first two while the GPU still computes πC (early-check.ts). VM, poseidon-hash (1
 * signal): ~15 ms in all, of which πC's Miller loop and the final exponentiation ~8.
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

type Fp12 = ReturnType<typeof bn254.pairingBatch>;
const { Fp12 } = bn254.fields;

/** Miller loops of the pairs without the point at infinity (its pairing is 1; noble's refuses it). */
function millerLoops(pairs: { g1: G1Point; g2: G2Point }[]): Fp12 {
  const kept = pairs.filter(({ g1, g2 }) => !g1.is0() && !g2.is0());
  return kept.length > 0 ? bn254.pairingBatch(kept, false) : Fp12.ONE;
}

/**
 * The check's part that needs only the public signals: the Miller loops of (L, γ2) and of
 * (α1, β2) (kept per key), multiplied; null when the signals are not valid for `vk`.
 */
export interface PublicPart {
  readonly publics: readonly bigint[];
  readonly loop: Fp12 | null;
}

export function publicPart(vk: Groth16VerifyingKey, publics: readonly bigint[]): PublicPart {
  const ok =
    Array.isArray(publics) && publics.length === vk.ic.length - 1 && publics.every((x) => typeof x === 'bigint' && x >= 0n && x < FR_R);
  if (!ok) return { publics, loop: null };
  let l = vk.ic[0];
  for (let i = 0; i < publics.length; i++) {
    if (publics[i] !== 0n) l = l.add(vk.ic[i + 1].multiplyUnsafe(publics[i]));
  }
  return { publics: [...publics], loop: Fp12.mul(millerLoops([{ g1: l, g2: vk.gamma2 }]), alphaBetaLoop(vk)) };
}

/** The check's part that needs only πA and πB: their group checks and the Miller loop of (−πA, πB); null when a point is not in its group. */
export interface ProofPart {
  readonly a: G1Point;
  readonly b: G2Point;
  readonly loop: Fp12 | null;
}

export function proofPart(a: G1Point, b: G2Point): ProofPart {
  if (!valid(a) || !valid(b)) return { a, b, loop: null };
  return { a, b, loop: millerLoops([{ g1: a.negate(), g2: b }]) };
}

/** The check's part that needs πC: its group check and the Miller loop of (πC, δ2); null when it is not in G1. */
export interface CPart {
  readonly c: G1Point;
  readonly loop: Fp12 | null;
}

export function cPart(vk: Groth16VerifyingKey, c: G1Point): CPart {
  return { c, loop: valid(c) ? millerLoops([{ g1: c, g2: vk.delta2 }]) : null };
}

/** Parts made apart from the final step (early-check.ts, proof-check.ts); each is used only where it equals the proof's own. */
export interface EarlyParts {
  readonly pub?: PublicPart;
  readonly proof?: ProofPart;
  readonly c?: CPart;
}

const samePublics = (a: readonly bigint[], b: readonly bigint[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether `part` was made from `proof`'s own points (false for anything not a point). */
function samePoints(part: ProofPart | CPart, proof: Groth16Proof): boolean {
  try {
    return 'c' in part ? part.c.equals(proof.c) : part.a.equals(proof.a) && part.b.equals(proof.b);
  } catch {
    return false;
  }
}

/**
 * True when `proof` proves `publics` under `vk`: e(πA, πB) = e(α1, β2)·e(L, γ2)·e(πC, δ2) as one
 * product of Miller loops and one final exponentiation. Answers, never throws: false for the wrong
 * number of public signals, a signal outside [0, r), or a proof point not in its prime-order group
 * (not on the curve, or off G2's subgroup), as well as for a proof that fails the pairing check.
 * `early`: parts made ahead for the same signals and points (others are made here).
 * @example
 * const ok = verifyGroth16(zkey, [7n], cpuProve(zkey, witness).proof);
 */
export function verifyGroth16(vk: Groth16VerifyingKey, publics: readonly bigint[], proof: Groth16Proof, early?: EarlyParts): boolean {
  if (!Array.isArray(publics)) return false;
  const pub = early?.pub && samePublics(early.pub.publics, publics) ? early.pub : publicPart(vk, publics);
  if (!pub.loop || !proof) return false;
  const part = early?.proof && samePoints(early.proof, proof) ? early.proof : proofPart(proof.a, proof.b);
  if (!part.loop) return false;
  const c = early?.c && samePoints(early.c, proof) ? early.c : cPart(vk, proof.c);
  if (!c.loop) return false;
  return Fp12.eql(Fp12.finalExponentiate(Fp12.mul(Fp12.mul(pub.loop, part.loop), c.loop)), Fp12.ONE);
}

/**
 * The Miller loop of (α1, β2), once per key: it is the same for every proof (a fourth of a check's
 * pairing work); e(α1, β2) in snarkjs's verification key is its final exponentiation.
 */
const alphaBeta = new WeakMap<Groth16VerifyingKey, Fp12>();
export function alphaBetaLoop(vk: Groth16VerifyingKey): Fp12 {
  let f = alphaBeta.get(vk);
  if (!f) {
    f = millerLoops([{ g1: vk.alpha1, g2: vk.beta2 }]);
    alphaBeta.set(vk, f);
  }
  return f;
}
