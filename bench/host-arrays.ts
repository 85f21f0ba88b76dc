/**
 * Host arrays in and out, `npm run bench -- transfer` (GPU machine: `node bench/dist/bench.mjs
 * transfer`; `node bench/dist/host-arrays.mjs` runs the same suite alone): what a caller waits
 * for when it hands the prover a Uint32Array and wants one back, next to what the copies alone
 * cost through the same GPUDevice. Public API plus the context's own upload/readback paths, so
 * the same file bundled against an earlier commit's sources measures the previous version in
 * the same device command.
 * Rows:
 * - `transfer`: bare 4 / 16 / 64 MB uploads (writeBuffer; the staging ring) and readbacks (a fresh
 *   array; into a reused array), GB/s, medians of 7;
 * - `crossover`: 16 KB .. 4 MB (2 MB too), writeBuffer against the ring each way, medians of 9: where the
 *   ring starts to pay (the prover uses it from RING_MIN_BYTES);
 * - `job`: dft 2^24 x 1, lde 2^24 -> 2^25 x 1, poseidon2 over 2^20 width-16 states, merkleCommit
 *   of 2^20 x 16, end to end with a fresh result and with `out`, medians of 5, each over its
 *   transfer bound (input up and output down at this run's 64 MB rates); and dft 2^12 / 2^14 /
 *   2^16 x 1 end to end, medians of 25 (small jobs against an earlier version: bench/small-ab.ts).
 *   Each row after 300 ms of its own job, with the SM clock of its timed span. TRANSFER_ONLY=<rows>
 *   picks rows (small, dft, lde, p2, merkle) after the transfer rows.
 * Every result is checked once against src/ref (the NTTs' rows from their definition, Poseidon2's
 * first states) before timing; the Merkle root is printed to compare across versions.
 * @module
 */
import { createProver } from '../src/index.js';
import { GpuContext } from '../src/gpu/context.js';
import { nttEntry } from '../src/checks/ntt-entry.js';
import type { NttJob } from '../src/kernels/ntt/job.js';
import { poseidon2 } from '../src/ref/poseidon2.js';
import { BB_P } from '../src/params/babybear.js';
import { medianTime as timeIt } from './support/stats.js';
import { transferBoundMs, type TransferRates } from './transfer-bound.js';
import { warmUp } from './node-gpu.js';
import { ClockSampler } from './gpu-clock.js';
import type { BenchOutput } from './field.js';

type Row = Record<string, unknown>;
const values = (n: number) => {
  const v = new Uint32Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    v[i] = x % BB_P;
  }
  return v;
};
const r2 = (x: number) => +x.toFixed(2);

