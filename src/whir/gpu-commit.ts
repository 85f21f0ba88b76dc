/**
 * A WHIR round commit straight from the GPU engine's evaluations: the from-Montgomery pass, the
 * Reed-Solomon encode (encodeToGpu) and the Merkle tree (planMerkle, commitOnGpu) recorded into
 * one encoder and submitted once, so the 2^m extension values never cross to the host and back
 * (at m = 20 that is 16 MiB down and up again per round). What prover.ts's
 * `backend.commit(await engine.evals(), width, addedBits)` computes, when the engine is on the GPU.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { Scheduler } from '../sched/scheduler.js';
import { encodeToGpu } from '../kernels/ntt.js';
import { planMerkle } from '../kernels/merkle.js';
import { commitOnGpu, type MerkleTree } from '../api/merkle.js';
import type { GpuSumcheckEngine } from './gpu-engine.js';

/**
 * Encode and commit the engine's current evaluations as rows of `width` base values (4·2^k for
 * rows of 2^k extension elements) with blow-up 2^addedBits, as prover.commit does with a host
 * array. Null when the engine's tables are not on the GPU (the caller reads evals() instead).
 */
export async function commitEngineEvals(ctx: GpuContext, sched: Scheduler, engine: GpuSumcheckEngine, width: number, addedBits: number): Promise<{ root: Uint32Array; tree: MerkleTree } | null> {
  if (!engine.onGpu) return null;
  return sched.run('whir round commit', {}, async () => {
    const enc = ctx.device.createCommandEncoder({ label: 'whir evals + encode + commit' });
    const src = engine.recordCanonicalEvals(enc);
    if (!src) return null;
    try {
      const height = src.words / width;
      const codeword = await encodeToGpu(ctx, src.buffer, width, addedBits, { height, encoder: enc });
      const plan = await planMerkle(ctx, codeword.buffer, height * 2 ** addedBits, width, () => codeword.release());
      return await commitOnGpu(ctx, sched, plan, enc);
    } finally {
      src.release();
    }
  });
}
