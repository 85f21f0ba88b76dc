/**
 * `prover.whir(options)`: one WHIR configuration as an object — its schedule, commit, open and
 * verify — over any prover's `whirCommit` (in-thread or through the worker; the instance itself
 * holds only the options, so it lives on the caller's side).
 * @module
 */
import { ProverError } from '../errors.js';
import type { JobOptions } from '../sched/job.js';
import type { PcsProof } from './proof.js';
import { verifyWhir, type WhirVerdict } from './verifier.js';
import { whirSchedule, type WhirCommitment, type WhirMethods, type WhirOpening, type WhirOptions, type WhirSchedule } from './whir.js';

export interface Whir {
  /** The derived configuration (rounds, queries, OOD samples, PoW bits), exactly as p3-whir derives it. */
  schedule(): WhirSchedule;
  /**
   * Commit to 2^numVariables evaluations (natural hypercube order, canonical BabyBear values).
   * @throws ProverError INVALID_LENGTH, NON_CANONICAL, ABORTED, and the commit's GPU errors
   */
  commit(evals: Uint32Array, job?: JobOptions): Promise<{ root: Uint32Array; handle: WhirCommitment }>;
  /**
   * Prove the committed polynomial's value at a point drawn from the transcript; the handle is
   * used up. `opening.proof` is what a verifier needs (serializeProof gives p3-whir's JSON).
   * @throws ProverError DESTROYED (already proved), ABORTED, and the commit's and grind's errors
   */
  open(handle: WhirCommitment, job?: JobOptions): Promise<WhirOpening>;
  /** Check a proof for `root` with this configuration (p3-whir's verifier, in TypeScript). Never throws on a bad proof. */
  verify(root: Uint32Array, proof: PcsProof | WhirOpening): Promise<WhirVerdict>;
}

/** The WHIR instance for `options` over `prover` (validated now: a bad configuration throws here). */
export function whirInstance(prover: WhirMethods, options: WhirOptions): Whir {
  const schedule = whirSchedule(options);
  const frozen = structuredClone(options);
  return {
    schedule: () => structuredClone(schedule),
    commit: (evals, job) => prover.whirCommit(frozen, evals, job),
    open(handle, job) {
      if (typeof handle !== 'object' || handle === null || typeof (handle as WhirCommitment).prove !== 'function') {
        throw new ProverError('INVALID_ARGUMENT', 'open(handle): pass the handle that whir.commit returned');
      }
      return handle.prove(job);
    },
    verify: (root, proof) => verifyWhir(schedule, root, 'proof' in proof ? proof.proof : proof),
  };
}
