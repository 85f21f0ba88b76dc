// Autorun mode `transfer-bench`: host arrays on and off the GPU in this browser, where `writeBuffer`
// and `mapAsync` cross from the page (or worker) to the GPU process. Per size (`?mb=1,4,16`, MB):
// upload by writeBuffer against the staging ring, readback into a fresh array against into the
// caller's array, GB/s, medians of `?reps=` (5); every readback is compared with what went up.
// The same rows as `npm run bench -- transfer` in Node (bench/host-arrays.ts), for the device
// bench driver to run on real devices.
import type { ModeContext } from '../autorun.js';
import { GpuContext, storageUsage } from '../../src/gpu/context.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { medianTime } from '../../bench/support/stats.js';

export async function transferBench({ params, report }: ModeContext): Promise<void> {
  const sizes = (params.get('mb') ?? '1,4,16').split(',').map(Number);
  const reps = Number(params.get('reps') ?? 5);
  const ctx = await GpuContext.create(navigator.gpu);
  const settle = () => ctx.device.queue.onSubmittedWorkDone();
  try {
    for (const mb of sizes) {
      const t0 = performance.now();
      const data = new SplitMix64(mb).fieldArray(mb << 18);
      const gbs = (ms: number) => +(data.byteLength / ms / 1e6).toFixed(3);
      const writeBuffer = await medianTime(async () => {
        ctx.pool.release(ctx.upload(data));
        await settle();
      }, reps);
      const ring = await medianTime(async () => {
        const dst = ctx.pool.acquire(data.byteLength, storageUsage(), 'transfer probe');
        await ctx.staging.write(dst, 0, data); // the ring itself (uploadAsync takes writeBuffer in a browser)
        await settle();
        ctx.pool.release(dst);
      }, reps);
      const src = ctx.upload(data, 'transfer probe');
      const fresh = await medianTime(() => ctx.readback(src, data.length), reps);
      const out = new Uint32Array(data.length);
      const into = await medianTime(() => ctx.readback(src, data.length, out), reps);
      ctx.pool.release(src);
      const same = out.every((v, i) => v === data[i]);
      report(`transfer ${mb} MB`, same ? 'ok' : 'fail', performance.now() - t0, {
        n: data.length,
        uploadWriteBufferGBs: gbs(writeBuffer),
        uploadRingGBs: gbs(ring),
        readbackFreshGBs: gbs(fresh),
        readbackIntoOutGBs: gbs(into),
        detail: same
          ? `up: writeBuffer ${gbs(writeBuffer)} GB/s, staging ring ${gbs(ring)}; down: fresh array ${gbs(fresh)}, into out ${gbs(into)} (medians of ${reps})`
          : 'the readback differs from the upload',
      });
    }
  } finally {
    ctx.destroy();
  }
}
