/**
 * `npm run bench -- field`: BabyBear Montgomery multiplies/s of wgsl/lib/babybear.wgsl's bb_mul
 * next to roofline.mjs's Montgomery rate (same chain shape, same dispatch size, same run),
 * after checking every field op against src/ref and BigInt on this GPU.
 * @module
 */
import { createProver } from '../src/index.js';
import { GpuContext } from '../src/gpu/context.js';
import { fieldBenchJob } from '../src/kernels/field.js';
import { fieldBenchThread } from '../src/field/babybear.js';
import { checkFieldOp, FIELD_CHECK_OPS } from './support/field-check.js';
import { median } from './support/stats.js';
import './support/wgsl-dev.gen.js'; // field_bench is a dev-only kernel, not in the package
import { Profiler } from '../src/gpu/profiler.js';
import { roofline, warmUp } from './node-gpu.js';

export interface BenchOutput {
  rows: Record<string, unknown>[];
  ok: boolean;
}

const THREADS = 1 << 22; // the roofline's Montgomery dispatch size
const ITERS = 256; // 512 dependent multiplies per thread, as in roofline.mjs
const REPS = 7;

export async function benchField(gpu: GPU): Promise<BenchOutput> {
  const rows: Record<string, unknown>[] = [];
  // 1. Correctness on this adapter before any timing.
  const prover = await createProver({ gpu, check: 'off' });
  let ok = true;
  for (const op of FIELD_CHECK_OPS) {
    const r = await checkFieldOp(prover, op);
    const good = r.mismatchRef === 0 && r.mismatchBigInt === 0;
    ok &&= good;
    rows.push({ bench: 'field-check', op, n: r.n, mismatchRef: r.mismatchRef, mismatchBigInt: r.mismatchBigInt, ok: good, first: r.first });
  }
  prover.destroy();
  if (!ok) return { rows, ok };

  // 2. Throughput, ours and the roofline's, on one device.
  const ctx = await GpuContext.create(gpu);
  const limit = await roofline(ctx.device);
  const job = await fieldBenchJob(ctx, THREADS, ITERS);
  const times: number[] = [];
  const gpuTimes: number[] = [];
  const once = async () => {
    const prof = new Profiler(ctx.device, ctx.features.timestamps, 1);
    const enc = ctx.device.createCommandEncoder();
    job.encode(enc, prof);
    prof.resolve(enc);
    const t0 = performance.now();
    ctx.device.queue.submit([enc.finish()]);
    const report = await prof.read(t0);
    prof.destroy();
    return report;
  };
  await warmUp(once); // pipeline upload, clocks
  for (let r = 0; r < REPS; r++) {
    const report = await once();
    times.push(report.wallMs);
    if (report.gpuMs !== null) gpuTimes.push(report.gpuMs);
  }
  const out = await job.read();
  let wrong = 0;
  for (let i = 0; i < THREADS; i += 1021) if (out[i] !== fieldBenchThread(i, ITERS)) wrong++;
  job.release();

  // 3. CPU anchor on this host: the same chain with src/ref montMul, one JS thread.
  const cpuThreads = 2048;
  const c0 = performance.now();
  for (let i = 0; i < cpuThreads; i++) fieldBenchThread(i, ITERS);
  const cpuRate = (cpuThreads * ITERS * 2) / ((performance.now() - c0) / 1e3);

  // Kernel time from timestamp-query where the adapter has it: the Profiler's wall time also
  // holds its resolve and map-read (2.39 vs 1.77 ms on the H100), which the kernel never waits on.
  const ms = median(times);
  const gpuMs = gpuTimes.length ? median(gpuTimes) : ms;
  const rate = job.montMuls / (gpuMs / 1e3);
  rows.push({
    bench: 'field-mont-mul',
    adapter: ctx.description,
    threads: THREADS,
    mulsPerThread: ITERS * 2,
    ms: +ms.toFixed(3),
    gpuMsTimestamp: gpuTimes.length ? +median(gpuTimes).toFixed(3) : null,
    gmulsPerS: +(rate / 1e9).toFixed(3),
    gmulsPerSWall: +(job.montMuls / (ms / 1e3) / 1e9).toFixed(3),
    rooflineGmulsPerS: limit.montGmuls,
    ratioToRoofline: limit.montGmuls === null ? null : +(rate / 1e9 / limit.montGmuls).toFixed(3),
    cpuJsGmulsPerS: +(cpuRate / 1e9).toFixed(4),
    ratioToCpuJs: Math.round(rate / cpuRate),
    copyGBs: limit.copyGBs,
    sampledThreadsWrong: wrong,
  });
  ctx.destroy();
  return { rows, ok: wrong === 0 };
}
