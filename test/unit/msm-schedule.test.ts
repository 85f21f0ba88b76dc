// MSM reduction schedule: every batch reduced exactly once, each step after what it reads and
// before what overwrites it, replayed as the sequence of dispatches src/kernels/msm/run.ts encodes;
// in a chain of parts, each window's kept pairs written by part 0 and added to by the later parts
// in order.
import { describe, expect, it } from 'vitest';
import { msmPlan, type MsmTuning } from '../../src/kernels/msm/plan.js';
import { addsToKept, reduceSchedule, type ReduceStep } from '../../src/kernels/msm/schedule.js';

type Plan = ReturnType<typeof msmPlan>;

/** Events in dispatch order: bucket-sum slot cleared / filled, scratch written / read, steps run. */
function replay(plan: Plan, parts = 1) {
  const { batches, tail } = reduceSchedule(plan, parts);
  const staged = plan.seg1 < plan.seg;
  const keptWrites = new Map<number, number>(); // window -> parts that wrote its kept pairs so far
  const slotOwner = new Map<number, number>(); // bsum slot -> batch whose sums it holds
  let scratchOwner = -1; // batch whose first-pass pairs scratch holds (staged plans)
  const segDone = new Set<number>(),
    levelDone = new Set<number>();
  const errors: string[] = [];
  const kept = (step: ReduceStep, where: string) => {
    if (step.kind === 'seg' && staged) return; // into scratch
    for (let w = step.r.w0; w < step.r.w0 + step.r.nw; w++) {
      const done = keptWrites.get(w) ?? 0;
      if (done !== step.r.part) errors.push(`${where}: part ${step.r.part} writes window ${w} after ${done} parts`);
      if (addsToKept(step, plan) !== done > 0) errors.push(`${where}: window ${w} ${done > 0 ? 'overwritten' : 'added to before written'}`);
      keptWrites.set(w, done + 1);
    }
  };
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
    const step = (x: ReduceStep, where: string) => {
      run(x.kind, x.r.batch, x.r.bofs, where);
      kept(x, where);
    };
    if (s.walkRider) step(s.walkRider, `walk(${s.batch})`);
    // fix-up completes slot s.bofs; a first pass riding beside it reads the other slot.
    if (s.fixupRider) {
      if (s.fixupRider.r.bofs === s.bofs) errors.push(`fixup(${s.batch}) rider reads the slot it fills`);
      step(s.fixupRider, `fixup(${s.batch})`);
    }
    for (const a of s.after) step(a, `after(${s.batch})`);
  }
  for (const a of tail) {
    run(a.kind, a.r.batch, a.r.bofs, 'tail');
    kept(a, 'tail');
  }
  for (const s of batches) {
    if (!segDone.has(s.batch)) errors.push(`batch ${s.batch}: no first pass`);
    if (staged && !levelDone.has(s.batch)) errors.push(`batch ${s.batch}: no merging level`);
  }
  for (let w = 0; w < plan.T; w++) if (keptWrites.get(w) !== parts) errors.push(`window ${w}: ${keptWrites.get(w) ?? 0} of ${parts} parts`);
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

  it('a chain of parts: one sequence of batches, riders crossing parts, kept pairs written once then added to', () => {
    for (const parts of [2, 3, 4]) {
      for (const logn of [8, 12, 16, 18, 20]) {
        for (const t of [{}, { riders: false }, { riders: true }, { pairBytes: 192 * 16 * 2 }]) {
          const plan = msmPlan(1 << logn, t);
          const { batches, errors } = replay(plan, parts);
          expect(errors, `2^${logn} x ${parts} ${JSON.stringify(t)}`).toEqual([]);
          expect(batches.length).toBe(parts * plan.batches);
        }
      }
      for (const nwin of [1, 2, 3]) {
        const plan = msmPlan(256, { lowMemory: true, scratchBytes: nwin * (4 * 256 + 96 * 32), pairBytes: 2 * 192 * 51 });
        expect(replay(plan, parts).errors).toEqual([]);
      }
    }
    // With riders the first part's last batches ride in the second part's first ones.
    const plan = msmPlan(1 << 20, { riders: true });
    const { batches, tail } = reduceSchedule(plan, 2);
    expect(batches[16].part).toBe(1);
    expect([batches[16].walkRider?.r.batch, batches[16].fixupRider?.r.batch]).toEqual([14, 15]);
    expect(tail.map((x) => `${x.kind}${x.r.batch}`)).toEqual(['level30', 'seg31', 'level31']);
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