/** The bare copies through one GpuContext: 64 MB rates for the jobs' bounds. */
export async function transfers(gpu: GPU, emit: (r: Row) => void): Promise<TransferRates> {
  const ctx = await GpuContext.create(gpu);
  const rate: TransferRates = { upBytesPerMs: NaN, downBytesPerMs: NaN };
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const settle = () => ctx.device.queue.onSubmittedWorkDone();
  try {
    for (const mb of [4, 16, 64]) {
      const data = values(mb << 18);
      const bytes = data.byteLength;
      const gbs = (ms: number) => r2(bytes / ms / 1e6);
      const wb = await timeIt(async () => {
        ctx.pool.release(ctx.upload(data));
        await settle();
      }, 7);
      const rg = await timeIt(async () => {
        ctx.pool.release(await ctx.uploadAsync(data));
        await settle();
      }, 7);
      const src = ctx.pool.acquire(bytes, usage, 'probe');
      ctx.device.queue.writeBuffer(src, 0, data);
      const fresh = await timeIt(() => ctx.readback(src, data.length), 7);
      const reused = new Uint32Array(data.length);
      const into = await timeIt(() => ctx.readback(src, data.length, reused), 7);
      const back = await ctx.readback(src, data.length);
      if (!back.every((v, i) => v === data[i])) throw new Error(`readback of ${mb} MB differs`);
      ctx.pool.release(src);
      emit({
        bench: 'transfer',
        row: 'transfer',
        MB: mb,
        uploadWriteBufferGBs: gbs(wb),
        uploadRingGBs: gbs(rg),
        readbackFreshGBs: gbs(fresh),
        readbackIntoOutGBs: gbs(into),
      });
      if (mb === 64) Object.assign(rate, { upBytesPerMs: bytes / rg, downBytesPerMs: bytes / into });
    }
    // Small transfers: the ring (forced) against writeBuffer / one pooled readback buffer.
    for (const kb of [16, 64, 256, 1024, 2048, 4096]) {
      const data = values(kb << 8);
      const reused = new Uint32Array(data.length);
      const src = ctx.pool.acquire(data.byteLength, usage, 'probe');
      ctx.device.queue.writeBuffer(src, 0, data);
      const wb = await timeIt(async () => {
        ctx.pool.release(ctx.upload(data));
        await settle();
      }, 9);
      const ringUp = await timeIt(async () => {
        const dst = ctx.pool.acquire(data.byteLength, usage, 'probe');
        await ctx.staging.write(dst, 0, data);
        await settle();
        ctx.pool.release(dst);
      }, 9);
      const pooledDown = await timeIt(() => ctx.readback(src, data.length, reused), 9);
      const ringDown = await timeIt(() => ctx.staging.read([{ buffer: src, word: 0, count: data.length, out: reused, at: 0 }]), 9);
      ctx.pool.release(src);
      emit({
        bench: 'transfer',
        row: 'crossover',
        KB: kb,
        uploadWriteBufferMs: r2(wb),
        uploadRingMs: r2(ringUp),
        readbackPooledMs: r2(pooledDown),
        readbackRingMs: r2(ringDown),
      });
    }
  } finally {
    ctx.destroy();
  }
  return rate;
}

