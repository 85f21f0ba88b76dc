/**
 * Groth16's polynomial stage on a real GPU (Node + Dawn): checks first (Fr ops, the Fr NTT and
 * QapStage.h against src/ref at small sizes, and h against groth16H at 2^CHECK_LOG), then per size
 * the stage's per-pass GPU times (timestamp-query) and its wall time per witness (upload, one
 * submission, readback), with the roofline of the same run.
 *
 *   node --import tsx bench/fr-qap.ts                  (here: SwiftShader is far too slow for the sizes)
 *   esbuild bundle -> bench/dist/fr-qap.mjs; on the GPU machine: node bench/dist/fr-qap.mjs
 *   FR_LOGS=16,20,22 (sizes), FR_REPS=5, CHECK_LOG=16
 * @module
 */
import { GpuContext } from '../src/gpu/context.js';
import { QapStage } from '../src/kernels/qap/stage.js';
import type { QapCoefficients } from '../src/field/qap-coefficients.js';
import { groth16H } from '../src/ref/groth16-h.js';
import { checkFrNtt, checkFrOps, checkQapStage, frValues, frWords, randomFr, randomQapCoefficients } from './support/fr-check.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { nodeGpu, roofline, warmUp } from './node-gpu.js';
import { ClockSampler } from './gpu-clock.js';

const list = (env: string | undefined, dflt: number[]) => (env ? env.split(',').map(Number) : dflt);
const LOGS = list(process.env.FR_LOGS, [16, 18, 20, 21, 22, 24]);
const REPS = Number(process.env.FR_REPS ?? 5);
const CHECK_LOG = Number(process.env.CHECK_LOG ?? 16);

/** A circom-like key fast enough to make at 2^24: 1-2 terms a row in A, 1 in B, random values below r. */
function syntheticKey(logN: number, nVars: number): QapCoefficients {
  const n = 2 ** logN;
  let s = 0x9e3779b9 ^ logN;
  const next = () => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), s >>> 0);
  const count = Math.floor(2.5 * n);
  const matrix = new Uint32Array(count);
  const constraint = new Uint32Array(count);
  const signal = new Uint32Array(count);
  const values = new Uint32Array(8 * count);
  for (let i = 0; i < count; i++) {
    matrix[i] = i % 5 < 3 ? 0 : 1;
    constraint[i] = Math.floor(i / 2.5);
    signal[i] = next() % nVars;
    for (let l = 0; l < 8; l++) values[8 * i + l] = next();
    values[8 * i + 7] &= 0x0fffffff; // below r's top limb 0x30644e72
  }
  return { count, matrix, constraint, signal, values };
}

function syntheticWitness(nVars: number, seed: number): Uint32Array {
  let s = seed;
  const next = () => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), s >>> 0);
  const w = new Uint32Array(8 * nVars);
  for (let i = 0; i < w.length; i++) w[i] = i % 8 === 7 ? next() & 0x0fffffff : next();
  w.set([1, 0, 0, 0, 0, 0, 0, 0], 0);
  return w;
}

