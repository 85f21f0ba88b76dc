/**
 * One NTT job with each of its passes in a compute pass of its own, timed by timestamp-query where
 * the device grants it (the report's wall clock otherwise): the per-pass profile the Node bench
 * (bench/ntt.ts) and the dev page's ntt bench (demo/bench/cases.ts) both print. Browser-safe.
 * @module
 */
import type { GpuContext } from '../../src/gpu/context.js';
import { Profiler, type ProfileReport } from '../../src/gpu/profiler.js';
import { nttToGpu } from '../../src/kernels/ntt/record.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';
import type { NttTuning } from '../../src/kernels/ntt/tuning.js';

/** Passes a job may have: an lde at 2^24 -> 2^25 has 5 + 5. */
const MAX_PASSES = 16;

export async function profileNttRun(ctx: GpuContext, spec: NttJob, input: GPUBuffer, tuning?: Partial<NttTuning>): Promise<ProfileReport> {
  const prof = new Profiler(ctx.device, ctx.features.timestamps, MAX_PASSES);
  try {
    const enc = ctx.device.createCommandEncoder();
    const res = await nttToGpu(ctx, enc, spec, input, (label) => prof.timestampWrites(label), tuning);
    prof.resolve(enc);
    const t0 = performance.now();
    ctx.device.queue.submit([enc.finish()]);
    const report = await prof.read(t0);
    res.release();
    return report;
  } finally {
    prof.destroy();
  }
}
