/**
 * Host side of wgsl/kernels/field_check.wgsl (element-wise BabyBear and ext4 operations on
 * canonical values) and field_bench.wgsl (Montgomery-multiply throughput).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { uploadField } from './canonical.js';
import { dispatch1d } from '../gpu/dispatch.js';
import type { FieldName } from '../params/fields.js';
import type { Profiler } from '../gpu/profiler.js';

/** Workgroup size of the element-wise kernels: 256 threads is a full-occupancy choice on NVIDIA, AMD, Apple and Mali. */
export const FIELD_WG = 256;

export const FIELD_OPS = {
  add: { entry: 'field_add', arity: 2, ext: false },
  sub: { entry: 'field_sub', arity: 2, ext: false },
  mul: { entry: 'field_mul', arity: 2, ext: false },
  square: { entry: 'field_square', arity: 1, ext: false },
  pow7: { entry: 'field_pow7', arity: 1, ext: false },
  inv: { entry: 'field_inv', arity: 1, ext: false },
  ext4Mul: { entry: 'ext4_mul_op', arity: 2, ext: true },
  ext4Inv: { entry: 'ext4_inv_op', arity: 1, ext: true },
} as const;

export type FieldOp = keyof typeof FIELD_OPS;

/**
 * Run `op` element-wise on the GPU over `field` (the same kernel, built with that field's
 * constants). Inputs must already be validated (canonical in that field, equal lengths).
 */
export async function runFieldOp(
  ctx: GpuContext,
  op: FieldOp,
  a: Uint32Array,
  b?: Uint32Array,
  into?: Uint32Array,
  field: FieldName = 'babybear',
): Promise<Uint32Array> {
  const spec = FIELD_OPS[op];
  const n = a.length;
  if (n === 0) return new Uint32Array(0);
  const bindings = ['read-only-storage', 'read-only-storage', 'storage'] as const;
  const pipeline = await ctx.pipelines.get('field_check', spec.entry, { FIELD_WG }, bindings, undefined, false, field);
  const bufA = await uploadField(ctx, a, 'a', 'field a', field);
  const bufB = b
    ? await uploadField(ctx, b, 'b', 'field b', field).catch((e: unknown) => {
        ctx.pool.release(bufA);
        throw e;
      })
    : bufA;
  const out = ctx.pool.acquire(n * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'field out');
  try {
    // Bind exact sizes: pooled buffers are rounded up and arrayLength() must see n.
    const bind = (buffer: GPUBuffer) => ({ buffer, size: n * 4 });
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(bindings),
      entries: [
        { binding: 0, resource: bind(bufA) },
        { binding: 1, resource: bind(bufB) },
        { binding: 2, resource: bind(out) },
      ],
    });
    const enc = ctx.device.createCommandEncoder({ label: `field ${op}` });
    const pass = enc.beginComputePass({ label: `field ${op}` });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    dispatch1d(pass, ctx.device, spec.ext ? n / 4 : n, FIELD_WG);
    pass.end();
    return await ctx.submitAndRead(enc, `field ${op}`, out, n, into);
  } finally {
    ctx.pool.release(bufA);
    if (bufB !== bufA) ctx.pool.release(bufB); // a one-input op binds its input twice
    ctx.pool.release(out);
  }
}

/** A prepared field_bench dispatch: `threads` threads, each 2·iters dependent Montgomery multiplies. */
export interface FieldBenchJob {
  threads: number;
  montMuls: number;
  /** Record the pass; with a profiler, it gets timestamp writes. */
  encode(enc: GPUCommandEncoder, profiler?: Profiler): void;
  read(): Promise<Uint32Array>;
  release(): void;
}

export async function fieldBenchJob(ctx: GpuContext, threads: number, iters: number): Promise<FieldBenchJob> {
  const pipeline = await ctx.pipelines.get('field_bench', 'field_bench', { FIELD_WG, BENCH_ITERS: iters });
  const buf = ctx.pool.acquire(threads * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'field bench');
  const group = ctx.device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: buf, size: threads * 4 } }],
  });
  return {
    threads,
    montMuls: threads * iters * 2,
    encode(enc, profiler) {
      const pass = profiler ? profiler.beginPass(enc, 'field bench') : enc.beginComputePass({ label: 'field bench' });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      dispatch1d(pass, ctx.device, threads, FIELD_WG);
      pass.end();
    },
    read: () => ctx.readback(buf, threads),
    release: () => ctx.pool.release(buf),
  };
}
