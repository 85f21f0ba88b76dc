/**
 * Host side of the MSM's check entry points (test and bench only, never imported by src/): the
 * 8 x 32 Fq arithmetic against bigint (fq_check in msm_fq13.wgsl, a dev-only kernel), any entry
 * with PAIR_B's bindings over pairs of Fq values (runPairCheck), and msm_split alone against its
 * host twin (splitCheck).
 * @module
 */
import './wgsl-dev.gen.js'; // msm_fq13 is a dev-only kernel, not in the package
import type { GpuContext } from '../../src/gpu/context.js';
import { storageUsage } from '../../src/gpu/context.js';
import type { KernelName } from '../../src/wgsl/kernels.gen.js';
import { halfPlaneWords } from '../../src/kernels/msm/buffers.js';
import { PREP_WG, SCALAR_HALVES, SPLIT_WG } from '../../src/kernels/msm/layout.js';
import { paramsStruct, SPLIT_PARAMS } from '../../src/kernels/msm/params.js';
import { MSM_SPLIT_PIPELINE, PREP_CONSTS, SPLIT_B } from '../../src/kernels/msm/pipelines.js';
import type { BindingKind } from '../../src/gpu/pipeline-cache.js';
import { bindGroup, dispatch, uploadParams } from '../../src/kernels/msm/record.js';

/** msm_fq13's entries' bindings: the pairs (results written over them), an unused flags word, params. */
export const PAIR_B: readonly BindingKind[] = ['storage', 'storage', 'uniform'];

/** msm_fq13's params: n threads (or pairs), iters loop turns of the throughput entries. */
export const CHECK_PARAMS = paramsStruct('msm_fq13', 'CheckParams', ['n', 'iters']);

/** GPU Fq check: pairs (a, b) as 16 canonical words each -> a·b, a+b, a-b, a^-1 (32 words per pair). */
export function fqCheck(ctx: GpuContext, pairs: Uint32Array): Promise<Uint32Array> {
  return runPairCheck(ctx, 'msm_fq13', 'fq_check', pairs);
}

/**
 * Run a check entry point with PAIR_B's bindings over pairs (a, b) of 16 canonical words each:
 * each pair gets 32 words (its inputs first), which the entry overwrites with its 4 results.
 */
export async function runPairCheck(ctx: GpuContext, kernel: KernelName, entry: string, pairs: Uint32Array): Promise<Uint32Array> {
  const n = pairs.length / 16;
  const words = new Uint32Array(n * 32);
  for (let i = 0; i < n; i++) words.set(pairs.subarray(16 * i, 16 * i + 16), 32 * i);
  const buf = ctx.upload(words, `${entry} pairs`);
  const bad = ctx.upload(new Uint32Array(1), `${entry} unused`);
  const prm = uploadParams(ctx, CHECK_PARAMS, { n, iters: 0 });
  try {
    const pipe = await ctx.pipelines.get(kernel, entry, PREP_CONSTS, PAIR_B);
    const enc = ctx.device.createCommandEncoder({ label: entry });
    const pass = enc.beginComputePass();
    dispatch(pass, ctx, pipe, bindGroup(ctx, PAIR_B, [buf, bad, prm]), n, PREP_WG);
    pass.end();
    ctx.submit(enc, entry);
    return await ctx.readback(buf, n * 32);
  } finally {
    for (const b of [buf, bad, prm]) ctx.pool.release(b);
  }
}

/**
 * msm_split alone, for its check against the host encoder (bench/support/msm-paths-check.ts): n packed
 * scalars (8 words each) and n points (16 words each, zeros = identity, any other value counts as
 * a point) into all 16 half-planes; returns them (16 slots of ceil(n / 2) words) and the first
 * scalar >= r (-1: none).
 */
export async function splitCheck(
  ctx: GpuContext,
  words: Uint32Array,
  be: boolean,
  points: Uint32Array,
  n: number,
): Promise<{ planes: Uint32Array; bad: number }> {
  const slotWords = halfPlaneWords(n);
  const bufs = [
    ctx.upload(words, 'split check scalars'),
    ctx.upload(points, 'split check points'),
    ctx.pool.acquire(4 * slotWords * SCALAR_HALVES, storageUsage(), 'split check planes'),
    ctx.upload(Uint32Array.of(0xffffffff), 'split check flag'),
    uploadParams(ctx, SPLIT_PARAMS, { n, hlo: 0, hhi: SCALAR_HALVES - 1, planes: SCALAR_HALVES, be: be ? 1 : 0, base0: 0, i0: 0 }),
  ];
  try {
    const [pipe] = await ctx.pipelines.all([MSM_SPLIT_PIPELINE]);
    const enc = ctx.device.createCommandEncoder({ label: 'split check' });
    const pass = enc.beginComputePass();
    dispatch(pass, ctx, pipe, bindGroup(ctx, SPLIT_B, bufs), slotWords, SPLIT_WG);
    pass.end();
    ctx.submit(enc, 'split check');
    const [planes, flag] = await ctx.readRanges([
      { buffer: bufs[2], word: 0, count: slotWords * SCALAR_HALVES },
      { buffer: bufs[3], word: 0, count: 1 },
    ]);
    return { planes, bad: flag[0] === 0xffffffff ? -1 : flag[0] };
  } finally {
    for (const b of bufs) ctx.pool.release(b);
  }
}
