/**
 * WHIR's commits on the GPU, each one submission: encode (encodeToGpu) and Merkle tree
 * (planMerkle, commitOnGpu) recorded into one encoder.
 * - `commitTable`: the polynomial's table, uploaded once through the staging ring and range-checked
 *   on the GPU (the check read with the root), then kept as a `GpuTable` for the sumcheck engine (prove reads it in place: a
 *   second upload and the host copy of 2^n values cost ~45 ms at n = 24; bench/RESULTS.md, whir).
 * - `commitEngineEvals`: a round's codeword straight from the GPU engine's evaluations (a
 *   from-Montgomery pass first), so the 2^m extension values never cross to the host and back.
 * Both compute what prover.commit computes from a host array.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { Scheduler } from '../sched/scheduler.js';
import type { JobOptions } from '../sched/job.js';
import { encodeToGpu } from '../kernels/ntt/record.js';
import { uploadChecked, type CheckedUpload } from '../kernels/canonical.js';
import { planMerkle } from '../kernels/merkle.js';
import { commitOnGpu, requireTreeShape, type MerkleTree } from '../api/merkle.js';
import type { GpuTable } from './engine.js';
import type { GpuSumcheckEngine } from './gpu-engine.js';

type Committed = { root: Uint32Array; tree: MerkleTree };

/** Record the encode of `height` rows of `width` canonical values in `src`, and the tree over it, then submit. */
async function encodeAndCommit(
  ctx: GpuContext,
  sched: Scheduler,
  enc: GPUCommandEncoder,
  src: GPUBuffer,
  height: number,
  width: number,
  addedBits: number,
  input?: CheckedUpload,
): Promise<Committed> {
  const codeword = await encodeToGpu(ctx, src, width, addedBits, { height, encoder: enc });
  const plan = await planMerkle(ctx, codeword.buffer, height * 2 ** addedBits, width, () => codeword.release());
  return commitOnGpu(ctx, sched, plan, enc, { input });
}

/**
 * Commit the table `evals` (canonical values, row-major, `width` columns) with blow-up
 * 2^addedBits, and keep its upload on the GPU. Release the table (`release`) when done with it;
 * `evals` itself is not referenced after this returns.
 * @throws ProverError NON_CANONICAL (found by the GPU range check), TOO_LARGE, ABORTED, and the GPU's errors
 */
export async function commitTable(
  ctx: GpuContext,
  sched: Scheduler,
  evals: Uint32Array,
  width: number,
  addedBits: number,
  job: JobOptions,
): Promise<Committed & { table: GpuTable & { release(): void } }> {
  const height = evals.length / width;
  requireTreeShape(ctx, height * 2 ** addedBits, width);
  return sched.run('whir commit', job, async () => {
    const input = await uploadChecked(ctx, evals, 'evals', 'whir table');
    const buffer = input.buffer;
    try {
      const enc = ctx.device.createCommandEncoder({ label: 'whir table encode + commit' });
      const committed = await encodeAndCommit(ctx, sched, enc, buffer, height, width, addedBits, input);
      let held = true;
      const table = {
        buffer,
        length: evals.length,
        owner: ctx,
        read: async () => (await ctx.run(() => ctx.readRanges([{ buffer, word: 0, count: evals.length }])))[0],
        release: () => {
          if (held) ctx.pool.release(buffer);
          held = false;
        },
      };
      return { ...committed, table };
    } catch (e) {
      ctx.pool.release(buffer);
      throw e;
    } finally {
      input.releaseFlags();
    }
  });
}

/**
 * Encode and commit the engine's current evaluations as rows of `width` base values (4·2^k for
 * rows of 2^k extension elements) with blow-up 2^addedBits. Null when the engine's tables are not
 * on the GPU (the caller reads evals() instead).
 */
export async function commitEngineEvals(
  ctx: GpuContext,
  sched: Scheduler,
  engine: GpuSumcheckEngine,
  width: number,
  addedBits: number,
): Promise<Committed | null> {
  if (!engine.onGpu) return null;
  return sched.run('whir round commit', {}, async () => {
    const enc = ctx.device.createCommandEncoder({ label: 'whir evals + encode + commit' });
    const src = engine.recordCanonicalEvals(enc);
    if (!src) return null;
    try {
      return await encodeAndCommit(ctx, sched, enc, src.buffer, src.words / width, width, addedBits);
    } finally {
      src.release();
    }
  });
}
