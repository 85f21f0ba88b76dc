/**
 * Recording the Fr NTT's passes (./ntt-plan.ts, wgsl/kernels/fr_ntt.wgsl) and a standalone entry,
 * frNttGpu, for tests and benchmarks. A transform ping-pongs between its buffer and a scratch
 * buffer of the same size, one compute pass (and one timestamp pair, when profiled) per pass.
 * @module
 */
import { ProverError } from '../../errors.js';
import { storageUsage, type GpuContext } from '../../gpu/context.js';
import { grid2d } from '../../gpu/dispatch.js';
import { FR_R, invMod } from '../../params/bn254.js';
import { FR_BYTES, frNttParams, planFrNtt, type FrNttLimits, type FrNttPlan, type FrNttRun } from './ntt-plan.js';
import { frMontLimbs, frRootTable } from './tables.js';
import { FR_NTT_BINDINGS, frNttRequest } from './pipelines.js';
import type { Speed } from '../../gpu/pipeline-cache.js';
import { firstAtLeastR } from '../../field/fr-words.js';

/** The device's limits as a plan reads them. */
export function frNttLimits(ctx: GpuContext): FrNttLimits {
  const { tileBytes, threads } = ctx.workgroup;
  return { tileBytes, threads, maxBinding: Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize) };
}

/** The pass pipeline of a plan (one per tile size): `only` that one, or as PipelineCache.fastOrQuick. */
export async function frNttPipeline(ctx: GpuContext, plan: FrNttPlan, only?: Speed): Promise<GPUComputePipeline> {
  return (await ctx.pipelines.fastOrQuick([frNttRequest(plan)], [frNttRequest(plan, true)], only)).pipelines[0];
}

/** The inverse transform's first-pass scale: 1/N in Montgomery form (a product with it keeps the operand's form). */
export function frInverseScale(logN: number): number[] {
  return frMontLimbs(invMod(BigInt(2 ** logN), FR_R));
}

/**
 * One transform's passes, recorded: uniforms made now (returned, for the caller to destroy once the
 * work is done, or to keep with the bind groups for reuse) and bind groups over `data` and `scratch`.
 * The result lands in `data` when the plan has an even number of passes, else in `scratch` (`out`).
 */
export interface FrNttSteps {
  steps: Array<{ label: string; bindGroup: GPUBindGroup }>;
  uniforms: GPUBuffer[];
  out: GPUBuffer;
}

export function frNttSteps(
  ctx: GpuContext,
  plan: FrNttPlan,
  run: FrNttRun,
  table: { buffer: GPUBuffer; tLog: number },
  data: GPUBuffer,
  scratch: GPUBuffer,
  label: string,
): FrNttSteps {
  const params = frNttParams(plan, run, table.tLog);
  const uniforms = params.map((w, i) => ctx.constantBuffer(w, GPUBufferUsage.UNIFORM, `${label} pass ${i}`));
  let [src, dst] = [data, scratch];
  const steps = uniforms.map((u, i) => {
    const bindGroup = ctx.device.createBindGroup({
      label: `${label} pass ${i}`,
      layout: ctx.pipelines.layout(FR_NTT_BINDINGS), // the fast and the quick pass pipelines alike
      // Sized bindings: a pooled buffer may be larger than the transform (BufferPool rounds sizes up).
      entries: [
        { binding: 0, resource: { buffer: src, size: plan.bytes } },
        { binding: 1, resource: { buffer: dst, size: plan.bytes } },
        { binding: 2, resource: { buffer: table.buffer } },
        { binding: 3, resource: { buffer: u } },
      ],
    });
    const step = { label: `${label} r2^${plan.passes[i].rLog}`, bindGroup };
    [src, dst] = [dst, src];
    return step;
  });
  return { steps, uniforms, out: src };
}

/** Per-pass timestamp writes (Profiler.timestampWrites), or none. */
export type FrTimestamps = (label: string) => GPUComputePassTimestampWrites | undefined;

/** Record `steps` of the pass pipeline: one compute pass each. */
export function recordFrNtt(
  ctx: GpuContext,
  enc: GPUCommandEncoder,
  pipeline: GPUComputePipeline,
  plan: FrNttPlan,
  steps: FrNttSteps['steps'],
  timestamps?: FrTimestamps,
): void {
  const [x, y] = grid2d(plan.groups, 1, ctx.limits.maxComputeWorkgroupsPerDimension);
  for (const s of steps) {
    const pass = enc.beginComputePass({ label: s.label, timestampWrites: timestamps?.(s.label) });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, s.bindGroup);
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }
}

/** Throws NON_CANONICAL unless every 8-word value of `words` is < r. */
export function requireCanonicalFr(words: Uint32Array, what: string): void {
  const bad = firstAtLeastR(words, words.length >> 3);
  if (bad >= 0) {
    throw new ProverError('NON_CANONICAL', `${what}: value ${bad} is not below r (BN254's scalar field modulus); reduce it mod r first.`);
  }
}

export interface FrNttOptions {
  inverse?: boolean;
  /**
   * The coset ω_{2N}·<ω_N> (snarkjs's, groth16_prove.js): forward, evaluate there (input j times
   * ω_{2N}^j first); inverse, multiply output coefficient j by ω_{2N}^j after the inverse.
   */
  coset?: boolean;
  timestamps?: FrTimestamps;
  /** Cap the tile at 2^maxTileLog values: more, smaller passes (tests reach 3- and 4-pass plans at 2^12). */
  maxTileLog?: number;
  /** the pass pipeline to run (checks run each one) */
  only?: Speed;
}

/**
 * The Fr NTT of `values` (N = 2^n values, 8 LE words each, any form: normal in, normal out), natural
 * order in and out, as src/ref/fr-ntt.ts defines it: ntt, intt, or with `coset` as above.
 */
export async function frNttGpu(ctx: GpuContext, values: Uint32Array, opts: FrNttOptions = {}): Promise<Uint32Array> {
  const n = values.length / 8;
  const logN = Math.log2(n);
  if (!Number.isInteger(logN) || values.length % 8 !== 0) {
    throw new ProverError('INVALID_LENGTH', `an Fr NTT takes 2^k values of 8 words each, got ${values.length} words`);
  }
  const limits = frNttLimits(ctx);
  if (opts.maxTileLog !== undefined) limits.tileBytes = Math.min(limits.tileBytes, FR_BYTES * 2 ** opts.maxTileLog);
  const plan = planFrNtt(logN, limits);
  requireCanonicalFr(values, 'frNttGpu input');
  const inverse = opts.inverse ?? false;
  return ctx.run(async () => {
    const [pipeline, table] = await Promise.all([frNttPipeline(ctx, plan, opts.only), frRootTable(ctx, logN)]);
    const data = await ctx.uploadAsync(values, 'fr ntt data');
    const scratch = ctx.pool.acquire(plan.bytes, storageUsage(), 'fr ntt scratch');
    const run: FrNttRun = { inverse, coset: opts.coset, scale: inverse ? frInverseScale(logN) : undefined };
    const { steps, uniforms, out } = frNttSteps(ctx, plan, run, { buffer: table, tLog: logN }, data, scratch, 'fr ntt');
    try {
      const enc = ctx.device.createCommandEncoder({ label: 'fr ntt' });
      recordFrNtt(ctx, enc, pipeline, plan, steps, opts.timestamps);
      return await ctx.submitAndRead(enc, 'fr ntt', out, values.length);
    } finally {
      for (const u of uniforms) u.destroy();
      ctx.pool.release(data);
      ctx.pool.release(scratch);
    }
  });
}

/** Bytes one value takes, re-exported for memory reports. */
export { FR_BYTES };
