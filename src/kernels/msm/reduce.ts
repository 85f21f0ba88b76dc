/**
 * Recording the bucket reduction (msm_reduce; schedule.ts says where each step runs). A batch's
 * first pass makes pairs of seg1 buckets, straight into the kept list when seg1 = seg, else into
 * scratch (partials, or with riders the second pair list) and one merging level turns seg / seg1
 * of them into each kept pair. After the last batch, levels over all T windows at once take the
 * K kept pairs of each window to one.
 * @module
 */
import type { RunBuffers } from './buffers.js';
import { MSM_BYTES, RED_WG } from './layout.js';
import { REDUCE_PARAMS } from './params.js';
import { RED_B, type MsmPipelines } from './pipelines.js';
import type { MsmPlan } from './plan.js';
import type { RunRecorder } from './record.js';
import { addsToKept, type ReduceStep, type Reduction } from './schedule.js';

/** A first pass: its threads, the pair its output starts at, and the list it writes. */
export interface SegStep {
  threads: number;
  out: number;
  dst: GPUBuffer;
}
/** A merging level: its lanes' groups (threads / 2^levelG of them), the kept pair it writes from. */
export interface LevelStep {
  threads: number;
  out: number;
}

export class ReductionRecorder {
  /** whether a merging level follows each first pass */
  readonly staged: boolean;
  /** first-pass pairs per window */
  private readonly K1: number;
  /** log2 of the pairs the merging level merges into one */
  readonly levelG: number;
  /** where first passes write when staged */
  readonly scratch: GPUBuffer;

  constructor(
    private readonly rec: RunRecorder,
    private readonly pipes: MsmPipelines,
    private readonly bufs: RunBuffers,
    private readonly plan: MsmPlan,
  ) {
    this.staged = plan.seg1 < plan.seg;
    this.K1 = plan.M / plan.seg1;
    this.levelG = Math.log2(plan.seg / plan.seg1);
    this.scratch = plan.riders ? bufs.pairs[1] : bufs.partials;
  }

  seg(r: Reduction): SegStep {
    return { threads: r.nw * this.K1, out: this.staged ? 0 : r.w0 * this.plan.K, dst: this.staged ? this.scratch : this.bufs.pairs[0] };
  }

  level(r: Reduction): LevelStep {
    return { threads: r.nw * this.plan.K, out: r.w0 * this.plan.K };
  }

  /** 1 where the step adds to the kept pairs (a later part of a chain, schedule.ts addsToKept). */
  keep(step: ReduceStep): number {
    return addsToKept(step, this.plan) ? 1 : 0;
  }

  /** A step on its own (msm_reduce): bucket sums bound from their slot on; a level has a lane per pair. */
  alone(s: ReduceStep): void {
    const { kind, r } = s;
    const { M } = this.plan;
    const keep = this.keep(s);
    if (kind === 'level') {
      const step = this.level(r);
      const prm = this.rec.params(REDUCE_PARAMS, { nwin: r.nw, m: 0, kin: this.K1, g: this.levelG, out: step.out, lseg: 0, keep });
      this.rec.stage(
        'reduce',
        this.pipes.reduceLevel,
        this.rec.group(RED_B, [this.scratch, this.bufs.pairs[0], prm]),
        { threads: step.threads << this.levelG },
        RED_WG,
      );
      return;
    }
    const step = this.seg(r);
    const src = { buffer: this.bufs.bsum, offset: MSM_BYTES.projective * r.bofs, size: MSM_BYTES.projective * r.nw * M };
    const prm = this.rec.params(REDUCE_PARAMS, { nwin: r.nw, m: M, kin: 0, g: 0, out: step.out, lseg: Math.log2(this.plan.seg1), keep });
    this.rec.stage(
      'reduce',
      this.pipes.reduceSeg,
      this.rec.groupOf(RED_B, [src, { buffer: step.dst }, { buffer: prm }]),
      { threads: step.threads },
      RED_WG,
    );
  }

  /** The final levels over all windows, K pairs each -> 1, ping-pong; returns the list holding the result. */
  final(): GPUBuffer {
    const { T, K, levels } = this.plan;
    const pairs = this.bufs.pairs;
    let kin = K;
    let at = 0;
    for (const g of levels) {
      const prm = this.rec.params(REDUCE_PARAMS, { nwin: T, m: 0, kin, g, out: 0, lseg: 0, keep: 0 });
      this.rec.stage(
        'window',
        this.pipes.reduceLevel,
        this.rec.group(RED_B, [pairs[at], pairs[1 - at], prm]),
        { threads: T * kin },
        RED_WG,
      ); // a lane per pair
      kin >>= g;
      at = 1 - at;
    }
    return pairs[at];
  }
}
