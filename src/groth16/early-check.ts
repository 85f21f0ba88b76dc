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
import type { CheckAnswer } from '../checks/check-tasks.js';
import { g1Wire, g2Wire, verifyingKeyWire, type Fp12Value } from './check-parts.js';
import type { Groth16Output } from './key.js';
import type { G1Point, G2Point } from './point-words.js';
import type { EarlyParts, Groth16VerifyingKey, ProofPart, PublicPart } from './verify.js';

/** The parts of one proof's check, as they are made. */
export class EarlyCheck {
  private readonly pub: Promise<PublicPart | undefined>;
  private proof?: Promise<ProofPart | undefined>;

  constructor(vk: Groth16VerifyingKey, publics: readonly bigint[]) {
    const kept = [...publics];
    this.pub = loopOf(checkTask({ kind: 'groth16-public', vk: verifyingKeyWire(vk), publics: kept })).then(
      (loop) => loop && { publics: kept, loop: loop.value },
    );
  }

  /** πA and πB are known: their part. */
  proofPoints(a: G1Point, b: G2Point): void {
    this.proof = loopOf(checkTask({ kind: 'groth16-proof', a: g1Wire(a), b: g2Wire(b) })).then(
      (loop) => loop && { a, b, loop: loop.value },
    );
  }

  /** The parts made (verify.ts uses each only for a proof it matches, and makes a missing one itself). */
  async parts(): Promise<EarlyParts> {
    return { pub: await this.pub, proof: await this.proof };
  }
}

/** A part's loop (null: its inputs are invalid), or undefined when its task failed: the check then makes that part itself. */
function loopOf(answer: Promise<CheckAnswer>): Promise<{ value: Fp12Value | null } | undefined> {
  return answer.then(
    (a) => ('loop' in a ? { value: a.loop } : undefined),
    () => undefined,
  );
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
