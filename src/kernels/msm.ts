/**
 * Host side of the BN254 MSM (wgsl/kernels/msm_*.wgsl): bases upload with Montgomery
 * conversion and on-curve check; per run, the caller's packed scalars copied as they are and split
 * into half-planes on the GPU (msm_split, ahead of the first batch that reads each half; all in the
 * run's one command buffer), then per batch of windows: count -> scan (3 passes) ->
 * scatter (bucket CSR), stream walker -> fix-up (bucket sums), segmented running sums into
 * (W, S) pairs kept for all windows (with riders, MsmPlan.riders, those run as extra workgroups
 * of the next batches' fix-up and walk); after the last batch, reduction levels over all windows
 * at once give the window sums. The T window sums (24 words each) come back and src/api/msm.ts folds them.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { storageUsage } from '../gpu/context.js';
import type { BindingKind, PipelineRequest } from '../gpu/pipeline-cache.js';
import type { KernelName } from '../wgsl/kernels.gen.js';
import { dispatch1d } from '../gpu/dispatch.js';
import { Profiler, type ProfileReport } from '../gpu/profiler.js';
import { batchHalves, bucketSumBytes, halfPlaneWords, levelsInEntries, packedScalarBytes, partialsBytes, PREP_WG, RED_WG, reduceScratchBytes, SCALAR_HALVES, SORT_WG, SPLIT_WG, type MsmPlan } from './msm-plan.js';
import { reduceSchedule, type ReduceStep, type Reduction } from './msm-schedule.js';

const SORT_B: BindingKind[] = ['read-only-storage', 'storage', 'storage', 'storage', 'storage', 'uniform'];
// Walker and fix-up: bases, offsets, entries, bucket sums, partials, params, then the riders'
// input and output pair lists (bound to something distinct even without riders).
const WALK_B: BindingKind[] = ['read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'storage', 'uniform', 'read-only-storage', 'storage'];
const RED_B: BindingKind[] = ['read-only-storage', 'storage', 'uniform'];
export const PREP_B: BindingKind[] = ['storage', 'storage', 'uniform'];
// msm_split: packed scalars, bases, half-plane slots, the range check's flag, params.
const SPLIT_B: BindingKind[] = ['read-only-storage', 'read-only-storage', 'storage', 'storage', 'uniform'];

/** Plan constants of an entry with msm_prep's bindings. */
export const PREP_CONSTS = { PREP_WG };

/** The MsmParams uniform of every MSM kernel (8 words, 16 for msm_walk's), unused words zero. */
export function uniform(ctx: GpuContext, words: number[]): GPUBuffer {
  const data = new Uint32Array(16);
  data.set(words);
  return ctx.uploadUniform(data, 'msm params');
}

