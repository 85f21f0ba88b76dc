/**
 * The quick G2 MSM (g2msm_quick.wgsl): one pipeline that compiles in a fraction of the bucket
 * method's nine, for a key's first proofs while those compile (g2Pipelines). G1's quick engine
 * (msm/quick.ts) in G2: the same shape (groups of QUICK_PER points, lanes taking slices of the
 * scalars' bits, passes summing QUICK_GROUP groups until few sums are left), the sums read back
 * and added on the host, lane c's times 2^(c·bits).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { storageUsage, type GpuContext } from '../../gpu/context.js';
import { G2_WORDS } from '../../params/bn254-g2.js';
import { QUICK_GROUP, quickShape } from '../msm/quick.js';
import { bindGroup, dispatch, uploadParams } from '../msm/record.js';
import { foldHorner, g2FromProjectiveWords, type G2Point } from './fold.js';
import { G2_BYTES, G2_QUICK_LANES, G2_QUICK_PER, G2_QUICK_WG, QUICK_PARAMS } from './layout.js';
import { QUICK_B } from './pipelines.js';

/**
 * Largest run the quick MSM takes while the bucket method's pipelines compile; a larger one waits
 * for them. As G1's QUICK_MAX_N (msm/engines.ts).
 */
export const G2_QUICK_MAX_N = 1 << 18;

/** sum_{i < n} k_i·P_i on `pipe` (G2_QUICK_PIPELINE) for checked bases and scalars (8 words each, < r). */
export async function runG2Quick(
  ctx: GpuContext,
  pipe: GPUComputePipeline,
  bases: GPUBuffer,
  packed: Uint32Array,
  n: number,
): Promise<G2Point> {
  const { chunks, bits, groups } = quickShape(n, G2_QUICK_PER, G2_QUICK_LANES);
  const held: GPUBuffer[] = [];
  const words = await (async () => {
    try {
      const scalars = await ctx.uploadAsync(packed.subarray(0, 8 * n), 'g2msm quick scalars');
      held.push(scalars);
      // Ping-pong between two buffers; the first pass reads no sums, but binds the other one.
      const sums = [groups[0], groups[1] ?? 1].map((g) =>
        ctx.pool.acquire(G2_BYTES.projective * g * chunks, storageUsage(), 'g2msm quick sums'),
      );
      held.push(...sums);
      const enc = ctx.device.createCommandEncoder({ label: 'g2msm quick' });
      const pass = enc.beginComputePass();
      groups.forEach((out, k) => {
        const values =
          k === 0 ? { n, per: G2_QUICK_PER, mode: 0, chunks, bits } : { n: groups[k - 1], per: QUICK_GROUP, mode: 1, chunks, bits };
        const params = uploadParams(ctx, QUICK_PARAMS, values);
        held.push(params);
        const group = bindGroup(ctx, QUICK_B, [bases, scalars, sums[(k + 1) % 2], sums[k % 2], params]);
        dispatch(pass, ctx, pipe, group, out * chunks, G2_QUICK_WG);
      });
      pass.end();
      const last = groups.length - 1;
      return await ctx.submitAndRead(enc, 'g2msm quick', sums[last % 2], groups[last] * chunks * G2_WORDS.projective);
    } finally {
      for (const b of held) ctx.pool.release(b);
    }
  })();
  // Lane c's sums, then sum_c 2^(c·bits)·lane c.
  const lanes = Array.from({ length: chunks }, () => bn254.G2.Point.ZERO);
  for (let j = 0; j < words.length / G2_WORDS.projective; j++) {
    lanes[j % chunks] = lanes[j % chunks].add(g2FromProjectiveWords(words, G2_WORDS.projective * j));
  }
  return foldHorner(lanes, () => bits);
}
