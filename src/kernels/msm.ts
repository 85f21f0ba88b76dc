/**
 * Host side of the BN254 MSM (wgsl/kernels/msm_*.wgsl): bases upload with Montgomery
 * conversion and on-curve check, then per batch of windows: count -> scan (3 passes) ->
 * scatter (bucket CSR), stream walker -> fix-up (bucket sums), segmented running sums into
 * (W, S) pairs kept for all windows; after the last batch, reduction levels over all windows
 * at once give the window sums. The T window sums (24 words each) come back and src/api/msm.ts folds them.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { storageUsage } from '../gpu/context.js';
import type { BindingKind } from '../gpu/pipeline-cache.js';
import type { KernelName } from '../wgsl.gen.js';
import { dispatch1d } from '../gpu/dispatch.js';
import { Profiler, type ProfileReport } from '../gpu/profiler.js';
import { batchWords, levelOut, partialsBytes, PREP_WG, RED_WG, SORT_WG, WALK_WG, type MsmPlan } from './msm-plan.js';

const SORT_B: BindingKind[] = ['read-only-storage', 'storage', 'storage', 'storage', 'storage', 'uniform'];
const WALK_B: BindingKind[] = ['read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'storage', 'uniform'];
const RED_B: BindingKind[] = ['read-only-storage', 'storage', 'uniform'];
export const PREP_B: BindingKind[] = ['storage', 'storage', 'uniform'];

/**
 * G1_MUL13 for kernels with the projective formulas (wgsl/lib/bn254_g1.wgsl g1_fmul): 13-bit-limb
 * multiplies on GPUs, the rolled 8x32 ones on CPU adapters, whose compiler crashes on the former.
 */
export function g1Mul13(ctx: GpuContext): number {
  return ctx.features.cpu ? 0 : 1;
}

/** Plan constants of an entry with msm_prep's bindings: msm_prep includes bn254_g1, msm_fq13 does not. */
export function prepConsts(ctx: GpuContext, kernel: KernelName): Record<string, number> {
  return kernel === 'msm_prep' ? { PREP_WG, G1_MUL13: g1Mul13(ctx) } : { PREP_WG };
}