async function main(): Promise<void> {
  const gpu = await nodeGpu();
  const ctx = await GpuContext.create(gpu);
  const lim = ctx.limits;
  console.log(`device: ${ctx.description}; timestamps ${ctx.features.timestamps}`);
  console.log(
    `limits: binding ${lim.maxStorageBufferBindingSize} B, buffer ${lim.maxBufferSize} B, workgroup ${ctx.workgroup.tileBytes} B / ${ctx.workgroup.threads} threads`,
  );
  const roof = await roofline(ctx.device, gpu);
  console.log(`roofline: copy ${roof.copyGBs?.toFixed(0) ?? null} GB/s, BabyBear Montgomery ${roof.montGmuls?.toFixed(0) ?? null} G mul/s`);

  for (const row of [
    await checkFrOps(ctx, 4096),
    await checkFrNtt(ctx, 14, [
      [12, 4],
      [12, 3],
    ]),
    await checkQapStage(ctx, [2, 5, 10, 12]),
  ]) {
    console.log(`check ${row.step}: ${row.ok ? 'ok' : 'FAIL'} (${row.n}) ${row.detail}`);
    if (!row.ok) process.exit(1);
  }
  {
    const rng = new SplitMix64(0x16);
    const n = 2 ** CHECK_LOG;
    const nVars = n / 2;
    const coeffs = randomQapCoefficients(rng, n, nVars, 2);
    const w = Array.from({ length: nVars }, (_, i) => (i === 0 ? 1n : randomFr(rng)));
    const stage = await ctx.run(() => QapStage.upload(ctx, coeffs, n, nVars));
    const got = frValues(await ctx.run(() => stage.h(frWords(w))));
    stage.destroy();
    const t0 = performance.now();
    const want = groth16H(coeffs, w, n);
    const bad = got.findIndex((x, i) => x !== want[i]);
    console.log(
      `check qap h 2^${CHECK_LOG} (${coeffs.count} records) vs groth16H (${(performance.now() - t0).toFixed(0)} ms in bigints): ${bad < 0 ? 'ok' : `FAIL at ${bad}`}`,
    );
    if (bad >= 0) process.exit(1);
  }

  for (const logN of LOGS) {
    const n = 2 ** logN;
    const nVars = n;
    const t0 = performance.now();
    const coeffs = syntheticKey(logN, nVars);
    const tKey = performance.now();
    let stage: QapStage;
    try {
      stage = await ctx.run(() => QapStage.upload(ctx, coeffs, n, nVars));
    } catch (e) {
      console.log(`2^${logN}: ${(e as Error).message}`);
      continue;
    }
    const tUp = performance.now();
    const w = syntheticWitness(nVars, logN);
    const h0 = await ctx.run(() => stage.h(w));
    const walls: number[] = [];
    for (let r = 0; r < REPS; r++) {
      const t = performance.now();
      const h = await ctx.run(() => stage.h(w));
      walls.push(performance.now() - t);
      if (r === 0 && !h.every((x, i) => x === h0[i])) throw new Error('h differs between runs');
    }
    // The H200 runs short, gappy work at low clocks: 1.5 s of back-to-back stages first, then the
    // profiled runs, with the SM clock sampled over them (nvidia-smi).
    await warmUp(() => ctx.run(() => stage.hProfiled(w)), 1500);
    const clock = ClockSampler.start(20);
    const spans: [number, number][] = [];
    const gpus: number[] = [];
    const perPass = new Map<string, number[]>();
    for (let r = 0; r < REPS; r++) {
      const at = Date.now();
      const { profile } = await ctx.run(() => stage.hProfiled(w));
      spans.push([at, Date.now()]);
      gpus.push(profile.gpuMs ?? NaN);
      for (const p of profile.passes) perPass.set(p.label, [...(perPass.get(p.label) ?? []), p.ms ?? NaN]);
    }
    const mhz = clock.median(spans);
    // Batches of stages back to back in one submission: the boost clock, and no tick error.
    const batch = Math.max(4, Math.min(64, 2 ** (26 - logN)));
    await ctx.run(() => stage.timeBatch(w, batch));
    const batchSpans: [number, number][] = [];
    const batchMs: number[] = [];
    for (let r = 0; r < 3; r++) {
      const at = Date.now();
      batchMs.push((await ctx.run(() => stage.timeBatch(w, batch))).gpuMs ?? NaN);
      batchSpans.push([at, Date.now()]);
    }
    const batchMhz = clock.median(batchSpans);
    clock.stop();
    const m = stage.memory;
    const mib = (b: number) => (b / 2 ** 20).toFixed(0);
    console.log(
      `2^${logN}: ${coeffs.count} records; passes ${stage.plan.passes.map((p) => p.rLog).join('+')}; key ${(tKey - t0).toFixed(0)} ms, upload ${(tUp - tKey).toFixed(0)} ms; ` +
        `GPU ${median(gpus).toFixed(3)} ms at ${mhz ?? '?'} MHz (batched x${batch}: ${median(batchMs).toFixed(3)} ms a stage at ${batchMhz ?? '?'} MHz), wall ${median(walls).toFixed(2)} ms per witness; ` +
        `memory ${mib(m.total)} MiB (A,B,C ${mib(m.evaluations)}, scratch ${mib(m.scratch)}, roots ${mib(m.roots)}, coefficients ${mib(m.coefficients)}, witness ${mib(m.witness)})`,
    );
    const byKind = new Map<string, number>();
    for (const [label, ms] of perPass) {
      const kind = label.replace(/qap [ABC] /, 'qap X ');
      byKind.set(kind, (byKind.get(kind) ?? 0) + median(ms));
    }
    console.log(`  per pass (median ms, A+B+C summed): ${[...byKind].map(([k, v]) => `${k} ${v.toFixed(3)}`).join('; ')}`);
    stage.destroy();
  }
  ctx.destroy();
}

await main();
