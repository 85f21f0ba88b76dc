/**
 * Recording a batch's bucket sums (msm_walk): the stream walker over the batch's sorted entries,
 * then the fix-up of buckets whose entries cross walker threads. With riders (MsmPlan.riders)
 * each dispatch carries extra workgroups that run an earlier batch's reduction step
 * (schedule.ts): a merging level in the walk, a first pass in the fix-up.
 * @module
 */
import type { RunBuffers } from './buffers.js';
import { WALK_PARAMS } from './params.js';
import { WALK_B, type MsmPipelines } from './pipelines.js';
import type { MsmPlan } from './plan.js';
import type { RunRecorder } from './record.js';
import type { ReductionRecorder } from './reduce.js';
import type { BatchSchedule, ReduceStep } from './schedule.js';

/** rgroup0 of a dispatch without riders: no workgroup index reaches it. */
const NO_RIDER = 0xffffffff;

/** riders' rkind: the first pass over buckets, or a merging level over pairs. */
const RIDE_SEG = 1;
const RIDE_LEVEL = 2;

/**
 * The walk and the fix-up of one batch (windows [w0, w0 + nw), bucket sums from bucket bofs):
 * expects the batch's CSR (sort.ts) and its bucket-sum slot cleared.
 */
export function recordWalk(
  rec: RunRecorder,
  pipes: MsmPipelines,
  bufs: RunBuffers,
  plan: MsmPlan,
  red: ReductionRecorder,
  bases: GPUBuffer,
  base0: number,
  batch: BatchSchedule,
): void {
  const { nw, bofs, walkRider, fixupRider } = batch;
  const nb = nw * plan.M;
  // Params and bindings of a dispatch whose workgroups from rgroup0 on (if `step`) run the rider.
  const bind = (step: ReduceStep | null, rgroup0: number, wg: number) => {
    const seg = step?.kind === 'seg' ? red.seg(step.r) : null;
    const lvl = step?.kind === 'level' ? red.level(step.r) : null;
    const rthreads = seg?.threads ?? lvl?.threads ?? 0;
    const prm = rec.params(WALK_PARAMS, {
      nb,
      wthreads: plan.walkThreads,
      m: plan.M,
      base0,
      bofs,
      rgroup0: step ? rgroup0 : NO_RIDER,
      rthreads,
      rkind: seg ? RIDE_SEG : RIDE_LEVEL,
      rin: step?.r.bofs ?? 0,
      rg: red.levelG,
      rout: seg?.out ?? lvl?.out ?? 0,
      rlseg: Math.log2(plan.seg1),
      rkeep: step ? red.keep(step) : 0,
    });
    // Rider input and output lists, distinct buffers: the first pass writes seg.dst (scratch =
    // pairs[1] with riders, or the kept pairs[0]); the level reads scratch and writes pairs[0].
    const [rin, rout] = seg && seg.dst === red.scratch ? [bufs.pairs[0], bufs.pairs[1]] : [bufs.pairs[1], bufs.pairs[0]];
    const group = rec.group(WALK_B, [bases, bufs.offsets, bufs.entries, bufs.bsum, bufs.partials, prm, rin, rout]);
    return { group, riderGroups: Math.ceil(rthreads / wg) };
  };
  const walkGroups = plan.walkThreads / plan.walkWg;
  const w = bind(walkRider, walkGroups, plan.walkWg);
  rec.stage('walk', pipes.walk, w.group, { groups: walkGroups + w.riderGroups }, plan.walkWg);
  const fixGroups = Math.ceil(nb / plan.fixWg);
  const f = bind(fixupRider, fixGroups, plan.fixWg);
  if (fixupRider) rec.stage('fixup', pipes.fixup, f.group, { groups: fixGroups + f.riderGroups }, plan.fixWg);
  else rec.stage('fixup', pipes.fixup, f.group, { threads: nb }, plan.fixWg);
}