export function bindGroup(ctx: GpuContext, kinds: readonly BindingKind[], bufs: GPUBuffer[]): GPUBindGroup {
  return ctx.device.createBindGroup({
    layout: ctx.pipelines.layout(kinds),
    entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}

export function dispatch(pass: GPUComputePassEncoder, ctx: GpuContext, pipe: GPUComputePipeline, group: GPUBindGroup, threads: number, wg: number): void {
  pass.setPipeline(pipe);
  pass.setBindGroup(0, group);
  dispatch1d(pass, ctx.device, threads, wg);
}

/**
 * Points (16 words each: x, y as LE limbs, or with `be` as the caller's 64 bytes, x then y
 * big-endian; zeros = identity) into a GPU buffer in Montgomery form, range- and curve-checked on
 * the GPU. Returns the buffer, the smallest index not on the curve and the smallest with a
 * coordinate >= p (-1: none).
 */
/** msm_to_mont's products, run through one multiply site in a loop (msm_prep.wgsl says why). */
const TO_MONT_MULS = 5;

export async function uploadBases(ctx: GpuContext, words: Uint32Array, n: number, be: boolean): Promise<{ buf: GPUBuffer; bad: number; big: number }> {
  const buf = await ctx.uploadAsync(words, 'msm bases');
  const bad = ctx.upload(new Uint32Array([0xffffffff, 0xffffffff]), 'msm bad');
  const prm = uniform(ctx, [n, TO_MONT_MULS, be ? 1 : 0]);
  try {
    const [pipe] = await ctx.pipelines.all([MSM_BASES_PIPELINE]);
    const enc = ctx.device.createCommandEncoder({ label: 'msm bases' });
    const pass = enc.beginComputePass({ label: 'msm to_mont' });
    dispatch(pass, ctx, pipe, bindGroup(ctx, PREP_B, [buf, bad, prm]), n, PREP_WG);
    pass.end();
    ctx.submit(enc, 'msm bases');
    const [curve, range] = await ctx.readback(bad, 2);
    const first = (v: number) => (v === 0xffffffff ? -1 : v);
    return { buf, bad: first(curve), big: first(range) };
  } catch (e) {
    ctx.pool.release(buf);
    throw e;
  } finally {
    ctx.pool.release(bad);
    ctx.pool.release(prm);
  }
}

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
export interface ScalarWords { words: Uint32Array; start: number; be: boolean }

/**
 * The pipelines of one MSM run, in runMsm's order (count, 3 scans, scatter, walk, fix-up, reduce
 * segment, reduce level): requested together by runMsm and by the warm-up. The window size (c, M
 * buckets) reaches the kernels through their uniforms, so the constants here come from a few
 * variants (slots S: 4, 8, 16; walker and fix-up workgroups; first segment 1, 2 or 4; riders on or
 * off), never from n or c.
 */
export function msmPipelineRequests(plan: MsmPlan): PipelineRequest[] {
  const sortP = { SORT_WG };
  const redP = { RED_SEG: plan.seg1, RED_WG };
  // The reduction's segment only where riders use it (a CPU adapter compiles a walker for about a minute).
  const rideP = plan.riders ? { RED_SEG: plan.seg1, WALK_RIDERS: 1 } : { RED_SEG: 1, WALK_RIDERS: 0 };
  const walkP = { WALK_S: plan.S, WALK_WG: plan.walkWg, FIX_WG: plan.fixWg, WALK_MUL13: plan.mul13 ? 1 : 0, ...rideP };
  const sort = (entryPoint: string): PipelineRequest => ({ kernel: 'msm_sort', entryPoint, plan: sortP, bindings: SORT_B });
  return [
    MSM_SPLIT_PIPELINE, sort('msm_count'), sort('msm_scan_blocks'), sort('msm_scan_totals'), sort('msm_scan_add'), sort('msm_scatter'),
    // msm_walk_wg: one inversion per workgroup and step (plan.wgInv); same bindings and outputs.
    { kernel: 'msm_walk', entryPoint: plan.wgInv ? 'msm_walk_wg' : 'msm_walk', plan: walkP, bindings: WALK_B },
    { kernel: 'msm_walk', entryPoint: 'msm_fixup', plan: walkP, bindings: WALK_B },
    { kernel: 'msm_reduce', entryPoint: 'msm_reduce_seg', plan: redP, bindings: RED_B },
    { kernel: 'msm_reduce', entryPoint: 'msm_reduce_level', plan: redP, bindings: RED_B },
  ];
}

/** The caller's scalars into half-planes (msm_split.wgsl). */
const MSM_SPLIT_PIPELINE: PipelineRequest = { kernel: 'msm_split', entryPoint: 'msm_split', plan: { SPLIT_WG }, bindings: SPLIT_B };

/** The pipeline uploadBases runs (Montgomery form and the on-curve check). */
export const MSM_BASES_PIPELINE: PipelineRequest = { kernel: 'msm_prep', entryPoint: 'msm_to_mont', plan: PREP_CONSTS, bindings: PREP_B };

/**
 * One MSM over points [base0, base0 + plan.n) of uploaded bases and the caller's scalars: the
 * scalars are copied to the GPU and the run encoded and submitted (one submission) before this
 * resolves; `result` resolves with its readback. The run's buffers go back to the pool at once
 * (queue order keeps the next user after this run), so a caller may start the next run while
 * this one is on the GPU: batches and split jobs keep one run's memory.
 */
export async function startMsm(ctx: GpuContext, bases: GPUBuffer, base0: number, scalars: ScalarWords, plan: MsmPlan, profile = false): Promise<{ result: Promise<MsmRunResult> }> {
  const { n, c, M, nwin, T, planes } = plan;
  const nbMax = nwin * M;
  const [pSplit, pCount, pBlocks, pTotals, pAdd, pScatter, pWalk, pFix, pSeg, pWin] = await ctx.pipelines.all(msmPipelineRequests(plan));
  const held: GPUBuffer[] = [];
  const acquire = (bytes: number, label: string) => {
    const b = ctx.pool.acquire(Math.max(bytes, 16), storageUsage(), label);
    held.push(b);
    return b;
  };
  const slotWords = halfPlaneWords(n);
  const packed = acquire(packedScalarBytes(n), 'msm packed scalars');
  const { words, start, be } = scalars;
  ctx.device.queue.writeBuffer(packed, 0, words.buffer, words.byteOffset + 32 * start, packedScalarBytes(n));
  const bad = acquire(4, 'msm scalar check');
  ctx.device.queue.writeBuffer(bad, 0, Uint32Array.of(0xffffffff));
  const scalarBuf = acquire(4 * slotWords * planes, 'msm scalars');
  const counts = acquire((nbMax + 1) * 4, 'msm counts');
  const offsets = acquire((nbMax + 1) * 4, 'msm offsets');
  const nblocks = Math.ceil((nbMax + 1) / (2 * SORT_WG));
  const bsums = acquire(nblocks * 4, 'msm block sums');
  const entries = acquire(n * nwin * 4, 'msm entries');
  // With riders, a ring of two batches' bucket sums: batch b walks into slot b % 2 while its
  // dispatches reduce slot (b - 1) % 2.
  const bsum = acquire(bucketSumBytes(plan), 'msm bucket sums');
  const partials = acquire(partialsBytes(plan), 'msm partials');
  // The second list: the riders' scratch and the final levels' partner, or (levelsInEntries) the
  // entries buffer, dead by the final levels.
  const pairs = [acquire(T * plan.K * 192, 'msm reduction pairs'), levelsInEntries(plan) ? entries : acquire(reduceScratchBytes(plan), 'msm reduction pairs')];
  const prof = new Profiler(ctx.device, profile && ctx.features.timestamps, 11 * plan.batches + plan.levels.length + 1);
  const enc = ctx.device.createCommandEncoder({ label: 'msm' });
  const param = (words: number[]) => {
    const prm = uniform(ctx, words);
    held.push(prm);
    return prm;
  };
  // Halves [next, hi] into their ring slots, from the packed scalars (msm_split): encoded in the
  // same command buffer, whose pass order puts each slot's new half after the sorts that read
  // its old one.
  let next = 0;
  const planesUpTo = (hi: number) => {
    if (next > hi) return;
    const group = bindGroup(ctx, SPLIT_B, [packed, bases, scalarBuf, bad, param([n, next, hi, planes, be ? 1 : 0, base0])]);
    stage('split', pSplit, group, { threads: slotWords }, SPLIT_WG);
    next = hi + 1;
  };
  // threads: dispatch1d (2-D past 65535 groups); groups: exactly that many 1-D (walk, fix-up: riders
  // find themselves by workgroup index).
  const stage = (label: string, pipe: GPUComputePipeline, group: GPUBindGroup, size: { threads: number } | { groups: number }, wg = SORT_WG) => {
    const pass = prof.beginPass(enc, label);
    if ('threads' in size) dispatch(pass, ctx, pipe, group, size.threads, wg);
    else {
      pass.setPipeline(pipe);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(size.groups);
    }
    pass.end();
  };
  // The first reduction pass makes pairs of seg1 buckets, straight into the kept list when
  // seg1 = seg, else into scratch (partials, or with riders pairs[1]) and one level merges
  // seg / seg1 of them into each kept pair.
  const staged = plan.seg1 < plan.seg;
  const K1 = M / plan.seg1;
  const levelG = Math.log2(plan.seg / plan.seg1); // the merging level's groups: 2^levelG pairs
  const scratch = plan.riders ? pairs[1] : partials;
  const segStep = (r: Reduction) => ({ threads: r.nw * K1, out: staged ? 0 : r.w0 * plan.K, dst: staged ? scratch : pairs[0] });
  const levelStep = (r: Reduction) => ({ threads: r.nw * plan.K, out: r.w0 * plan.K });
  // A step on its own (msm_reduce): bucket sums bound from their slot on; a level has a lane per pair.
  const alone = ({ kind, r }: ReduceStep) => {
    if (kind === 'level') {
      const prmL = param([n, 0, r.nw, 0, 0, K1, levelG, levelStep(r).out]);
      stage('reduce', pWin, bindGroup(ctx, RED_B, [scratch, pairs[0], prmL]), { threads: levelStep(r).threads << levelG }, RED_WG);
      return;
    }
    const seg = segStep(r);
    const src = { buffer: bsum, offset: 96 * r.bofs, size: 96 * r.nw * M };
    const gSeg = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(RED_B),
      entries: [{ binding: 0, resource: src }, { binding: 1, resource: { buffer: seg.dst } }, { binding: 2, resource: { buffer: param([n, r.w0, r.nw, 0, M, 0, 0, seg.out]) } }],
    });
    stage('reduce', pSeg, gSeg, { threads: seg.threads }, RED_WG);
  };
  const NO_RIDER = 0xffffffff;
  // Which dispatch carries which reduction step (src/kernels/msm-schedule.ts): with riders, batch
  // b's first pass rides in batch b + 1's fix-up, its merging level in batch b + 2's walk.
  const schedule = reduceSchedule(plan);
  try {
    if (planes === SCALAR_HALVES) planesUpTo(SCALAR_HALVES - 1);
    for (const { w0, nw, bofs, walkRider, fixupRider, after } of schedule.batches) {
      const nb = nw * M;
      planesUpTo(batchHalves(c, w0, nw)[1]);
      const prm = param([n, w0, nw, nb, plan.walkThreads, planes, c, M]);
      enc.clearBuffer(counts, 0, (nb + 1) * 4);
      enc.clearBuffer(bsum, 96 * bofs, nb * 96);
      const gSort = bindGroup(ctx, SORT_B, [scalarBuf, counts, offsets, bsums, entries, prm]);
      stage('count', pCount, gSort, { threads: n * nw });
      stage('scan', pBlocks, gSort, { groups: Math.ceil((nb + 1) / (2 * SORT_WG)) });
      stage('scan', pTotals, gSort, { groups: 1 });
      stage('scan', pAdd, gSort, { threads: nb + 1 });
      stage('scatter', pScatter, gSort, { threads: n * nw });
      const walkGroups = plan.walkThreads / plan.walkWg;
      const fixGroups = Math.ceil(nb / plan.fixWg);
      // Walker params with a rider step (rkind 1: first pass, 2: merging level) or none.
      const walkBind = (step: ReduceStep | null, rgroup0: number, wg: number) => {
        const seg = step?.kind === 'seg' ? segStep(step.r) : null;
        const lvl = step?.kind === 'level' ? levelStep(step.r) : null;
        const threads = seg?.threads ?? lvl?.threads ?? 0;
        const prmW = param([n, w0, nw, nb, plan.walkThreads, planes, M, base0, bofs, step ? rgroup0 : NO_RIDER, threads,
          seg ? 1 : 2, step?.r.bofs ?? 0, levelG, seg?.out ?? lvl?.out ?? 0, 0]);
        // Rider input and output lists, distinct buffers: the first pass writes seg.dst (scratch =
        // pairs[1] with riders, or the kept pairs[0]); the level reads scratch and writes pairs[0].
        const [rin, rout] = seg && seg.dst === scratch ? [pairs[0], pairs[1]] : [pairs[1], pairs[0]];
        return { group: bindGroup(ctx, WALK_B, [bases, offsets, entries, bsum, partials, prmW, rin, rout]), riderGroups: Math.ceil(threads / wg) };
      };
      const w = walkBind(walkRider, walkGroups, plan.walkWg);
      stage('walk', pWalk, w.group, { groups: walkGroups + w.riderGroups });
      const f = walkBind(fixupRider, fixGroups, plan.fixWg);
      if (fixupRider) stage('fixup', pFix, f.group, { groups: fixGroups + f.riderGroups });
      else stage('fixup', pFix, f.group, { threads: nb }, plan.fixWg);
      for (const step of after) alone(step);
    }
    for (const step of schedule.tail) alone(step);
    // Reduction levels over all T windows at once: K pairs per window -> 1, ping-pong.
    let kin = plan.K;
    let at = 0;
    for (const g of plan.levels) {
      const group = bindGroup(ctx, RED_B, [pairs[at], pairs[1 - at], param([n, 0, T, 0, 0, kin, g, 0])]);
      stage('window', pWin, group, { threads: T * kin }, RED_WG); // a lane per pair
      kin >>= g;
      at = 1 - at;
    }
    prof.resolve(enc);
    const t0 = performance.now();
    ctx.submit(enc, 'msm batch');
    const poolBytes = ctx.pool.stats().bytesInUse;
    // The reads wait on the same submission: issued together, one round trip to the GPU. Their
    // copies are encoded here, before the buffers go back to the pool.
    const reads = ctx.readRanges([{ buffer: pairs[at], word: 0, count: T * 48 }, { buffer: bad, word: 0, count: 1 }]);
    const report = profile ? prof.read(t0) : Promise.resolve(null);
    const result = Promise.all([report, reads]).then(([profileReport, [last, flag]]) => {
      const windows = new Uint32Array(T * 24);
      for (let j = 0; j < T; j++) windows.set(last.subarray(48 * j, 48 * j + 24), 24 * j);
      return { windows, bad: flag[0] === 0xffffffff ? -1 : flag[0], profile: profileReport, poolBytes };
    }).finally(() => prof.destroy());
    result.catch(() => {}); // the caller awaits it; this keeps an early failure from going unhandled meanwhile
    return { result };
  } catch (e) {
    prof.destroy();
    throw e;
  } finally {
    for (const b of held) ctx.pool.release(b);
  }
}

