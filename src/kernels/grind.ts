/**
 * Host side of wgsl/kernels/grind.wgsl: searches witnesses w = 0, 1, 2, ... in dispatches of
 * up to 2^26 candidates (about 4x the expected 2^bits tries at 24 bits, so one submission
 * usually suffices), reading back one u32 after each. Threads that start after a hit skip
 * their permutation, so overshooting costs little; atomicMin keeps the answer the smallest.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { PipelineRequest } from '../gpu/pipeline-cache.js';
import { dispatch1d } from '../gpu/dispatch.js';
import { BB_P } from '../params/babybear.js';
import { toMonty } from '../field/babybear.js';
import { p2RcVec4, uploadConstants } from './poseidon2.js';

export const GR_WG = 64;
const NONE = 0xffffffff;
const BINDINGS = ['uniform', 'uniform', 'storage'] as const;

/** Candidates per dispatch: 4·2^bits, at least 2^12 (small searches in one go), at most 2^26. */
export function grindBatch(bits: number): number {
  return 2 ** Math.min(26, Math.max(12, bits + 2));
}

/** The search's pipeline: the same for every difficulty. */
export const GRIND_PIPELINE: PipelineRequest = {
  kernel: 'grind',
  entryPoint: 'grind_search',
  plan: { P2_RC_VEC4: p2RcVec4(16), GR_WG },
  bindings: BINDINGS,
};

/**
 * The smallest w in [0, p) with canonical(Perm16(base with lane `slot` = w)[7]) & (2^bits - 1) == 0.
 * `base` is 16 canonical values (see grindBaseState in src/ref/challenger.ts).
 */
export async function runGrind(ctx: GpuContext, base: Uint32Array, slot: number, bits: number): Promise<number> {
  const [pipeline] = await ctx.pipelines.all([GRIND_PIPELINE]);
  const rc = uploadConstants(ctx, 16);
  const found = ctx.pool.acquire(4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC, 'grind found');
  const params: GPUBuffer[] = [];
  try {
    ctx.device.queue.writeBuffer(found, 0, new Uint32Array([NONE]));
    const batch = grindBatch(bits);
    for (let start = 0; start < BB_P; start += batch) {
      const count = Math.min(batch, BB_P - start);
      const words = new Uint32Array(20);
      base.forEach((v, i) => (words[i] = toMonty(v)));
      words.set([slot, 2 ** bits - 1, start, count], 16);
      const p = ctx.uploadUniform(words, 'grind params');
      params.push(p);
      const group = ctx.device.createBindGroup({
        layout: ctx.pipelines.layout(BINDINGS),
        entries: [
          { binding: 0, resource: { buffer: rc.buffer, size: rc.size } },
          { binding: 1, resource: { buffer: p, size: 80 } },
          { binding: 2, resource: { buffer: found, size: 4 } },
        ],
      });
      const enc = ctx.device.createCommandEncoder({ label: `grind ${bits} bits from ${start}` });
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      dispatch1d(pass, ctx.device, count, GR_WG);
      pass.end();
      ctx.submit(enc, `grind from ${start}`);
      const [w] = await ctx.readback(found, 1);
      if (w !== NONE) return w;
    }
    throw new Error(`grind: no ${bits}-bit witness below p`);
  } finally {
    ctx.pool.release(rc.buffer);
    ctx.pool.release(found);
    for (const p of params) ctx.pool.release(p);
  }
}
