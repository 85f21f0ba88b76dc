/**
 * Host side of wgsl/lib/poseidon2.wgsl: packs a constant set into the uniform the kernels
 * read (Montgomery form; external-initial, internal, external-final, then the diagonal), the
 * plan constants of a width, and the batch-permutation job (wgsl/kernels/poseidon2_batch.wgsl).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { dispatch1d } from '../gpu/dispatch.js';
import { toMonty } from '../ref/babybear.js';
import { defaultConstants, internalDiagonal, roundsP, type Poseidon2Constants, type Poseidon2Width } from '../ref/poseidon2.js';
import { p2Variant, type P2Variant } from './p2-variant.js';

/** 64 threads per workgroup: each thread holds a 16-24 word state, so small groups keep occupancy up on every vendor. */
export const P2_WG = 64;

/** Plan constants shared by every kernel that links poseidon2.wgsl. */
export function p2Plan(width: Poseidon2Width): { P2_WIDTH: number; P2_RP: number; P2_RC_VEC4: number } {
  const rp = roundsP(width);
  return { P2_WIDTH: width, P2_RP: rp, P2_RC_VEC4: Math.ceil((9 * width + rp) / 4) };
}

/** The uniform's words: 8·W + RP round constants then W diagonal entries, Montgomery form, padded to vec4s. */
export function packConstants(width: Poseidon2Width, constants?: Poseidon2Constants): Uint32Array {
  const c = constants ?? defaultConstants(width);
  const flat = [...c.externalInitial.flatMap((r) => [...r]), ...c.internal, ...c.externalFinal.flatMap((r) => [...r]), ...internalDiagonal(width)];
  const out = new Uint32Array(4 * p2Plan(width).P2_RC_VEC4);
  flat.forEach((v, i) => (out[i] = toMonty(v)));
  return out;
}

/** The round-constant uniform for `width` (binding 0 of every Poseidon2 kernel). */
export function uploadConstants(ctx: GpuContext, width: Poseidon2Width, constants?: Poseidon2Constants): { buffer: GPUBuffer; size: number } {
  const words = packConstants(width, constants);
  return { buffer: ctx.uploadUniform(words, `p2 constants w${width}`), size: words.byteLength };
}

const BATCH_BINDINGS = ['uniform', 'storage'] as const;

/** A prepared batch permutation over states already on the GPU (for prover.poseidon2 and the bench). */
export interface Poseidon2BatchJob {
  encode(enc: GPUCommandEncoder): void;
  release(): void;
}

/** Montgomery multiplies per permutation of each variant (bench bound): 8·W S-boxes × 4 + RP × 4, plus W per lane in the loop kernel's diagonal. */
export function montMulsPerPermutation(width: Poseidon2Width, variant: P2Variant): number {
  return 8 * width * 4 + roundsP(width) * (variant === 'loop' ? 4 + width : 4);
}

/** The batch pipeline of a variant (same bindings, same constant uniform). */
function batchPipeline(ctx: GpuContext, width: Poseidon2Width, variant: P2Variant): Promise<GPUComputePipeline> {
  if (variant === 'straight') {
    const plan = { P2_RC_VEC4: p2Plan(width).P2_RC_VEC4, P2_WG };
    return ctx.pipelines.get(width === 16 ? 'poseidon2_s16_batch' : 'poseidon2_s24_batch', 'p2s_batch', plan, BATCH_BINDINGS);
  }
  return ctx.pipelines.get('poseidon2_batch', 'p2_batch', { ...p2Plan(width), P2_WG }, BATCH_BINDINGS);
}

export async function poseidon2BatchJob(
  ctx: GpuContext, width: Poseidon2Width, states: GPUBuffer, count: number, constants?: Poseidon2Constants, variant: P2Variant = p2Variant(),
): Promise<Poseidon2BatchJob> {
  const pipeline = await batchPipeline(ctx, width, variant);
  const rc = uploadConstants(ctx, width, constants);
  const group = ctx.device.createBindGroup({
    layout: ctx.pipelines.layout(BATCH_BINDINGS),
    entries: [
      { binding: 0, resource: { buffer: rc.buffer, size: rc.size } },
      { binding: 1, resource: { buffer: states, size: count * width * 4 } },
    ],
  });
  return {
    encode(enc) {
      const pass = enc.beginComputePass({ label: `poseidon2 ${variant} w${width} x${count}` });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      dispatch1d(pass, ctx.device, count, P2_WG);
      pass.end();
    },
    release: () => ctx.pool.release(rc.buffer),
  };
}

/** Permute k = states.length / width canonical states on the GPU (inputs already validated). */
export async function runPoseidon2(ctx: GpuContext, states: Uint32Array, width: Poseidon2Width, constants?: Poseidon2Constants): Promise<Uint32Array> {
  const count = states.length / width;
  if (count === 0) return new Uint32Array(0);
  const buf = ctx.upload(states, 'p2 states');
  try {
    const job = await poseidon2BatchJob(ctx, width, buf, count, constants);
    try {
      const enc = ctx.device.createCommandEncoder({ label: 'poseidon2' });
      job.encode(enc);
      ctx.device.queue.submit([enc.finish()]);
      return await ctx.readback(buf, states.length);
    } finally {
      job.release();
    }
  } finally {
    ctx.pool.release(buf);
  }
}