/** GPU Fq check: pairs (a, b) as 16 canonical words each -> a·b, a+b, a-b, a^-1 (32 words per pair). */
export function fqCheck(ctx: GpuContext, pairs: Uint32Array): Promise<Uint32Array> {
  return runPairCheck(ctx, 'msm_prep', 'fq_check', pairs);
}

/**
 * Run a check entry point with msm_prep's bindings over pairs (a, b) of 16 canonical words each:
 * each pair gets 32 words (its inputs first), which the entry overwrites with its 4 results.
 */
export async function runPairCheck(ctx: GpuContext, kernel: KernelName, entry: string, pairs: Uint32Array): Promise<Uint32Array> {
  const n = pairs.length / 16;
  const words = new Uint32Array(n * 32);
  for (let i = 0; i < n; i++) words.set(pairs.subarray(16 * i, 16 * i + 16), 32 * i);
  const buf = ctx.upload(words, `${entry} pairs`);
  const bad = ctx.upload(new Uint32Array(1), `${entry} unused`);
  const prm = uniform(ctx, [n, 0]);
  try {
    const pipe = await ctx.pipelines.get(kernel, entry, PREP_CONSTS, PREP_B);
    const enc = ctx.device.createCommandEncoder({ label: entry });
    const pass = enc.beginComputePass();
    dispatch(pass, ctx, pipe, bindGroup(ctx, PREP_B, [buf, bad, prm]), n, PREP_WG);
    pass.end();
    ctx.submit(enc, entry);
    return await ctx.readback(buf, n * 32);
  } finally {
    for (const b of [buf, bad, prm]) ctx.pool.release(b);
  }
}

