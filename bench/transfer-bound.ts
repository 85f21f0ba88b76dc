/**
 * The transfer bound of a job from and to host arrays: its input up and its output down at the
 * rates this device moves 64 MB through the staging ring (upload) and into a reused array
 * (readback), plus its GPU time. A suite measures the rates once (`transferRates`) and puts
 * `transferBoundMs` and `endToEndOverBound` beside its end-to-end rows (issue 31: what the caller
 * waits for, against what the copies and the kernels alone need).
 * @module
 */
import type { GpuContext } from '../src/gpu/context.js';
import { median } from './support/stats.js';

export interface TransferRates {
  upBytesPerMs: number;
  downBytesPerMs: number;
}

/** The 64 MB ring upload and reused-array readback rates of `ctx`'s device, medians of 3. */
export async function transferRates(ctx: GpuContext): Promise<TransferRates> {
  const data = new Uint32Array(16 << 20).map((_, i) => i);
  const out = new Uint32Array(data.length);
  const up: number[] = [];
  const down: number[] = [];
  for (let r = 0; r < 4; r++) {
    let t0 = performance.now();
    const buf = await ctx.uploadAsync(data, 'transfer probe');
    await ctx.device.queue.onSubmittedWorkDone();
    const upMs = performance.now() - t0;
    t0 = performance.now();
    await ctx.readback(buf, data.length, out);
    const downMs = performance.now() - t0;
    ctx.pool.release(buf);
    if (r > 0) {
      up.push(upMs);
      down.push(downMs);
    }
  }
  return { upBytesPerMs: data.byteLength / median(up), downBytesPerMs: data.byteLength / median(down) };
}

/** ms: `inBytes` up, `gpuMs` of kernels, `outBytes` down. */
export function transferBoundMs(rates: TransferRates, inBytes: number, gpuMs: number, outBytes: number): number {
  return inBytes / rates.upBytesPerMs + gpuMs + outBytes / rates.downBytesPerMs;
}
