// MSM reduction schedule: every batch reduced exactly once, each step after what it reads and
// before what overwrites it, replayed as the sequence of dispatches src/kernels/msm/run.ts encodes.
import { describe, expect, it } from 'vitest';
import { msmPlan, type MsmTuning } from '../../src/kernels/msm/plan.js';
import { reduceSchedule } from '../../src/kernels/msm/schedule.js';

type Plan = ReturnType<typeof msmPlan>;

/** Events in dispatch order: bucket-sum slot cleared / filled, scratch written / read, steps run. */
function replay(plan: Plan) {
  const { batches, tail } = reduceSchedule(plan);
  const staged = plan.seg1 < plan.seg;
  const slotOwner = new Map<number, number>(); // bsum slot -> batch whose sums it holds
  let scratchOwner = -1; // batch whose first-pass pairs scratch holds (staged plans)
  const segDone = new Set<number>(),
    levelDone = new Set<number>();
  const errors: string[] = [];
  const run = (kind: 'seg' | 'level', b: number, bofs: number, where: string) => {
    if (kind === 'seg') {
      if (segDone.has(b)) errors.push(`${where}: seg(${b}) twice`);
      if (slotOwner.get(bofs) !== b) errors.push(`${where}: seg(${b}) reads slot ${bofs} holding batch ${slotOwner.get(bofs)}`);
      segDone.add(b);
      if (staged) {
        if (scratchOwner >= 0 && !levelDone.has(scratchOwner))
          errors.push(`${where}: seg(${b}) overwrites scratch of batch ${scratchOwner} before its level`);
        scratchOwner = b;
      }
    } else {
      if (levelDone.has(b)) errors.push(`${where}: level(${b}) twice`);
      if (scratchOwner !== b) errors.push(`${where}: level(${b}) reads scratch holding batch ${scratchOwner}`);
      levelDone.add(b);
    }
  };
  for (const s of batches) {
    // clear + sort + walk fill slot s.bofs; the walk's rider runs in the same dispatch, so it
    // must not read that slot (a level reads only scratch).
    if (s.walkRider?.kind === 'seg') errors.push(`walk(${s.batch}) carries a first pass`);
    const prev = slotOwner.get(s.bofs);
    if (prev !== undefined && prev !== s.batch && !segDone.has(prev))
      errors.push(`batch ${s.batch} clears slot ${s.bofs} before seg(${prev})`);
    slotOwner.set(s.bofs, s.batch);
    if (s.walkRider) run(s.walkRider.kind, s.walkRider.r.batch, s.walkRider.r.bofs, `walk(${s.batch})`);
    // fix-up completes slot s.bofs; a first pass riding beside it reads the other slot.
    if (s.fixupRider) {
      if (s.fixupRider.r.bofs === s.bofs) errors.push(`fixup(${s.batch}) rider reads the slot it fills`);
      run(s.fixupRider.kind, s.fixupRider.r.batch, s.fixupRider.r.bofs, `fixup(${s.batch})`);
    }
    for (const a of s.after) run(a.kind, a.r.batch, a.r.bofs, `after(${s.batch})`);
  }
  for (const a of tail) run(a.kind, a.r.batch, a.r.bofs, 'tail');
  for (const s of batches) {
    if (!segDone.has(s.batch)) errors.push(`batch ${s.batch}: no first pass`);
    if (staged && !levelDone.has(s.batch)) errors.push(`batch ${s.batch}: no merging level`);
  }
  return { batches, tail, errors };
}

describe('msm reduction schedule', () => {
  const tunings: MsmTuning[] = [{}, { riders: false }, { pairBytes: 192 * 16 * 2 }, { wgInv: false }];
  it('every batch reduced once, in a safe order, with and without riders, staged or not', () => {
    for (let logn = 0; logn <= 22; logn++) {
      for (const t of tunings) {
        const plan = msmPlan(1 << logn, t);
        const { batches, errors } = replay(plan);
        expect(errors, `2^${logn} ${JSON.stringify(t)}`).toEqual([]);
        expect(batches.reduce((a, s) => a + s.nw, 0)).toBe(plan.T);
      }
    }
    // Forced small batches (the low-memory checks' shapes): riders, staged and not.
    for (const nwin of [1, 2, 3]) {
      for (const pairBytes of [2 * 192 * 51, undefined]) {
        const plan = msmPlan(256, { lowMemory: true, scratchBytes: nwin * (4 * 256 + 96 * 32), pairBytes });
        expect(plan.riders).toBe(true);
        expect(replay(plan).errors).toEqual([]);
      }
    }
  });

  it('with riders: seg(b) in fix-up(b + 1), level(b) in walk(b + 2), the rest at the end', () => {
    const plan = msmPlan(1 << 20, { riders: true }); // one window a batch, 16 batches
    expect([plan.riders, plan.batches, plan.seg1 < plan.seg]).toEqual([true, 16, true]);
    const { batches, tail } = reduceSchedule(plan);
    batches.forEach((s, b) => {
      expect(s.fixupRider?.r.batch ?? -1).toBe(b >= 1 ? b - 1 : -1);
      expect(s.walkRider?.r.batch ?? -1).toBe(b >= 2 ? b - 2 : -1);
      expect(s.after).toEqual([]);
      expect(s.bofs).toBe((b % 2) * plan.nwin * plan.M);
    });
    expect(tail.map((x) => `${x.kind}${x.r.batch}`)).toEqual(['level14', 'seg15', 'level15']);
  });

  it('without riders: each batch reduces right after its fix-up, one bucket-sum slot', () => {
    const plan = msmPlan(1 << 20, { riders: false });
    const { batches, tail } = reduceSchedule(plan);
    for (const s of batches) {
      expect([s.walkRider, s.fixupRider, s.bofs]).toEqual([null, null, 0]);
      expect(s.after.map((x) => `${x.kind}${x.r.batch}`)).toEqual([`seg${s.batch}`, `level${s.batch}`]);
    }
    expect(tail).toEqual([]);
  });
});
