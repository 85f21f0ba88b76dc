/**
 * The Fr NTT's root table: ω_{2T}^i for i < T in Montgomery form (T = 2^tLog, ω_{2T} snarkjs's
 * 2T-th root), made once per device and size on the GPU (wgsl/kernels/fr_twiddles.wgsl) from
 * ~2·sqrt(T) powers the host computes in bigints. One table of T values serves every transform of
 * up to T points, both directions (ω^-e = −ω^(T−e)) and the coset shift ω_{2N}: 32 MiB at 2^20.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { grid2d } from '../../gpu/dispatch.js';
import { FR_MONT_R, FR_R, frRootOfUnity } from '../../params/bn254-fr.js';
import { mod, toLimbs } from '../../params/bn254.js';
import { FR_BYTES } from './ntt-plan.js';
import { FR_TWIDDLES_PIPELINE, FR_TW_WG } from './pipelines.js';

export { FR_TW_WG };

/** x's Montgomery form x·2^256 mod r as 8 LE limbs. */
export function frMontLimbs(x: bigint): number[] {
  return toLimbs(mod(x * FR_MONT_R, FR_R));
}

/** log2 of the seeds' lo part: lo has 2^L entries, hi T/2^L. */
export function seedLoLog(tLog: number): number {
  return Math.ceil(tLog / 2);
}

/** The host's part: lo[i] = ω^i (i < 2^L), then hi[i] = ω^(i·2^L) (i < T/2^L), ω = ω_{2T}, Montgomery limbs. */
export function rootSeeds(tLog: number): Uint32Array {
  const L = seedLoLog(tLog);
  const w = frRootOfUnity(tLog + 1);
  const lo = 2 ** L;
  const hi = 2 ** (tLog - L);
  const out = new Uint32Array(8 * (lo + hi));
  let x = 1n;
  for (let i = 0; i < lo; i++, x = (x * w) % FR_R) out.set(frMontLimbs(x), 8 * i);
  const step = x; // ω^(2^L)
  x = 1n;
  for (let i = 0; i < hi; i++, x = (x * step) % FR_R) out.set(frMontLimbs(x), 8 * (lo + i));
  return out;
}

const cache = new WeakMap<GpuContext, Map<number, Promise<GPUBuffer>>>();

/**
 * The root table of 2^tLog values on this device (made on first use, then cached for the
 * context's life). The table is filled by a submission of its own, ahead of the caller's.
 */
export function frRootTable(ctx: GpuContext, tLog: number): Promise<GPUBuffer> {
  let byLog = cache.get(ctx);
  if (!byLog) cache.set(ctx, (byLog = new Map()));
  let table = byLog.get(tLog);
  if (!table) {
    table = buildTable(ctx, tLog);
    byLog.set(tLog, table);
    table.catch(() => byLog.delete(tLog)); // a failed build (lost device) is retried by the next job
  }
  return table;
}

async function buildTable(ctx: GpuContext, tLog: number): Promise<GPUBuffer> {
  const count = 2 ** tLog;
  const [pipeline] = await ctx.pipelines.all([FR_TWIDDLES_PIPELINE]);
  const table = ctx.device.createBuffer({ size: count * FR_BYTES, usage: GPUBufferUsage.STORAGE, label: `fr roots 2^${tLog}` });
  const seeds = ctx.constantBuffer(rootSeeds(tLog), GPUBufferUsage.STORAGE, `fr root seeds 2^${tLog}`);
  const params = ctx.constantBuffer(new Uint32Array([count, seedLoLog(tLog), 0, 0]), GPUBufferUsage.UNIFORM, 'fr roots params');
  const enc = ctx.device.createCommandEncoder({ label: 'fr roots' });
  const pass = enc.beginComputePass({ label: 'fr roots' });
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    ctx.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [seeds, table, params].map((buffer, binding) => ({ binding, resource: { buffer } })),
    }),
  );
  const [x, y] = grid2d(count, FR_TW_WG, ctx.limits.maxComputeWorkgroupsPerDimension);
  pass.dispatchWorkgroups(x, y);
  pass.end();
  ctx.submit(enc, 'fr roots');
  // Destroying after submit is safe: WebGPU frees a buffer only once the queued work is done with it.
  seeds.destroy();
  params.destroy();
  return table;
}
