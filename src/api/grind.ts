/**
 * Public facet: proof-of-work grinding on the GPU (prover.grind), equal to Plonky3
 * DuplexChallenger<BabyBear, Perm16, 16, 8>::grind in its serial build: the smallest witness.
 * @module
 */
import { ProverError } from '../errors.js';
import { runGrind } from '../kernels/grind.js';
import { DuplexChallenger, grindBaseState, requireBits } from '../ref/challenger.js';
import type { ApiEnv } from './env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';

export interface GrindMethods {
  /**
   * Find the smallest w with challenger.checkWitness(bits, w), then advance `challenger` as
   * Plonky3's grind does (observe w, consume one sample) and return w. bits = 0 returns 0 and
   * leaves the challenger untouched (check_witness(0, _) observes nothing).
   * @throws ProverError INVALID_ARGUMENT (bits outside 0..30, not a DuplexChallenger), ABORTED, DESTROYED, DEVICE_LOST, GPU_ERROR, CHECK_FAILED (the GPU's witness fails check_witness)
   * @example const w = await prover.grind(challenger, 16);
   */
  grind(challenger: DuplexChallenger, bits: number, job?: JobOptions): Promise<number>;
}

/** A grind call, checked (the GPU and CPU paths share it): its job options, a DuplexChallenger and 0..30 bits. */
export function requireGrindJob(
  challenger: unknown,
  bits: unknown,
  job: unknown,
): { challenger: DuplexChallenger; bits: number; jobOpts: JobOptions } {
  const jobOpts = requireJobOptions('grind job options', job);
  if (!(challenger instanceof DuplexChallenger))
    throw new ProverError('INVALID_ARGUMENT', 'grind: challenger must be a DuplexChallenger from webgpu-prover');
  requireBits(bits as number);
  return { challenger, bits: bits as number, jobOpts };
}

export function grindMethods({ ctx, sched, alive }: ApiEnv): GrindMethods {
  return {
    async grind(given, bitsGiven, job) {
      alive();
      const { challenger, bits, jobOpts } = requireGrindJob(given, bitsGiven, job);
      if (bits === 0) return 0;
      const { base, slot } = grindBaseState(challenger);
      const w = await sched.run(`grind ${bits} bits`, jobOpts, () => runGrind(ctx, base, slot, bits));
      // The CPU twin re-checks the GPU's answer and advances the transcript exactly as Plonky3.
      if (!challenger.clone().checkWitness(bits, w))
        throw new ProverError(
          'CHECK_FAILED',
          `grind: the GPU's witness ${w} fails check_witness(${bits}); the grind family runs on the CPU from now on. Please report your GPU and browser.`,
        );
      challenger.checkWitness(bits, w);
      return w;
    },
  };
}
