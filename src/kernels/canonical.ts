/**
 * Host side of wgsl/kernels/canonical.wgsl: large field arrays are checked for canonical values
 * on the GPU right after their upload, instead of by a CPU pass before it (at 2^24 values that
 * pass cost ~15-65 ms on the hosts measured, more than the upload). Arrays up to
 * HOST_SCAN_MAX_BYTES are scanned on the host while validating (validate.ts).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { HOST_SCAN_MAX_BYTES, nonCanonicalError } from '../validate.js';

const CANON_WG = 256;
/** Workgroups of the grid-stride loop: enough to fill a large GPU, few enough to dispatch in x. */
const CANON_GROUPS = 4096;
const BINDINGS = ['read-only-storage', 'storage'] as const;

const pipelineOf = async (ctx: GpuContext) => ctx.pipelines.get('canonical', 'canonical_first', { CANON_WG }, BINDINGS);

/**
 * Compile the check's one small pipeline now, in the background (at prover creation): a large
 * input of any family may need it, and a family's second size must not add a pipeline.
 */
export function prepareCanonicalCheck(ctx: GpuContext): void {
  pipelineOf(ctx).catch(() => {}); // a failure here is met again, and reported, by the job that needs it
}

/** The first index of a value >= p among `buf`'s first `n` words, or -1 (a job's submission and readback). */
async function firstNonCanonical(ctx: GpuContext, buf: GPUBuffer, n: number): Promise<number> {
  const pipeline = await pipelineOf(ctx);
  const flag = ctx.upload(Uint32Array.of(0xffffffff), 'canonical flag');
  try {
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(BINDINGS),
      entries: [{ binding: 0, resource: { buffer: buf, size: n * 4 } }, { binding: 1, resource: { buffer: flag, size: 4 } }],
    });
    const enc = ctx.device.createCommandEncoder({ label: 'canonical check' });
    const pass = enc.beginComputePass({ label: 'canonical check' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.min(CANON_GROUPS, Math.ceil(n / CANON_WG)));
    pass.end();
    ctx.submit(enc, 'canonical check');
    const [first] = await ctx.readback(flag, 1);
    return first === 0xffffffff ? -1 : first;
  } finally {
    ctx.pool.release(flag);
  }
}

/**
 * Upload `data` (validated except, past HOST_SCAN_MAX_BYTES, for its values' range) and check
 * on the GPU that every value is below p: NON_CANONICAL, as validation gives it, otherwise.
 */
export async function uploadField(ctx: GpuContext, data: Uint32Array, name: string, label: string): Promise<GPUBuffer> {
  const buf = await ctx.uploadAsync(data, label);
  if (data.byteLength <= HOST_SCAN_MAX_BYTES) return buf;
  const bad = await firstNonCanonical(ctx, buf, data.length).catch((e: unknown) => {
    ctx.pool.release(buf);
    throw e;
  });
  if (bad < 0) return buf;
  ctx.pool.release(buf);
  throw nonCanonicalError(name, bad, data[bad]);
}
