// What the NTT records, pass by pass, equals what it recorded before it was planned once
// (issue 22): the fixture was captured from main at b07df56 by the same GPU-less stand-in
// context (test/support/ntt-trace.ts), for every op at 2^0-2^24, widths 1-16, two device shapes,
// each bench A/B override and per-pass compute passes. Same pipeline requests (entry points,
// constants, overrides), same tables and uniforms bound, same grids: the same kernels at the same speed.
import { describe, expect, it } from 'vitest';
import fixture from './ntt-recording.fixture.json' with { type: 'json' };
import { nttToGpu } from '../../src/kernels/ntt/record.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';
import { nttLimits, planNtt } from '../../src/kernels/ntt/plan.js';
import { twoLevelAt, withTuning, type NttTuning } from '../../src/kernels/ntt/tuning.js';
import { NTT_FLAG_LAST } from '../../src/kernels/ntt/passes.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { traceNtt, TRACE_DEVICES } from '../support/ntt-trace.js';

interface Recording {
  computePasses?: number;
  passes?: Array<[string, number, string, string]>;
  error?: string;
}
const { requests, recordings, layouts } = fixture as unknown as {
  requests: unknown[];
  recordings: Record<string, Recording>;
  layouts: Record<string, number[]>;
};

/**
 * The job and tuning of a fixture key: `${device} ${JSON spec}[ per-pass]`, the spec in the old
 * NttSpec's words (job fields and tuning knobs in one record; a forced stagedFirstPass or
 * twoLevel said in the tuning's words).
 */
function parse(key: string): { device: string; job: NttJob; tuning: Partial<NttTuning>; perPass: boolean } {
  const perPass = key.endsWith(' per-pass');
  const body = perPass ? key.slice(0, -' per-pass'.length) : key;
  const at = body.indexOf(' ');
  const { op, height, width, addedBits, shift, bitReversed, stagedFirstPass, twoLevel, ...knobs } = JSON.parse(
    body.slice(at + 1),
  ) as Record<string, never>;
  const tuning: { -readonly [K in keyof NttTuning]?: NttTuning[K] } = { ...knobs, ...(twoLevel === undefined ? {} : twoLevelAt(twoLevel)) };
  if (stagedFirstPass !== undefined) tuning.stageBelowWidth = stagedFirstPass ? Infinity : 0;
  // The fixture predates firstPassLoads: each first pass had its own flags' pipeline ('static').
  tuning.firstPassLoads ??= 'static';
  // ... and firstEntry: a first pass ran the running-twiddle entry point.
  tuning.firstEntry ??= false;
  return { device: body.slice(0, at), job: { op, height, width, addedBits, shift, bitReversed }, tuning, perPass };
}

async function record(key: string): Promise<Recording> {
  const { device, job, tuning, perPass } = parse(key);
  try {
    const t = await traceNtt(TRACE_DEVICES[device], (ctx, enc, input) =>
      nttToGpu(ctx, enc, job, input, perPass ? () => undefined : undefined, tuning),
    );
    return {
      computePasses: t.computePasses,
      passes: t.passes.map((p) => [
        p.label,
        requests.findIndex((r) => JSON.stringify(r) === JSON.stringify(p.pipeline)),
        p.bindings.join(' '),
        p.grid.join(','),
      ]),
    };
  } catch (e) {
    return { error: String((e as Error).message) };
  }
}

describe('NTT recording equals the recording before the refactor', () => {
  const keys = Object.keys(recordings);
  it(`covers ${keys.length} jobs`, () => expect(keys.length).toBeGreaterThan(700));
  for (const device of Object.keys(TRACE_DEVICES)) {
    it(`${device}: every job records the same passes, pipelines, bindings and grids`, async () => {
      for (const key of keys.filter((k) => k.startsWith(`${device} `))) {
        expect(await record(key), key).toEqual(recordings[key]);
      }
    });
    it(`${device}: every job requests the same pipelines, in the same order`, () => {
      for (const key of Object.keys(layouts).filter((k) => k.startsWith(`${device} `))) {
        const { job, tuning } = parse(key);
        const dev = TRACE_DEVICES[device] as unknown as GpuContext;
        let got: readonly unknown[];
        try {
          got = planNtt(job, withTuning(tuning), nttLimits(dev)).requests;
        } catch {
          got = [-1];
        }
        const want = layouts[key].map((i) => (i < 0 ? -1 : requests[i]));
        expect(JSON.parse(JSON.stringify(got)), key).toEqual(want);
      }
    });
  }
});

describe("firstPassLoads 'uniform' (the default) against the recording's 'static'", () => {
  it('changes only the first passes: their load flags come from the uniform, so fewer pipelines, never more', () => {
    for (const key of Object.keys(layouts)) {
      const { device, job, tuning } = parse(key);
      const dev = TRACE_DEVICES[device] as unknown as GpuContext;
      let fixed: ReturnType<typeof planNtt>, shared: ReturnType<typeof planNtt>;
      try {
        fixed = planNtt(job, withTuning(tuning), nttLimits(dev));
      } catch {
        continue;
      }
      shared = planNtt(job, withTuning({ ...tuning, firstPassLoads: 'uniform' }), nttLimits(dev));
      expect(shared.requests.length, key).toBeLessThanOrEqual(fixed.requests.length);
      expect(
        shared.steps.map((s) => [s.label, s.uniform, s.grid]),
        key,
      ).toEqual(fixed.steps.map((s) => [s.label, s.uniform, s.grid]));
      shared.steps.forEach((s, i) => {
        const a = shared.requests[s.pipeline];
        const b = fixed.requests[fixed.steps[i].pipeline];
        if (a.plan?.NTT_STATIC_FLAGS === 2) {
          expect(s.pass.ns, key).toBe(1); // a first pass ...
          expect(a.overrides?.NTT_FLAGS, key).toBe((b.overrides?.NTT_FLAGS ?? 0) & ~(2 | 16 | 64)); // ... whose load flags left the override
        } else {
          expect(a, key).toEqual(b);
        }
      });
    }
  });
});

describe('firstEntry (the default) against the recording', () => {
  it('changes only first passes that are not the last: `_first` for the running entry point, same flags, uniforms, tables and grids', () => {
    let changed = 0;
    for (const key of Object.keys(layouts)) {
      const { device, job, tuning } = parse(key);
      const dev = TRACE_DEVICES[device] as unknown as GpuContext;
      let running: ReturnType<typeof planNtt>;
      try {
        running = planNtt(job, withTuning(tuning), nttLimits(dev));
      } catch {
        continue;
      }
      const first = planNtt(job, withTuning({ ...tuning, firstEntry: true }), nttLimits(dev));
      expect(first.steps.length, key).toBe(running.steps.length);
      first.steps.forEach((s, i) => {
        const r = running.steps[i];
        expect([s.uniform, s.grid, s.tw, s.sc, s.workgroupSize], key).toEqual([r.uniform, r.grid, r.tw, r.sc, r.workgroupSize]);
        const a = first.requests[s.pipeline];
        const b = running.requests[r.pipeline];
        if (s.entryPoint !== r.entryPoint) {
          changed++;
          expect([s.entryPoint, s.pass.ns, s.pass.flags & NTT_FLAG_LAST], key).toEqual([`${r.entryPoint}_first`, 1, 0]);
          expect({ ...a, entryPoint: b.entryPoint }, key).toEqual(b);
        } else {
          expect(a, key).toEqual(b);
        }
      });
    }
    expect(changed).toBeGreaterThan(100);
  });
});
