/**
 * Host side of the Fq layouts' check and bench entries (wgsl/kernels/msm_fq13.wgsl, test-only): the 20 x 13-bit check job, and
 * a multiply-throughput job that runs either layout on the same work so one run times both
 * side by side (issue 5: measure 8x32 and 20x13, keep the faster). Both layouts write the same
 * canonical words for the same job, which is how bench/support/fq-layout-check.ts checks them
 * against each other and against bigint before any time is reported.
 * @module
 */
import type { GpuContext } from '../../src/gpu/context.js';
import { storageUsage } from '../../src/gpu/context.js';
import type { KernelName } from '../../src/wgsl/kernels.gen.js';
import { PREP_WG } from '../../src/kernels/msm/layout.js';
import { PREP_CONSTS } from '../../src/kernels/msm/pipelines.js';
import { bindGroup, dispatch, uploadParams } from '../../src/kernels/msm/record.js';
import { CHECK_PARAMS, PAIR_B, runPairCheck } from './msm-kernel-checks.js';

/**
 * '8x32 via 20x13': 8 x 32 values whose multiply runs on 13-bit limbs (fq_mul13); '..., 32 sites':
 * the same job with 32 inlined multiplies per loop turn instead of 2 (code size, not arithmetic).
 */
export type FqLayout = '8x32' | '20x13' | '8x32 via 20x13' | '8x32 via 20x13, 32 sites';

/** Untimed submits run for at least this long before timing (the idle H100 clocks down). */
const WARM_MS = 300;

/** Kernel and entry of the throughput job per layout. */
const BENCH: Record<FqLayout, [KernelName, string]> = {
  '8x32': ['msm_fq13', 'fq_bench'],
  '20x13': ['msm_fq13', 'fq13_bench'],
  '8x32 via 20x13': ['msm_fq13', 'fq_mixed_bench'],
  '8x32 via 20x13, 32 sites': ['msm_fq13', 'fq_mixed_bench_wide'],
};

/** Pairs (a, b) as 16 canonical words each -> 32 words each: a·b, a·a, a, a·b (via 8x32 Montgomery). */
export function fq13Check(ctx: GpuContext, pairs: Uint32Array): Promise<Uint32Array> {
  return runPairCheck(ctx, 'msm_fq13', 'fq13_check', pairs);
}

export interface FqBenchResult {
  layout: FqLayout;
  /** wall ms of each timed submit (after untimed ones for >= warmMs) */
  ms: number[];
  /** 8 canonical words per thread: x after the job (equal across layouts) */
  out: Uint32Array;
}

/**
 * `threads` threads x 2·iters dependent multiplies in `layout`; reps timed submits after untimed
 * ones for at least `warmMs` (an idle H100 runs at 345 MHz until loaded: with one untimed submit
 * the layout timed first read slow, as the benches' warmUp() found).
 */
export async function fqMulBench(
  ctx: GpuContext,
  layout: FqLayout,
  threads: number,
  iters: number,
  reps: number,
  warmMs = WARM_MS,
): Promise<FqBenchResult> {
  const [kernel, entry] = BENCH[layout];
  return { layout, ...(await timeJob(ctx, kernel, entry, `fq bench ${layout}`, { n: threads, iters }, threads, reps, warmMs)) };
}

/**
 * `threads` threads x `iters` dependent inversions (x = 1/x + 1): launched with a few threads,
 * ms / iters is one inversion's latency.
 */
export function fqInvBench(ctx: GpuContext, threads: number, iters: number, reps: number): Promise<{ ms: number[]; out: Uint32Array }> {
  return timeJob(ctx, 'msm_fq13', 'fq_inv_bench', 'fq inv bench', { n: threads, iters }, threads, reps, WARM_MS);
}

/** One dispatch of `threads` threads (params `prm`), timed reps times after warming up; 8 words out per thread. */
async function timeJob(
  ctx: GpuContext,
  kernel: KernelName,
  entry: string,
  label: string,
  params: { n: number; iters: number },
  threads: number,
  reps: number,
  warmMs: number,
): Promise<{ ms: number[]; out: Uint32Array }> {
  const buf = ctx.pool.acquire(threads * 32, storageUsage(), label);
  const bad = ctx.upload(new Uint32Array(1), 'fq bench unused');
  const prm = uploadParams(ctx, CHECK_PARAMS, params);
  try {
    const pipe = await ctx.pipelines.get(kernel, entry, PREP_CONSTS, PAIR_B);
    const group = bindGroup(ctx, PAIR_B, [buf, bad, prm]);
    const ms: number[] = [];
    const warmEnd = performance.now() + warmMs;
    for (let r = 0; r <= reps; r++) {
      if (r === 1 && performance.now() < warmEnd) r = 0; // still warming up
      const enc = ctx.device.createCommandEncoder({ label });
      const pass = enc.beginComputePass();
      dispatch(pass, ctx, pipe, group, threads, PREP_WG);
      pass.end();
      const t0 = performance.now();
      ctx.submit(enc, 'fq13 check');
      await ctx.device.queue.onSubmittedWorkDone();
      if (r > 0) ms.push(performance.now() - t0);
    }
    return { ms, out: await ctx.readback(buf, threads * 8) };
  } finally {
    for (const b of [buf, bad, prm]) ctx.pool.release(b);
  }
}
