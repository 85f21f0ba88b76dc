/**
 * Where a warm prover's extra time goes when the device's state changes (issues 29 and 31), one
 * fresh process per run, on the GPU machine (`node bench/dist/state-probe.mjs <mode>`):
 *
 * - `newsize`: lde 2^17 x 8 twice (as the cold suite's lde row), then lde 2^22 x 8 twice, each
 *   2^22 call with every WebGPU call logged (bench/support/gpu-call-log.ts): the largest host gaps
 *   between calls and the time spent creating buffers and in writeBuffer, first call against again.
 * - `merkle`: the host-arrays suite's lde row (2^24 -> 2^25 x 1, fresh results then into `out`),
 *   then STATE_PREP (none | trim: the pool's free buffers destroyed | ring: the staging ring's
 *   slots destroyed | idle: 1 s asleep), then merkleCommit 2^20 x 16 (medians of 5), its
 *   submissions and the call log of its last run. Tells which piece of the prover's state after
 *   the lde row makes the Merkle row ~2x slower (a fresh prover does not: bench/RESULTS.md);
 *   STATE_TRANSFER=1 runs the suite's bare transfer rows first, on their own context.
 * Prints JSON lines.
 * @module
 */
import { deviceProver } from '../src/prover.js';
import { BB_P } from '../src/params/babybear.js';
import { medianTime } from './support/stats.js';
import { gpuCallLog, type GpuCall } from './support/gpu-call-log.js';
import { nodeGpu } from './node-gpu.js';
import { transfers } from './host-arrays.js';

const values = (n: number, seed: number) => {
  const v = new Uint32Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    v[i] = x % BB_P;
  }
  return v;
};
const r2 = (x: number) => +x.toFixed(2);

/** What a call log says: total ms, the largest gaps (host time between two calls), buffer creation and writeBuffer. */
function summary(calls: readonly GpuCall[], totalMs: number) {
  const gaps = calls
    .slice(1)
    .map((c, i) => ({ ms: r2(c.at - calls[i].at), after: calls[i].call.slice(0, 90), before: c.call.slice(0, 90) }));
  gaps.sort((a, b) => b.ms - a.ms);
  const sum = (re: RegExp) => r2(gaps.filter((g) => re.test(g.before)).reduce((a, g) => a + g.ms, 0));
  return {
    totalMs: r2(totalMs),
    calls: calls.length,
    createBuffers: calls
      .filter((c) => c.call.includes('createBuffer('))
      .map((c) => c.call.replace(/^Device\.createBuffer/, '').slice(0, 80)),
    // A call's own time is in the gap that ends at the next call's log entry: the gaps *after* these calls.
    msAfterCreateBuffer: r2(calls.slice(0, -1).reduce((a, c, i) => a + (c.call.includes('createBuffer(') ? calls[i + 1].at - c.at : 0), 0)),
    msBeforeWriteBuffer: sum(/writeBuffer/),
    lastCallAt: r2(calls.at(-1)?.at ?? 0),
    topGaps: gaps.slice(0, 12),
    // Each awaited call (mapAsync, onSubmittedWorkDone, popErrorScope): when it was made and resolved.
    waits: calls
      .filter((c) => c.resolvedAt !== undefined)
      .slice(0, 24)
      .map((c) => `${c.call.slice(0, 60)} @${c.at.toFixed(2)} -> ${c.resolvedAt!.toFixed(2)}`),
  };
}

const mode = process.argv[2] ?? 'newsize';
const gpu = await nodeGpu();
const log = gpuCallLog();
if (mode === 'newsize') {
  // The cold suite's prover: default options (sampled checks, the self-check).
  const { prover } = await deviceProver({ gpu } as never);
  const lde = (log2: number, width: number) => {
    const x = values(2 ** log2 * width, log2 * 31 + width);
    return () => prover.lde(x, { width, addedBits: 1, shift: 31 });
  };
  const small = lde(17, 8);
  const big = lde(Number(process.env.STATE_BIG_LOG ?? 22), 8);
  for (const what of ['first 2^17', 'second 2^17']) {
    const t0 = performance.now();
    await small();
    console.log(JSON.stringify({ mode, what, ms: r2(performance.now() - t0) }));
  }
  for (const what of ['first 2^22', 'again 2^22', 'third 2^22']) {
    log.start();
    const t0 = performance.now();
    await big();
    const ms = performance.now() - t0;
    console.log(JSON.stringify({ mode, what, ...summary(log.stop(), ms) }));
  }
  prover.destroy();
} else {
  // STATE_TRANSFER=1: first the host-arrays suite's bare transfer rows, on a context of their own (destroyed after), as that suite does.
  if (process.env.STATE_TRANSFER === '1') await transfers(gpu, () => {});
  const { prover, ctx } = await deviceProver({ gpu, check: 'off', selfCheck: false, worker: false } as never);
  // STATE_LOG_N: a smaller job to try this file on a software adapter (default 24, the suite's).
  const n24 = values(2 ** Number(process.env.STATE_LOG_N ?? 24), 12345);
  if (process.env.STATE_LDE !== '0') {
    const run = (out?: Uint32Array) => prover.lde(n24, { width: 1, addedBits: 1, shift: 31, ...(out ? { out } : {}) });
    const fresh = await medianTime(() => run(), 5);
    const out = new Uint32Array(2 * n24.length);
    const into = await medianTime(() => run(out), 5);
    console.log(
      JSON.stringify({ mode, row: 'lde', freshMs: r2(fresh), outMs: r2(into), pool: ctx.pool.stats(), ringBytes: ctx.staging.bytes }),
    );
  }
  const prep = process.env.STATE_PREP ?? 'none';
  if (prep === 'trim') ctx.pool.trim();
  if (prep === 'ring') ctx.staging.destroy();
  if (prep === 'idle') await new Promise((r) => setTimeout(r, 1000));
  const commit = async () => (await prover.merkleCommit(n24, { width: 16 })).tree.dispose();
  const ms = await medianTime(commit, 5);
  log.start();
  const t0 = performance.now();
  await commit();
  const last = summary(log.stop(), performance.now() - t0);
  const submissions = (prover.stats() as { jobs?: { last?: unknown } }).jobs?.last;
  console.log(JSON.stringify({ mode, prep, row: 'merkle', medianMs: r2(ms), pool: ctx.pool.stats(), submissions, last }));
  prover.destroy();
}
log.restore();
process.exit(0);
