/**
 * One G2 MSM run on the GPU: the scalars split into half-planes, then per batch of windows G1's
 * counting sort (msm_sort: entries in bucket order), the balanced accumulation (g2msm_acc, its
 * levels) and the windows' bucket reduction (g2msm_reduce), all in one command buffer; the
 * window sums are read back and folded on the host (fold.ts).
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { storageUsage } from '../../gpu/context.js';
import type { BindingKind, Speed } from '../../gpu/pipeline-cache.js';
import { dispatch1d } from '../../gpu/dispatch.js';
import { SORT_PARAMS, type ParamsStruct } from '../msm/params.js';
import { scanBlocks } from '../msm/buffers.js';
import { SCALAR_HALVES } from '../../params/msm-layout.js';
import { G2_WORDS } from '../../params/bn254-g2.js';
import { ACC_PARAMS, G2_ACC_WG, G2_BYTES, G2_RED_WG, G2_SPLIT_WG, RED_PARAMS, SORT_WG, SPLIT_PARAMS } from './layout.js';
import { ACC_B, RED_B, SORT_B, SPLIT_B, g2Pipelines, type G2Pipelines } from './pipelines.js';
import type { Batch, G2MsmPlan } from './plan.js';
import { foldWindows, g2FromProjectiveWords, type G2Point } from './fold.js';
import { G2_QUICK_MAX_N, runG2Quick } from './quick.js';

type Bufs = Record<keyof G2MsmPlan['bytes'], GPUBuffer>;

/** Records the passes of one run into `enc`; uniforms and buffers go to `held` for release. */
class Recorder {
  constructor(
    private readonly ctx: GpuContext,
    readonly enc: GPUCommandEncoder,
    private readonly held: GPUBuffer[],
  ) {}

  params<F extends string>(s: ParamsStruct<F>, values: Readonly<Record<F, number>>): GPUBuffer {
    const buf = this.ctx.uploadUniform(s.pack(values), 'g2msm params');
    this.held.push(buf);
    return buf;
  }

