/**
 * Where each batch's bucket reduction runs (pure; unit-tested in test/unit/msm-schedule.test.ts).
 * A batch of windows leaves its bucket sums in bsum; the reduction turns them into (W, S) pairs
 * in two steps: the first pass (`seg`: segments of seg1 buckets, into scratch, or straight into
 * the kept pairs when seg1 = seg) and, for staged plans, the merging level (`level`: scratch ->
 * kept pairs). Without riders both run alone right after the batch's fix-up. With riders
 * (MsmPlan.riders) batch b's first pass rides in batch b + 1's fix-up dispatch and its level in
 * batch b + 2's walk dispatch; what the last batches leave runs alone at the end.
 *
 * The order is safe because with riders (see the unit test, which replays it):
 * - bucket sums live in a ring of two slots, batch b in slot b % 2: seg(b) runs in fix-up(b + 1),
 *   before batch b + 2 clears and refills slot b % 2;
 * - one scratch list: level(b) runs in walk(b + 2), before seg(b + 1) rewrites scratch in
 *   fix-up(b + 2); a dispatch never reads and writes the same list.
 *
 * A chain of parts (equal runs of one split job, run.ts) is one sequence of batches: the parts
 * share the ring, the scratch and the kept pairs, so a part's last batches ride in the next
 * part's first ones and only the chain's end runs reduction steps alone and the final levels.
 * The pairs are linear in the buckets, so a later part's steps that write kept pairs add to them
 * (`addsToKept`): the kept list ends as the whole vector's.
 * @module
 */
import type { MsmPlan } from './plan.js';

/**
 * Group sizes of the reduction levels, K pairs -> 1: groups of 4 (2 projective additions per
 * pair plus log2(scale) doublings per thread) while K >= 4, then one group of the rest.
 * Groups of 4 gave the shortest serial chain per level among 2, 4, 8, 16 by count.
 */
export function reduceLevels(K: number): number[] {
  const levels: number[] = [];
  let lg = Math.log2(K);
  for (; lg >= 2; lg -= 2) levels.push(2);
  if (lg > 0) levels.push(lg);
  return levels;
}

/** Pairs per window after the first level (the second ping-pong buffer's size). */
export function levelOut(K: number): number {
  return Math.max(1, K >> (reduceLevels(K)[0] ?? 0));
}

/** A batch's reduction: windows [w0, w0 + nw) of part `part`, bucket sums from bucket `bofs` of bsum. */
export interface Reduction {
  batch: number;
  part: number;
  w0: number;
  nw: number;
  bofs: number;
}

export interface ReduceStep {
  kind: 'seg' | 'level';
  r: Reduction;
}

export interface BatchSchedule extends Reduction {
  /** rides in this batch's walk dispatch (a merging level) */
  walkRider: ReduceStep | null;
  /** rides in this batch's fix-up dispatch (a first pass) */
  fixupRider: ReduceStep | null;
  /** run alone after this batch's fix-up (plans without riders) */
  after: ReduceStep[];
}

/** Whether a step adds to the kept pairs rather than writing them: a later part's, where it writes them. */
export function addsToKept(step: ReduceStep, plan: Pick<MsmPlan, 'seg' | 'seg1'>): boolean {
  return step.r.part > 0 && (step.kind === 'level' || plan.seg1 === plan.seg);
}

/** The batches of `parts` parts of one plan, in order, and the reduction steps left at the end. */
export function reduceSchedule(
  plan: Pick<MsmPlan, 'T' | 'nwin' | 'batches' | 'M' | 'riders' | 'seg' | 'seg1'>,
  parts = 1,
): {
  batches: BatchSchedule[];
  tail: ReduceStep[];
} {
  const staged = plan.seg1 < plan.seg;
  const nbMax = plan.nwin * plan.M;
  const both = (r: Reduction): ReduceStep[] =>
    staged
      ? [
          { kind: 'seg', r },
          { kind: 'level', r },
        ]
      : [{ kind: 'seg', r }];
  const batches: BatchSchedule[] = [];
  let toSeg: Reduction | null = null;
  let toLevel: Reduction | null = null;
  for (let batch = 0; batch < parts * plan.batches; batch++) {
    const part = Math.floor(batch / plan.batches);
    const w0 = (batch - part * plan.batches) * plan.nwin;
    const r: Reduction = { batch, part, w0, nw: Math.min(plan.nwin, plan.T - w0), bofs: plan.riders ? (batch % 2) * nbMax : 0 };
    if (!plan.riders) {
      batches.push({ ...r, walkRider: null, fixupRider: null, after: both(r) });
      continue;
    }
    batches.push({
      ...r,
      walkRider: toLevel && { kind: 'level', r: toLevel },
      fixupRider: toSeg && { kind: 'seg', r: toSeg },
      after: [],
    });
    toLevel = staged ? toSeg : null;
    toSeg = r;
  }
  // What the last batches left: the level before the first pass that overwrites its scratch.
  const tail: ReduceStep[] = [];
  if (toLevel) tail.push({ kind: 'level', r: toLevel });
  if (toSeg) tail.push(...both(toSeg));
  return { batches, tail };
}
