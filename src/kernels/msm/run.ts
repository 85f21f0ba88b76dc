/**
 * One MSM run on the GPU, in one command buffer: the caller's packed scalars copied as they are
 * and split into half-planes (sort.ts, msm_split, ahead of the first batch that reads each half),
 * then per batch of windows the counting sort into buckets (sort.ts), the walker and fix-up into
 * bucket sums (walk.ts) and the bucket reduction into (W, S) pairs kept for all windows
 * (reduce.ts; with riders it runs inside later batches' dispatches, schedule.ts); after the last
 * batch, reduction levels over all windows at once give the window sums. The T window sums come
 * back and the host folds them (fold.ts). Plans: plan.ts and runs.ts; buffers: buffers.ts.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { Profiler, type ProfileReport } from '../../gpu/profiler.js';
import { acquireRunBuffers, packedScalarBytes } from './buffers.js';
import { batchHalves, MSM_BYTES, MSM_WORDS, SCALAR_HALVES } from './layout.js';
import { msmPipelines } from './pipelines.js';
import type { MsmPlan } from './plan.js';
import { RunRecorder } from './record.js';
import { ReductionRecorder } from './reduce.js';
import { reduceSchedule } from './schedule.js';
import { recordSort, ScalarSplit } from './sort.js';
import { recordWalk } from './walk.js';

/** The scalar check's flag before the run: no index reaches it. */
const NONE = 0xffffffff;

export interface MsmRunResult {
  /** T window sums, 24 words each (projective X, Y, Z in Montgomery form) */
  windows: Uint32Array;
  /** the run's first scalar >= r (its index within the run), -1 if none */
  bad: number;
  profile: ProfileReport | null;
  /**
   * Pool bytes in use once the run was submitted: the MSM's peak (every buffer of the run is
   * held, the bases and the scalars too). Not bytesHeld, which also counts free buffers kept from
   * earlier jobs.
   */
  poolBytes: number;
}

/**
 * The caller's scalars as they were given: 8 words per scalar (its 32 bytes read as LE words,
 * big-endian bytes when `be`), this run's from scalar `start`. The GPU turns them into half-planes
 * (msm_split.wgsl): the host only copies the bytes.
 */
export interface ScalarWords {
  words: Uint32Array;
  start: number;
  be: boolean;
}

/**
 * One MSM over points [base0, base0 + plan.n) of uploaded bases and the caller's scalars: the
 * scalars are copied to the GPU and the run encoded and submitted (one submission) before this
 * resolves; `result` resolves with its readback. The run's buffers go back to the pool at once
 * (queue order keeps the next user after this run), so a caller may start the next run while
 * this one is on the GPU: batches and split jobs keep one run's memory.
 */
export async function startMsm(
  ctx: GpuContext,
  bases: GPUBuffer,
  base0: number,
  scalars: ScalarWords,
  plan: MsmPlan,
  profile = false,
): Promise<{ result: Promise<MsmRunResult> }> {
  const pipes = await msmPipelines(ctx.pipelines, plan);
  const held: GPUBuffer[] = [];
  const bufs = acquireRunBuffers(ctx, plan, held);
  const { words, start, be } = scalars;
  const first = (MSM_BYTES.scalar / 4) * start;
  const bytes = packedScalarBytes(plan.n);
  // Through the staging ring from RING_MIN_BYTES on in Node (5-6 GB/s against ~1.2 by writeBuffer),
  // like every upload: an 8 MiB threshold of its own measured equal at 2^12-2^16 once the ring's
  // slots were made ahead (bench/small-ab.ts, bench/RESULTS.md msm).
  try {
    await ctx.uploadAsync(words.subarray(first, first + bytes / 4), 'msm packed scalars', undefined, bufs.packed);
  } catch (e) {
    for (const b of held) ctx.pool.release(b);
    throw e;
  }
  ctx.device.queue.writeBuffer(bufs.bad, 0, Uint32Array.of(NONE));
  const prof = new Profiler(ctx.device, profile && ctx.features.timestamps, 11 * plan.batches + plan.levels.length + 1);
  const rec = new RunRecorder(ctx, ctx.device.createCommandEncoder({ label: 'msm' }), prof, held);
  const split = new ScalarSplit(rec, pipes, bufs, plan, { bases, base0, be });
  const reduction = new ReductionRecorder(rec, pipes, bufs, plan);
  // Which dispatch carries which reduction step: with riders, batch b's first pass rides in
  // batch b + 1's fix-up, its merging level in batch b + 2's walk.
  const schedule = reduceSchedule(plan);
  try {
    if (plan.planes === SCALAR_HALVES) split.upTo(SCALAR_HALVES - 1);
    for (const batch of schedule.batches) {
      const nb = batch.nw * plan.M;
      split.upTo(batchHalves(plan.c, batch.w0, batch.nw)[1]);
      // A batch starts from zero counts and all-zero bucket sums (the identity) in its slot.
      rec.enc.clearBuffer(bufs.counts, 0, (nb + 1) * 4);
      rec.enc.clearBuffer(bufs.bsum, MSM_BYTES.projective * batch.bofs, MSM_BYTES.projective * nb);
      recordSort(rec, pipes, bufs, plan, batch.w0, batch.nw);
      recordWalk(rec, pipes, bufs, plan, reduction, bases, base0, batch);
      for (const step of batch.after) reduction.alone(step);
    }
    for (const step of schedule.tail) reduction.alone(step);
    const sums = reduction.final();
    prof.resolve(rec.enc);
    const t0 = performance.now();
    ctx.submit(rec.enc, 'msm batch');
    const poolBytes = ctx.pool.stats().bytesInUse;
    // The reads wait on the same submission: issued together, one round trip to the GPU. Their
    // copies are encoded here, before the buffers go back to the pool.
    const reads = ctx.readRanges([
      { buffer: sums, word: 0, count: plan.T * MSM_WORDS.pair },
      { buffer: bufs.bad, word: 0, count: 1 },
    ]);
    const report = profile ? prof.read(t0) : Promise.resolve(null);
    const result = Promise.all([report, reads])
      .then(([profileReport, [pairs, flag]]) => {
        return { windows: windowSums(pairs, plan.T), bad: flag[0] === NONE ? -1 : flag[0], profile: profileReport, poolBytes };
      })
      .finally(() => prof.destroy());
    result.catch(() => {}); // the caller awaits it; this keeps an early failure from going unhandled meanwhile
    return { result };
  } catch (e) {
    prof.destroy();
    throw e;
  } finally {
    for (const b of held) ctx.pool.release(b);
  }
}

/** The W of each window's last pair: its window sum. */
function windowSums(pairs: Uint32Array, T: number): Uint32Array {
  const P = MSM_WORDS.projective;
  const windows = new Uint32Array(T * P);
  for (let j = 0; j < T; j++) windows.set(pairs.subarray(MSM_WORDS.pair * j, MSM_WORDS.pair * j + P), P * j);
  return windows;
}