  /** One compute pass: `threads` threads in groups of `wg` (2-D past 65535 groups), or exactly `groups` groups. */
  pass(
    pipe: GPUComputePipeline,
    kinds: readonly BindingKind[],
    bufs: readonly GPUBuffer[],
    size: { threads: number } | { groups: number },
    wg: number,
  ): void {
    const group = this.ctx.device.createBindGroup({
      layout: this.ctx.pipelines.layout(kinds),
      entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const pass = this.enc.beginComputePass();
    pass.setPipeline(pipe);
    pass.setBindGroup(0, group);
    if ('threads' in size) dispatch1d(pass, this.ctx.device, size.threads, wg);
    else pass.dispatchWorkgroups(size.groups);
    pass.end();
  }
}

/** msm_sort over windows [w0, w0 + nw): the batch's CSR in offsets and entries. */
function recordSort(r: Recorder, p: G2Pipelines, b: Bufs, plan: G2MsmPlan, batch: Batch): void {
  const { n, c, m, wide } = plan;
  const { w0, nw, nb } = batch;
  r.enc.clearBuffer(b.counts, 0, 4 * (nb + 1));
  const prm = r.params(SORT_PARAMS, { n, w0, nwin: nw, nb, planes: SCALAR_HALVES, c, m, wide });
  const bufs = [b.halves, b.counts, b.offsets, b.blockSums, b.entries, prm];
  r.pass(p.count, SORT_B, bufs, { threads: n * nw }, SORT_WG);
  r.pass(p.scanBlocks, SORT_B, bufs, { groups: scanBlocks(nb) }, SORT_WG);
  r.pass(p.scanTotals, SORT_B, bufs, { groups: 1 }, SORT_WG);
  r.pass(p.scanAdd, SORT_B, bufs, { threads: nb + 1 }, SORT_WG);
  r.pass(p.scatter, SORT_B, bufs, { threads: n * nw }, SORT_WG);
}

/** The batch's bucket sums: its accumulation levels, slots alternating between A and B. */
function recordAcc(r: Recorder, p: G2Pipelines, b: Bufs, bases: GPUBuffer, batch: Batch): void {
  r.enc.clearBuffer(b.buckets, 0, G2_BYTES.projective * batch.nb);
  batch.acc.forEach((l, i) => {
    const [pin, pout] = i % 2 === 0 ? [b.slotsB, b.slotsA] : [b.slotsA, b.slotsB];
    const prm = r.params(ACC_PARAMS, { mode: l.mode, kin: l.kin, seg: l.seg, nb: batch.nb, fin: l.fin ? 1 : 0, threads: l.threads });
    r.pass(p.acc, ACC_B, [bases, b.offsets, b.entries, pin, pout, b.buckets, prm], { threads: l.threads }, G2_ACC_WG);
  });
}

/** The batch's window sums into results[w0, w0 + nw): segments, then merge levels (pairs alternating A, B). */
function recordReduce(r: Recorder, p: G2Pipelines, b: Bufs, plan: G2MsmPlan, batch: Batch): void {
  const { m, lseg } = plan;
  const nwin = batch.nw;
  const seg = r.params(RED_PARAMS, { nwin, m, lseg, kin: 0 });
  r.pass(p.reduceSeg, RED_B, [b.buckets, b.pairsB, b.pairsA, seg], { threads: nwin * (m >> lseg) }, G2_RED_WG);
  let out = b.pairsA;
  batch.red.forEach((l, i) => {
    const [pin, pout] = i % 2 === 0 ? [b.pairsA, b.pairsB] : [b.pairsB, b.pairsA];
    const prm = r.params(RED_PARAMS, { nwin, m, lseg, kin: l.kin });
    r.pass(p.reduceLevel, RED_B, [b.buckets, pin, pout, prm], { threads: nwin * (l.kin >> 1) }, G2_RED_WG);
    out = pout;
  });
  r.enc.copyBufferToBuffer(out, 0, b.results, G2_BYTES.pair * batch.w0, G2_BYTES.pair * nwin);
}

/**
 * sum_{i < plan.n} k_i·P_i for the bases in `bases` (zkey words, checked) and `packed`
 * (8 words a scalar, each < r: the caller checked). Records and submits without queueing: the
 * caller holds the device's queue (a scheduler job, or GpuContext.run in checks and benches).
 * `only`: the bucket method ('fast') or the quick MSM (quick.ts) (checks run each), else as g2Pipelines
 * for up to G2_QUICK_MAX_N points.
 */
export async function runG2Msm(ctx: GpuContext, bases: GPUBuffer, packed: Uint32Array, plan: G2MsmPlan, only?: Speed): Promise<G2Point> {
  const chosen = await g2Pipelines(ctx.pipelines, only ?? (plan.n > G2_QUICK_MAX_N ? 'fast' : undefined));
  ctx.engineRuns[`g2 ${chosen.speed}`] = (ctx.engineRuns[`g2 ${chosen.speed}`] ?? 0) + 1;
  if (chosen.speed === 'quick') return runG2Quick(ctx, chosen.quick, bases, packed, plan.n);
  const pipes = chosen.pipes;
  const words = await (async () => {
    const held: GPUBuffer[] = [];
    try {
      const b = {} as Bufs;
      for (const [name, bytes] of Object.entries(plan.bytes) as [keyof Bufs, number][]) {
        if (name === 'packed') continue;
        b[name] = ctx.pool.acquire(Math.max(4, bytes), storageUsage(), `g2msm ${name}`);
        held.push(b[name]);
      }
      b.packed = await ctx.uploadAsync(packed.subarray(0, 8 * plan.n), 'g2msm scalars');
      held.push(b.packed);
      const r = new Recorder(ctx, ctx.device.createCommandEncoder({ label: 'g2msm' }), held);
      const split = r.params(SPLIT_PARAMS, { n: plan.n });
      r.pass(pipes.split, SPLIT_B, [b.packed, b.halves, split], { threads: Math.ceil(plan.n / 2) }, G2_SPLIT_WG);
      for (const batch of plan.batches) {
        recordSort(r, pipes, b, plan, batch);
        recordAcc(r, pipes, b, bases, batch);
        recordReduce(r, pipes, b, plan, batch);
      }
      return await ctx.submitAndRead(r.enc, 'g2msm', b.results, G2_WORDS.pair * plan.T);
    } finally {
      for (const buf of held) ctx.pool.release(buf);
    }
  })();
  const sums = Array.from({ length: plan.T }, (_, j) => g2FromProjectiveWords(words, G2_WORDS.pair * j));
  return foldWindows(sums, plan.c);
}