/** The 8-word MsmParams uniform of every MSM kernel, unused words zero. */
export function uniform(ctx: GpuContext, words: number[]): GPUBuffer {
  const data = new Uint32Array(8);
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
 * Points (16 words each: x, y canonical little-endian limbs; (0, 0) = identity) into a GPU
 * buffer in Montgomery form. Returns the buffer and the smallest index not on the curve (-1: none).
 */
export async function uploadBases(ctx: GpuContext, words: Uint32Array, n: number): Promise<{ buf: GPUBuffer; bad: number }> {
  const buf = ctx.upload(words, 'msm bases');
  const bad = ctx.upload(new Uint32Array([0xffffffff]), 'msm bad');
  const prm = uniform(ctx, [n, 0]);
  try {
    const pipe = await ctx.pipelines.get('msm_prep', 'msm_to_mont', prepConsts(ctx, 'msm_prep'), PREP_B);
    const enc = ctx.device.createCommandEncoder({ label: 'msm bases' });
    const pass = enc.beginComputePass({ label: 'msm to_mont' });
    dispatch(pass, ctx, pipe, bindGroup(ctx, PREP_B, [buf, bad, prm]), n, PREP_WG);
    pass.end();
    ctx.device.queue.submit([enc.finish()]);
    const [first] = await ctx.readback(bad, 1);
    return { buf, bad: first === 0xffffffff ? -1 : first };
  } finally {
    ctx.pool.release(bad);
    ctx.pool.release(prm);
  }
}

export interface MsmRunResult {
  /** T window sums, 24 words each (projective X, Y, Z in Montgomery form) */
  windows: Uint32Array;
  profile: ProfileReport | null;
  /**
   * Pool bytes in use at the end of the run: the MSM's peak (every buffer of the run is still
   * held, the bases too). Not bytesHeld, which also counts free buffers kept from earlier jobs.
   */
  poolBytes: number;
}

/**
 * Scalars as 8 word planes: word k of scalar i at words[k·stride + start + i] (i < plan.n).
 * Planes keep each word of a chunk contiguous, so the ring below uploads one plane per write.
 */
export interface ScalarPlanes { words: Uint32Array; stride: number; start: number }

/** One MSM over uploaded bases and planar scalars (< r, identity points' scalars zeroed). */
export async function runMsm(ctx: GpuContext, bases: GPUBuffer, scalars: ScalarPlanes, plan: MsmPlan, profile = false): Promise<MsmRunResult> {
  const { n, c, M, S, nwin, T, planes } = plan;
  const nbMax = nwin * M;
  const sortP = { MSM_C: c, MSM_M: M, SORT_WG };
  const G1_MUL13 = g1Mul13(ctx);
  const walkP = { WALK_S: S, WALK_WG, WALK_MUL13: plan.mul13 ? 1 : 0, G1_MUL13 };
  const [pCount, pBlocks, pTotals, pAdd, pScatter, pWalk, pFix, pSeg, pWin] = await Promise.all([
    ctx.pipelines.get('msm_sort', 'msm_count', sortP, SORT_B),
    ctx.pipelines.get('msm_sort', 'msm_scan_blocks', sortP, SORT_B),
    ctx.pipelines.get('msm_sort', 'msm_scan_totals', sortP, SORT_B),
    ctx.pipelines.get('msm_sort', 'msm_scan_add', sortP, SORT_B),
    ctx.pipelines.get('msm_sort', 'msm_scatter', sortP, SORT_B),
    // msm_walk_wg: one inversion per workgroup and step (plan.wgInv); same bindings and outputs.
    ctx.pipelines.get('msm_walk', plan.wgInv ? 'msm_walk_wg' : 'msm_walk', walkP, WALK_B),
    ctx.pipelines.get('msm_walk', 'msm_fixup', walkP, WALK_B),
    ctx.pipelines.get('msm_reduce', 'msm_reduce_seg', { MSM_M: M, RED_SEG: plan.seg1, RED_WG, G1_MUL13 }, RED_B),
    ctx.pipelines.get('msm_reduce', 'msm_reduce_level', { MSM_M: M, RED_SEG: plan.seg1, RED_WG, G1_MUL13 }, RED_B),
  ]);
  const held: GPUBuffer[] = [];
  const acquire = (bytes: number, label: string) => {
    const b = ctx.pool.acquire(Math.max(bytes, 16), storageUsage(), label);
    held.push(b);
    return b;
  };
  const scalarBuf = acquire(4 * n * planes, 'msm scalars');
  const counts = acquire((nbMax + 1) * 4, 'msm counts');
  const offsets = acquire((nbMax + 1) * 4, 'msm offsets');
  const nblocks = Math.ceil((nbMax + 1) / (2 * SORT_WG));
  const bsums = acquire(nblocks * 4, 'msm block sums');
  const entries = acquire(n * nwin * 4, 'msm entries');
  const bsum = acquire(nbMax * 96, 'msm bucket sums');
  const partials = acquire(partialsBytes(plan), 'msm partials');
  const pairs = [acquire(T * plan.K * 192, 'msm reduction pairs'), acquire(T * levelOut(plan.K) * 192, 'msm reduction pairs')];
  const prof = new Profiler(ctx.device, profile && ctx.features.timestamps, 10 * plan.batches + plan.levels.length);
  let enc = ctx.device.createCommandEncoder({ label: 'msm' });
  let encoded = false;
  let t0 = -1;
  const submit = () => {
    if (t0 < 0) t0 = performance.now();
    ctx.device.queue.submit([enc.finish()]);
    enc = ctx.device.createCommandEncoder({ label: 'msm' });
    encoded = false;
  };
  // Planes [next, hi] into their ring slots. Work already encoded may still read the slots
  // being replaced, so it is submitted first: queue order puts the write after it.
  let next = 0;
  const planesUpTo = (hi: number) => {
    if (next > hi) return;
    if (encoded) submit();
    const { words, stride, start } = scalars;
    for (; next <= hi; next++) {
      ctx.device.queue.writeBuffer(scalarBuf, 4 * n * (next % planes), words.buffer, words.byteOffset + 4 * (next * stride + start), 4 * n);
    }
  };
  if (planes === 8) planesUpTo(7);
  try {
    for (let w0 = 0; w0 < T; w0 += nwin) {
      const nw = Math.min(nwin, T - w0);
      const nb = nw * M;
      planesUpTo(batchWords(c, w0, nw)[1]);
      const prm = uniform(ctx, [n, w0, nw, nb, plan.walkThreads, planes]);
      held.push(prm);
      enc.clearBuffer(counts, 0, (nb + 1) * 4);
      enc.clearBuffer(bsum, 0, nb * 96);
      const gSort = bindGroup(ctx, SORT_B, [scalarBuf, counts, offsets, bsums, entries, prm]);
      const gWalk = bindGroup(ctx, WALK_B, [bases, offsets, entries, bsum, partials, prm]);
      // First reduction pass: pairs of seg1 buckets, straight into the kept list when seg1 = seg,
      // else into scratch (partials) and one level merges seg / seg1 of them into each kept pair.
      const staged = plan.seg1 < plan.seg;
      const K1 = M / plan.seg1;
      const prmSeg = uniform(ctx, [n, w0, nw, nb, 0, 0, 0, staged ? 0 : w0 * plan.K]);
      const prmLvl = uniform(ctx, [n, 0, nw, 0, 0, K1, Math.log2(plan.seg / plan.seg1), w0 * plan.K]);
      held.push(prmSeg, prmLvl);
      const gRed = bindGroup(ctx, RED_B, [bsum, staged ? partials : pairs[0], prmSeg]);
      const gLvl = bindGroup(ctx, RED_B, [partials, pairs[0], prmLvl]);
      const stage = (label: string, pipe: GPUComputePipeline, group: GPUBindGroup, threads: number, wg: number, groups?: number) => {
        const pass = prof.beginPass(enc, label);
        if (groups !== undefined) {
          pass.setPipeline(pipe);
          pass.setBindGroup(0, group);
          pass.dispatchWorkgroups(groups);
        } else dispatch(pass, ctx, pipe, group, threads, wg);
        pass.end();
      };
      stage('count', pCount, gSort, n * nw, SORT_WG);
      stage('scan', pBlocks, gSort, 0, SORT_WG, Math.ceil((nb + 1) / (2 * SORT_WG)));
      stage('scan', pTotals, gSort, 0, SORT_WG, 1);
      stage('scan', pAdd, gSort, nb + 1, SORT_WG);
      stage('scatter', pScatter, gSort, n * nw, SORT_WG);
      stage('walk', pWalk, gWalk, 0, WALK_WG, plan.walkThreads / WALK_WG);
      stage('fixup', pFix, gWalk, nb, WALK_WG);
      stage('reduce', pSeg, gRed, 0, RED_WG, Math.ceil((nw * K1) / RED_WG));
      if (staged) stage('reduce', pWin, gLvl, 0, RED_WG, Math.ceil((nw * plan.K) / RED_WG));
      encoded = true;
    }
    // Reduction levels over all T windows at once: K pairs per window -> 1, ping-pong.
    let kin = plan.K;
    let at = 0;
    for (const g of plan.levels) {
      const prm = uniform(ctx, [n, 0, T, 0, 0, kin, g, 0]);
      held.push(prm);
      const group = bindGroup(ctx, RED_B, [pairs[at], pairs[1 - at], prm]);
      const pass = prof.beginPass(enc, 'window');
      dispatch(pass, ctx, pWin, group, T * (kin >> g), RED_WG);
      pass.end();
      kin >>= g;
      at = 1 - at;
    }
    prof.resolve(enc);
    submit();
    const report = profile ? await prof.read(t0) : null;
    const last = await ctx.readback(pairs[at], T * 48);
    const windows = new Uint32Array(T * 24);
    for (let j = 0; j < T; j++) windows.set(last.subarray(48 * j, 48 * j + 24), 24 * j);
    return { windows, profile: report, poolBytes: ctx.pool.stats().bytesInUse };
  } finally {
    prof.destroy();
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
    const pipe = await ctx.pipelines.get(kernel, entry, prepConsts(ctx, kernel), PREP_B);
    const enc = ctx.device.createCommandEncoder({ label: entry });
    const pass = enc.beginComputePass();
    dispatch(pass, ctx, pipe, bindGroup(ctx, PREP_B, [buf, bad, prm]), n, PREP_WG);
    pass.end();
    ctx.device.queue.submit([enc.finish()]);
    return await ctx.readback(buf, n * 32);
  } finally {
    for (const b of [buf, bad, prm]) ctx.pool.release(b);
  }
}
