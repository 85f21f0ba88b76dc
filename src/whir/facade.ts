/**
 * `prover.whir(options)`: one WHIR configuration as an object — its schedule, commit, open and
 * verify — over any prover's `whirCommit` (in-thread or through the worker; the instance itself
 * holds only the options, so it lives on the caller's side).
 * @module
 */
import { ProverError } from '../errors.js';
import type { JobOptions } from '../sched/job.js';
import type { PcsProof } from './proof.js';
import { requireExtPoint, type Ext4Like, type WhirOpenOptions } from './open-options.js';
import { requireFieldArray, requireLength, requireOptions, show } from '../validate.js';
import { DIGEST } from '../ref/merkle.js';
import type { WhirVerdict } from './verifier.js';
import type { WhirCommitment, WhirMethods, WhirOpening, WhirSchedule } from './whir.js';
import { whirSchedule, type WhirOptions } from './options.js';
import { loadPart } from '../lazy.js';

export interface Whir {
  /** The derived configuration (rounds, queries, OOD samples, PoW bits), exactly as p3-whir derives it. */
  schedule(): WhirSchedule;
  /**
   * Commit to 2^numVariables evaluations (natural hypercube order, canonical BabyBear values).
   * @throws ProverError INVALID_LENGTH, NON_CANONICAL, ABORTED, and the commit's GPU errors
   */
  commit(evals: Uint32Array, job?: JobOptions): Promise<{ root: Uint32Array; handle: WhirCommitment }>;
  /**
   * Prove the committed polynomial's value at a point drawn from the transcript, or at
   * `options.point` (p3-whir's `open_at`); the handle is used up. `opening.proof` is what a
   * verifier needs (serializeProof gives p3-whir's JSON), with `opening.point` when it was given.
   * `options.trace: true` adds `opening.trace` (JSONL of every challenger permutation, commit included).
   * @throws ProverError INVALID_ARGUMENT / INVALID_LENGTH / NON_CANONICAL (a bad point or option; the handle stays usable), DESTROYED (already proved), ABORTED, and the commit's and grind's errors
   * @example const opening = await whir.open(handle, { point: Array.from({ length: n }, (_, i) => [i, 0, 0, 0]) });
   */
  open(handle: WhirCommitment, options?: WhirOpenOptions): Promise<WhirOpening>;
  /**
   * Check a proof for `root` with this configuration (p3-whir's verifier, in TypeScript): at the
   * point the transcript draws (`verify`), or at a given point (`verify_at`): `options.point`, or
   * the opening's own point when `opening.pointSource` is 'given'. Never throws on a bad proof.
   * @throws ProverError INVALID_ARGUMENT / INVALID_LENGTH / NON_CANONICAL for a malformed point
   */
  verify(root: Uint32Array, proof: PcsProof | WhirOpening, options?: { point?: readonly Ext4Like[] }): Promise<WhirVerdict>;
}

/** The WHIR instance for `options` over `prover` (validated now: a bad configuration throws here). */
export function whirInstance(prover: WhirMethods, options: WhirOptions): Whir {
  const schedule = whirSchedule(options);
  const frozen = structuredClone(options);
  return {
    schedule: () => structuredClone(schedule),
    commit: (evals, job) => prover.whirCommit(frozen, evals, job),
    open(handle, options) {
      if (typeof handle !== 'object' || handle === null || typeof (handle as WhirCommitment).prove !== 'function') {
        throw new ProverError('INVALID_ARGUMENT', 'open(handle): pass the handle that whir.commit returned');
      }
      return handle.prove(options);
    },
    async verify(root, proof, options) {
      const { point } = requireOptions<{ point?: readonly Ext4Like[] }>('verify options', options, true, ['point']);
      const r = requireFieldArray('verify(root)', root);
      requireLength('verify(root)', r, DIGEST, 'a root is one 8-value digest');
      if (typeof proof !== 'object' || proof === null || ArrayBuffer.isView(proof)) {
        throw new ProverError(
          'INVALID_ARGUMENT',
          `verify(root, proof): pass the opening whir.open returned, or a proof from parseProof, got ${show(proof)}`,
        );
      }
      const opening = 'proof' in proof ? proof : null;
      const given = point ?? (opening?.pointSource === 'given' ? opening.point : undefined);
      const checked =
        given === undefined ? undefined : requireExtPoint(point ? 'verify options.point' : 'opening.point', given, schedule.numVariables);
      // Loaded on the first verify: a page that never verifies a WHIR proof does not download the
      // verifier and its transcript (~30 kB); the worker client imports this facade.
      const { verifyWhir } = await loadPart("webgpu-prover's WHIR verifier", () => import('./verifier.js'));
      return verifyWhir(schedule, r, opening ? opening.proof : (proof as PcsProof), checked);
    },
  };
}