/**
 * msm_split alone, for its check against the host encoder (test/gpu/msm-paths-check.ts): n packed
 * scalars (8 words each) and n points (16 words each, zeros = identity, any other value counts as
 * a point) into all 16 half-planes; returns them (16 slots of ceil(n / 2) words) and the first
 * scalar >= r (-1: none).
 */
export async function splitCheck(ctx: GpuContext, words: Uint32Array, be: boolean, points: Uint32Array, n: number): Promise<{ planes: Uint32Array; bad: number }> {
  const slotWords = halfPlaneWords(n);
  const bufs = [ctx.upload(words, 'split check scalars'), ctx.upload(points, 'split check points'), ctx.pool.acquire(4 * slotWords * SCALAR_HALVES, storageUsage(), 'split check planes'),
    ctx.upload(Uint32Array.of(0xffffffff), 'split check flag'), uniform(ctx, [n, 0, SCALAR_HALVES - 1, SCALAR_HALVES, be ? 1 : 0, 0])];
  try {
    const [pipe] = await ctx.pipelines.all([MSM_SPLIT_PIPELINE]);
    const enc = ctx.device.createCommandEncoder({ label: 'split check' });
    const pass = enc.beginComputePass();
    dispatch(pass, ctx, pipe, bindGroup(ctx, SPLIT_B, bufs), slotWords, SPLIT_WG);
    pass.end();
    ctx.submit(enc, 'split check');
    const [planes, flag] = await ctx.readRanges([{ buffer: bufs[2], word: 0, count: slotWords * SCALAR_HALVES }, { buffer: bufs[3], word: 0, count: 1 }]);
    return { planes, bad: flag[0] === 0xffffffff ? -1 : flag[0] };
  } finally {
    for (const b of bufs) ctx.pool.release(b);
  }
}