export async function benchTransfer(gpu: GPU): Promise<BenchOutput> {
  const rows: Row[] = [];
  const emit = (r: Row) => {
    rows.push(r);
    console.log(JSON.stringify(r));
  };
  const rate = await transfers(gpu, emit);
  // The SM clock of each job row's timed span (null without nvidia-smi). Every row is timed after
  // 300 ms of its own job (node-gpu.ts warmUp): at the H100's idle 345 MHz, the Merkle row read
  // 25-28 ms where warm it reads 10-13 (bench/RESULTS.md, runtime, host arrays: 2026-11-26, ce72a94, H100).
  const clock = ClockSampler.start(20);
  // TRANSFER_WARM_MS: how long each row runs its job before timing it (default 300).
  const warmMs = Number(process.env.TRANSFER_WARM_MS ?? 300);
  const make = () => createProver({ gpu, check: 'off', selfCheck: false, worker: false });
  let prover = await make();
  let ok = true;
  try {
    const bound = (inBytes: number, outBytes: number) => transferBoundMs(rate, inBytes, 0, outBytes);
    const job = async (
      name: string,
      inBytes: number,
      outLen: number,
      run: (out?: Uint32Array) => Promise<Uint32Array>,
      right: (r: Uint32Array) => boolean,
      reps = 5,
    ) => {
      if (!right(await run())) {
        ok = false;
        emit({ bench: 'transfer', row: 'job', job: name, ok: false, detail: 'wrong result' });
        return;
      }
      await warmUp(() => run(), warmMs);
      const t0 = Date.now();
      const fresh = await timeIt(() => run(), reps);
      const out = new Uint32Array(outLen);
      const withOut = await timeIt(() => run(out), reps);
      const smMHz = clock.median([[t0, Date.now()]]);
      const b = bound(inBytes, outLen * 4);
      emit({
        bench: 'transfer',
        row: 'job',
        job: name,
        freshMs: r2(fresh),
        outMs: r2(withOut),
        transferBoundMs: r2(b),
        freshOverBound: r2(fresh / b),
        outOverBound: r2(withOut / b),
        smMHz,
      });
    };
    const n24 = values(1 << 24);
    // TRANSFER_ONLY=<rows>: some rows only (small, dft, lde, p2, merkle; e.g. `merkle` alone for a
    // CPU profile, `p2,merkle` to see what a row before the Merkle one costs it). TRANSFER_GC=1
    // (with node --expose-gc): a full collection before the Merkle row. TRANSFER_FRESH=1: the Merkle
    // row on a new prover (its own device and pool): tells the earlier rows' pool and device state
    // from the GPU's.
    const only = process.env.TRANSFER_ONLY?.split(',');
    const want = (row: string) => !only || only.includes(row);
    // Rows checked from their definition (src/checks/ntt-entry.ts): a 2^24 reference transform in JS takes seconds.
    const rowsRight = (x: Uint32Array, r: Uint32Array, spec: NttJob) =>
      [0, 1, 123 % r.length, r.length - 1].every((row) => r[row] === nttEntry(spec, x, row, 0));
    for (const logN of want('small') ? [12, 14, 16] : []) {
      const x = n24.subarray(0, 1 << logN);
      await job(
        `dft 2^${logN} x 1`,
        x.byteLength,
        x.length,
        (out) => prover.dft(x, { width: 1, ...(out ? { out } : {}) }),
        (r) => rowsRight(x, r, { op: 'dft', height: x.length, width: 1, bitReversed: false }),
        25,
      );
    }
    if (want('dft'))
      await job(
        'dft 2^24 x 1',
        n24.byteLength,
        1 << 24,
        (out) => prover.dft(n24, { width: 1, ...(out ? { out } : {}) }),
        (r) => rowsRight(n24, r, { op: 'dft', height: 1 << 24, width: 1, bitReversed: false }),
      );
    if (want('lde'))
      await job(
        'lde 2^24 -> 2^25 x 1',
        n24.byteLength,
        1 << 25,
        (out) => prover.lde(n24, { width: 1, addedBits: 1, shift: 31, ...(out ? { out } : {}) }),
        (r) => rowsRight(n24, r, { op: 'lde', height: 1 << 24, width: 1, bitReversed: false, addedBits: 1, shift: 31 }),
      );
    const states = n24.subarray(0, 16 << 20);
    if (want('p2'))
      await job(
        'poseidon2 2^20 x 16',
        states.byteLength,
        16 << 20,
        (out) => prover.poseidon2(states, { width: 16, ...(out ? { out } : {}) }),
        (r) => [0, 1, 2, (1 << 20) - 1].every((s) => poseidon2(states.subarray(16 * s, 16 * s + 16)).every((v, i) => v === r[16 * s + i])),
      );
    if (!want('merkle')) return { rows, ok };
    if (process.env.TRANSFER_GC === '1') (globalThis as { gc?: () => void }).gc?.();
    if (process.env.TRANSFER_FRESH === '1') {
      prover.destroy();
      prover = await make();
    }
    let root: Uint32Array | undefined;
    const commit = async () => {
      const c = await prover.merkleCommit(n24, { width: 16 });
      root = c.root;
      c.tree.dispose();
    };
    // TRANSFER_COLD_CLOCK=1: no warm-up, as a caller after an idle spell calls (the H100 then stays at 345 MHz for the row).
    if (process.env.TRANSFER_COLD_CLOCK !== '1') await warmUp(commit, warmMs);
    const startedAt = Date.now();
    const commitMs = await timeIt(commit, 5);
    const b = bound(n24.byteLength, 32);
    // Each submission's GPU time in the last run (the upload chunks carry the leaf hashing now).
    const submissions = (prover.stats() as { jobs?: { last?: unknown } }).jobs?.last;
    emit({
      bench: 'transfer',
      row: 'job',
      job: 'merkleCommit 2^20 x 16',
      freshMs: r2(commitMs),
      outMs: null,
      transferBoundMs: r2(b),
      freshOverBound: r2(commitMs / b),
      root: Array.from(root!).join(','),
      submissions,
      smMHz: clock.median([[startedAt, Date.now()]]),
    });
  } finally {
    clock.stop();
    prover.destroy();
  }
  return { rows, ok };
}

// Run alone as bench/dist/host-arrays.mjs (also what an earlier commit's bundle of this file
// runs). Checked by the script's name: bundled into bench.mjs, import.meta.url is bench.mjs's.
if (process.argv[1]?.endsWith('host-arrays.mjs')) {
  const { nodeGpu } = await import('./node-gpu.js');
  const { ok } = await benchTransfer(await nodeGpu());
  process.exit(ok ? 0 : 1);
}
