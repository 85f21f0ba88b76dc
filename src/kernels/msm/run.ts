/**
 * One MSM run on the GPU, in one command buffer (or a chain of equal runs sharing one reduction,
 * a command buffer each: startMsmChain): the caller's packed scalars copied as they are
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
  /** the run's first scalar >= r (its index within the run, or chain), -1 if none */
  bad: number;
  /** one profile a part (a single run: one) */
  profiles: (ProfileReport | null)[];
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

/** One part of a chain: its bases (once uploaded), its first point in them, and its scalars. */
export interface ChainPart {
  bases: () => GPUBuffer | Promise<GPUBuffer>;
  base0: number;
  scalars: ScalarWords;
}

/**
 * One MSM over points [base0, base0 + plan.n) of uploaded bases and the caller's scalars: a chain
 * of one part (startMsmChain).
 */
export function startMsm(
  ctx: GpuContext,
  bases: GPUBuffer,
  base0: number,
  scalars: ScalarWords,
  plan: MsmPlan,
  profile = false,
): Promise<{ result: Promise<MsmRunResult> }> {
  return startMsmChain(ctx, plan, [{ bases: () => bases, base0, scalars }], profile);
}

/**
 * The MSM of a chain of parts of one plan (a split job's equal runs, each over its own points and
 * scalars), as one sequence of batches (schedule.ts): a submission per part, each after its
 * scalars are copied to the GPU, all sharing one set of buffers, and the reduction's final levels
 * once, after the last part, on the kept pairs every part added to. Resolves once the last part is
 * submitted; `result` resolves with the readback (a profile per part). The buffers go back to the
 * pool then (queue order keeps the next user after the chain), so a caller may start the next
 * chain while this one is on the GPU: batches and split jobs keep one run's memory.
 */
export async function startMsmChain(
  ctx: GpuContext,
  plan: MsmPlan,
  parts: readonly ChainPart[],
  profile = false,
): Promise<{ result: Promise<MsmRunResult> }> {
  const pipes = await msmPipelines(ctx.pipelines, plan);
  const held: GPUBuffer[] = [];
  const profs: Profiler[] = [];
  const reports: Promise<ProfileReport | null>[] = [];
  const bytes = packedScalarBytes(plan.n);
  // Which dispatch carries which reduction step: with riders, batch b's first pass rides in
  // batch b + 1's fix-up, its merging level in batch b + 2's walk, across parts too.
  const schedule = reduceSchedule(plan, parts.length);
  try {
    const bufs = acquireRunBuffers(ctx, plan, held);
    ctx.device.queue.writeBuffer(bufs.bad, 0, Uint32Array.of(NONE));
    let sums: GPUBuffer | undefined;
    let poolBytes = 0;
    for (const [p, part] of parts.entries()) {
      const { words, start, be } = part.scalars;
      const first = (MSM_BYTES.scalar / 4) * start;
      // Through the staging ring from RING_MIN_BYTES on in Node (5-6 GB/s against ~1.2 by writeBuffer),
      // like every upload: an 8 MiB threshold of its own measured equal at 2^12-2^16 once the ring's
      // slots were made ahead (bench/small-ab.ts, bench/RESULTS.md msm). Queue order puts the copy
      // after the previous part's submission, the last reader of the packed buffer.
      await ctx.uploadAsync(words.subarray(first, first + bytes / 4), 'msm packed scalars', undefined, bufs.packed);
      const bases = await part.bases();
      const last = p === parts.length - 1;
      const prof = new Profiler(ctx.device, profile && ctx.features.timestamps, 11 * plan.batches + plan.levels.length + 4);
      profs.push(prof);
      const rec = new RunRecorder(ctx, ctx.device.createCommandEncoder({ label: 'msm' }), prof, held);
      const split = new ScalarSplit(rec, pipes, bufs, plan, { bases, base0: part.base0, be, i0: start - parts[0].scalars.start });
      const reduction = new ReductionRecorder(rec, pipes, bufs, plan);
      if (plan.planes === SCALAR_HALVES) split.upTo(SCALAR_HALVES - 1);
      for (const batch of schedule.batches) {
        if (batch.part !== p) continue;
        const nb = batch.nw * plan.M;
        split.upTo(batchHalves(plan.c, batch.w0, batch.nw)[1]);
        // A batch starts from zero counts and all-zero bucket sums (the identity) in its slot.
        rec.enc.clearBuffer(bufs.counts, 0, (nb + 1) * 4);
        rec.enc.clearBuffer(bufs.bsum, MSM_BYTES.projective * batch.bofs, MSM_BYTES.projective * nb);
        recordSort(rec, pipes, bufs, plan, batch.w0, batch.nw);
        recordWalk(rec, pipes, bufs, plan, reduction, bases, part.base0, batch);
        for (const step of batch.after) reduction.alone(step);
      }
      if (last) {
        for (const step of schedule.tail) reduction.alone(step);
        sums = reduction.final();
      }
      prof.resolve(rec.enc);
      const t0 = performance.now();
      ctx.submit(rec.enc, 'msm batch');
      poolBytes = Math.max(poolBytes, ctx.pool.stats().bytesInUse);
      reports.push(profile ? prof.read(t0) : Promise.resolve(null));
    }
    // The reads wait on the last submission: issued together, one round trip to the GPU. Their
    // copies are encoded here, before the buffers go back to the pool.
    const reads = ctx.readRanges([
      { buffer: sums!, word: 0, count: plan.T * MSM_WORDS.pair },
      { buffer: bufs.bad, word: 0, count: 1 },
    ]);
    const result = Promise.all([Promise.all(reports), reads])
      .then(([profiles, [pairs, flag]]) => ({
        windows: windowSums(pairs, plan.T),
        bad: flag[0] === NONE ? -1 : flag[0],
        profiles,
        poolBytes,
      }))
      .finally(() => profs.forEach((p) => p.destroy()));
    result.catch(() => {}); // the caller awaits it; this keeps an early failure from going unhandled meanwhile
    return { result };
  } catch (e) {
    profs.forEach((p) => p.destroy());
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
