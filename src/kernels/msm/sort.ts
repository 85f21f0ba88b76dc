/**
 * Recording the MSM's first stages: the caller's scalars split into half-planes (msm_split), and
 * per batch of windows the counting sort of (point, sign) entries into bucket order (msm_sort:
 * count, a 3-pass scan, scatter), which leaves the batch's CSR in offsets and entries.
 * @module
 */
import type { RunBuffers } from './buffers.js';
import { halfPlaneWords, scanBlocks } from './buffers.js';
import { SORT_WG, SPLIT_WG, wideWindows } from './layout.js';
import { SORT_PARAMS, SPLIT_PARAMS } from './params.js';
import { SORT_B, SPLIT_B, type MsmPipelines } from './pipelines.js';
import type { MsmPlan } from './plan.js';
import type { RunRecorder } from './record.js';

/**
 * The run's scalars: n from point base0 of the bases, big-endian bytes when `be`; i0: the run's
 * first scalar within its chain (where a scalar >= r is reported).
 */
export interface SplitSource {
  bases: GPUBuffer;
  base0: number;
  be: boolean;
  i0: number;
}

/**
 * Half-planes into their ring slots as the batches need them (msm_split): `upTo(hi)` records the
 * split of halves not split yet up to hi. One command buffer holds the whole run, and its pass
 * order puts each slot's new half after the sorts that read its old one.
 */
export class ScalarSplit {
  private next = 0;

  constructor(
    private readonly rec: RunRecorder,
    private readonly pipes: MsmPipelines,
    private readonly bufs: RunBuffers,
    private readonly plan: MsmPlan,
    private readonly src: SplitSource,
  ) {}

  upTo(hi: number): void {
    if (this.next > hi) return;
    const { n, planes } = this.plan;
    const { bases, base0, be, i0 } = this.src;
    const prm = this.rec.params(SPLIT_PARAMS, { n, hlo: this.next, hhi: hi, planes, be: be ? 1 : 0, base0, i0 });
    const group = this.rec.group(SPLIT_B, [this.bufs.packed, bases, this.bufs.halves, this.bufs.bad, prm]);
    this.rec.stage('split', this.pipes.split, group, { threads: halfPlaneWords(n) }, SPLIT_WG);
    this.next = hi + 1;
  }
}

/**
 * The counting sort of windows [w0, w0 + nw): digits counted per bucket, the counts scanned into
 * CSR offsets, entries scattered. Expects counts cleared for the batch's nb + 1 buckets.
 */
export function recordSort(rec: RunRecorder, pipes: MsmPipelines, bufs: RunBuffers, plan: MsmPlan, w0: number, nw: number): void {
  const { n, c, M, planes } = plan;
  const nb = nw * M;
  const prm = rec.params(SORT_PARAMS, { n, w0, nwin: nw, nb, planes, c, m: M, wide: wideWindows(c) });
  const group = rec.group(SORT_B, [bufs.halves, bufs.counts, bufs.offsets, bufs.blockSums, bufs.entries, prm]);
  rec.stage('count', pipes.count, group, { threads: n * nw }, SORT_WG);
  rec.stage('scan', pipes.scanBlocks, group, { groups: scanBlocks(nb) }, SORT_WG);
  rec.stage('scan', pipes.scanTotals, group, { groups: 1 }, SORT_WG);
  rec.stage('scan', pipes.scanAdd, group, { threads: nb + 1 }, SORT_WG);
  rec.stage('scatter', pipes.scatter, group, { threads: n * nw }, SORT_WG);
}
