// Autorun mode `transfer-bench`: host arrays on and off the GPU in this browser, where `writeBuffer`
// and `mapAsync` cross from the page (or worker) to the GPU process. Per size (`?mb=1,4,16`, MB):
// upload by writeBuffer against the staging ring, readback into a fresh array against into the
// caller's array, GB/s, medians of `?reps=` (5); every readback is compared with what went up.
// The same rows as `npm run bench -- transfer` in Node (bench/host-arrays.ts), for the device
// bench driver to run on real devices.
import type { ModeContext } from '../autorun.js';
import { GpuContext } from '../../src/gpu/context.js';
import { BB_P } from '../../src/params/babybear.js';

function values(n: number): Uint32Array<ArrayBuffer> {
  const v = new Uint32Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    v[i] = x % BB_P;
  }
  return v;
}

async function medianMs(reps: number, f: () => Promise<unknown>): Promise<number> {
  await f();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}

export async function transferBench({ params, report }: ModeContext): Promise<void> {
  const sizes = (params.get('mb') ?? '1,4,16').split(',').map(Number);
  const reps = Number(params.get('reps') ?? 5);
  const ctx = await GpuContext.create(navigator.gpu);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const settle = () => ctx.device.queue.onSubmittedWorkDone();
  try {
    for (const mb of sizes) {
      const t0 = performance.now();
      const data = values(mb << 18);
      const gbs = (ms: number) => +(data.byteLength / ms / 1e6).toFixed(3);
      const writeBuffer = await medianMs(reps, async () => { ctx.pool.release(ctx.upload(data)); await settle(); });
      const ring = await medianMs(reps, async () => {
        const dst = ctx.pool.acquire(data.byteLength, usage, 'transfer probe');
        await ctx.staging.write(dst, 0, data); // the ring itself (uploadAsync takes writeBuffer in a browser)
        await settle();
        ctx.pool.release(dst);
      });
      const src = ctx.pool.acquire(data.byteLength, usage, 'transfer probe');
      ctx.device.queue.writeBuffer(src, 0, data);
      const fresh = await medianMs(reps, () => ctx.readback(src, data.length));
      const out = new Uint32Array(data.length);
      const into = await medianMs(reps, () => ctx.readback(src, data.length, out));
      ctx.pool.release(src);
      const same = out.every((v, i) => v === data[i]);
      report(`transfer ${mb} MB`, same ? 'ok' : 'fail', performance.now() - t0, {
        n: data.length,
        uploadWriteBufferGBs: gbs(writeBuffer), uploadRingGBs: gbs(ring), readbackFreshGBs: gbs(fresh), readbackIntoOutGBs: gbs(into),
        detail: same
          ? `up: writeBuffer ${gbs(writeBuffer)} GB/s, staging ring ${gbs(ring)}; down: fresh array ${gbs(fresh)}, into out ${gbs(into)} (medians of ${reps})`
          : 'the readback differs from the upload',
      });
    }
  } finally {
    ctx.destroy();
  }
}
