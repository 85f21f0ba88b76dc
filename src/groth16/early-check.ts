/**
 * A checked GPU proof's pairing work, made while the GPU still computes the proof (the check is
 * docs/checks.md's: every proof verified before it is returned). verify.ts splits the check in
 * three parts; two need less than the whole proof:
 *   the public signals' (L and the Miller loops of (L, γ2), (α1, β2)): made as the proof starts,
 *   πA and πB's (their group checks and the Miller loop of (−πA, πB)): made once the A and B2 MSMs
 *   are in, while the B1, C and H MSMs run,
 * both on the check thread (checks/check-thread.ts), beside the prover. The check itself
 * (proof-check.ts) then makes πC's Miller loop and the final exponentiation, taking a part made
 * here only where its signals and points equal those of the proof it checks.
 * @module
 */
import { checkTask } from '../checks/check-thread.js';
import { g1Wire, g2Wire, verifyingKeyWire } from './check-parts.js';
import type { Groth16Output } from './key.js';
import type { G1Point, G2Point } from './point-words.js';
import type { EarlyParts, Groth16VerifyingKey, ProofPart, PublicPart } from './verify.js';

/** The parts of one proof's check, as they are made. */
export class EarlyCheck {
  private readonly pub: Promise<PublicPart>;
  private proof?: Promise<ProofPart>;

  constructor(vk: Groth16VerifyingKey, publics: readonly bigint[]) {
    const kept = [...publics];
    this.pub = checkTask({ kind: 'groth16-public', vk: verifyingKeyWire(vk), publics: kept }).then((answer) => ({
      publics: kept,
      loop: 'loop' in answer ? answer.loop : null,
    }));
  }

  /** πA and πB are known: their part. */
  proofPoints(a: G1Point, b: G2Point): void {
    this.proof = checkTask({ kind: 'groth16-proof', a: g1Wire(a), b: g2Wire(b) }).then((answer) => ({
      a,
      b,
      loop: 'loop' in answer ? answer.loop : null,
    }));
  }

  /** The parts made (verify.ts uses each only for a proof it matches). */
  async parts(): Promise<EarlyParts> {
    return { pub: await this.pub, proof: await this.proof };
  }
}

/** Outputs with parts of their check made early, until checked (proof-check.ts reads them). */
const early = new WeakMap<Groth16Output, EarlyCheck>();

export function checkStartedEarly(out: Groth16Output, check: EarlyCheck): void {
  early.set(out, check);
}

/** The parts made early for `out`, if any. */
export function earlyParts(out: Groth16Output): Promise<EarlyParts> | undefined {
  return early.get(out)?.parts();
}
