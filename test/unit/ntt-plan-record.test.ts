// planNtt (src/kernels/ntt/plan.ts) without a GPU: the plan is a frozen record whose passes cover
// every bit of each transform, whose grids cover every pass's threads within the adapter's
// per-dimension cap, whose inverse scale (idft, lde) appears exactly once; the same jobs under
// WebGPU's default limits and an H100's change tiles (staging, two-level groups) but not the
// passes' uniforms, and running either plan's steps on the CPU (test/support/ntt-cpu-passes.ts,
// tables as the steps name them) gives src/ref's output.
import { describe, expect, it } from 'vitest';
import * as ref from '../../src/ref/ntt.js';
import { bbInv, bbMul } from '../../src/field/babybear.js';
import type { NttJob, NttOp } from '../../src/kernels/ntt/job.js';
import { DEFAULT_NTT_LIMITS, planNtt, type NttPlan } from '../../src/kernels/ntt/plan.js';
import { NTT_FLAG_FOLDED_SCALE, NTT_FLAG_HALF, NTT_FLAG_LAST, NTT_FLAG_SCALE, passFlags } from '../../src/kernels/ntt/passes.js';
import { tableWords } from '../../src/kernels/ntt/tables.js';
import { NTT_TUNING, twoLevelAt, withTuning, type NttTuning } from '../../src/kernels/ntt/tuning.js';
import type { NttLimits } from '../../src/kernels/ntt/layout.js';
import { runRegisterPass, runTwoLevelPass } from '../support/ntt-cpu-passes.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const H100: NttLimits = { threads: 1024, tileBytes: 49152, maxWorkgroupsPerDim: 65535, maxWords: 2 ** 30 - 1 };
const SMALL_GRID: NttLimits = { ...DEFAULT_NTT_LIMITS, maxWorkgroupsPerDim: 1024 };
const OPS: NttOp[] = ['dft', 'idft', 'lde', 'encode'];
const job = (op: NttOp, log: number, width: number, bits = 1): NttJob => ({
  op,
  height: 2 ** log,
  width,
  ...(op === 'lde' || op === 'encode' ? { addedBits: bits } : {}),
  ...(op === 'lde' ? { shift: 31 } : {}),
});

/** log2 of each transform's rows covered by its passes' radices (a folded padding pass counts its radix 2). */
function coveredBits(plan: NttPlan): number[] {
  const out: number[] = [];
  let bits = 0;
  for (const p of plan.passes) {
    bits += Math.log2(p.radix) + (p.flags & NTT_FLAG_HALF ? 1 : 0);
    if (p.flags & NTT_FLAG_LAST) {
      out.push(bits);
      bits = 0;
    }
  }
  return out;
}

/** The transforms a job runs, by rows: an lde's idft then its padded dft. */
function transformBits(j: NttJob): number[] {
  const log = Math.log2(j.height),
    bits = j.addedBits ?? 0;
  return j.op === 'lde' ? [log, log + bits] : j.op === 'encode' ? [log + bits] : [log];
}

function checkInvariants(plan: NttPlan, limits: NttLimits): void {
  const j = plan.job,
    w = j.width;
  expect(
    Object.isFrozen(plan) && Object.isFrozen(plan.steps) && plan.steps.every((s) => Object.isFrozen(s) && Object.isFrozen(s.pass)),
  ).toBe(true);
  expect(coveredBits(plan)).toEqual(transformBits(j));
  // Every pass but a fused one's partner is recorded, in order, and each reads what the last wrote.
  const recorded = plan.passes.map((_, i) => i).filter((i) => plan.fused < 0 || i !== plan.fused + 1);
  expect(plan.steps.map((s) => s.index)).toEqual(recorded);
  plan.steps.forEach((s, k) => {
    expect(s.srcRows).toBe(k === 0 ? j.height : plan.steps[k - 1].dstRows);
    if (k > 0) expect(s.dst).not.toBe(plan.steps[k - 1].dst);
    const [x, y] = s.grid;
    expect(x <= limits.maxWorkgroupsPerDim && y <= limits.maxWorkgroupsPerDim).toBe(true);
    if (s.pass.sub > 0) {
      expect(x * y * s.groups).toBeGreaterThanOrEqual(s.pass.n / s.pass.radix); // a workgroup runs `groups` groups
      expect(s.workgroupSize).toBeLessThanOrEqual(limits.threads);
    } else {
      expect(x * y * s.workgroupSize).toBeGreaterThanOrEqual((s.pass.n / s.pass.radix) * w);
    }
    expect(s.uniform).toEqual([s.pass.n, s.pass.ns, s.pass.inRows, s.pass.twShift, passFlags(s.pass), s.pass.logN, s.uniform[6], 0]);
    expect(plan.requests[s.pipeline].entryPoint).toBe(s.entryPoint);
  });
  expect(plan.steps.at(-1)!.dstRows).toBe(plan.outRows);
  // The inverse scale: once for idft / lde (in one store, or folded into one split table), never otherwise.
  const scaled = plan.passes.filter((p) => p.flags & (NTT_FLAG_SCALE | NTT_FLAG_FOLDED_SCALE));
  expect(scaled.length).toBe(j.op === 'idft' || j.op === 'lde' ? 1 : 0);
  if (plan.scale) {
    const [c, g, n] = plan.scale;
    expect([c, g, n]).toEqual([bbInv(j.height), bbMul(j.shift ?? 1, ref.twoAdicGenerator(Math.log2(j.height))), j.height]);
    const tables = plan.steps.flatMap((s) => [s.tw, s.sc]).filter((t) => t.kind === 'scale' || t.kind === 'folded-split');
    expect(new Set(tables.map((t) => JSON.stringify(t))).size).toBe(1);
  }
}

describe('planNtt: invariants of the plan record', () => {
  for (const [name, limits] of [
    ['default limits', DEFAULT_NTT_LIMITS],
    ['H100 limits', H100],
    ['a 1024-workgroup grid cap', SMALL_GRID],
  ] as const) {
    it(`${name}: every op, 2^0-2^24, widths 1-16`, () => {
      for (const op of OPS)
        for (const log of [0, 1, 2, 5, 9, 10, 13, 16, 20, 24])
          for (const width of [1, 3, 8, 16]) {
            for (const bits of op === 'lde' || op === 'encode' ? [0, 1, 3] : [0]) {
              if (2 ** (log + bits) * width > 2 ** 28) continue;
              checkInvariants(planNtt(job(op, log, width, bits), NTT_TUNING, limits), limits);
            }
          }
    });
  }

  it('is computed from the job, the tuning and the limits alone: the same inputs give an equal plan', () => {
    const j = job('lde', 24, 1);
    expect(planNtt(j, NTT_TUNING, H100)).toEqual(planNtt({ ...j }, withTuning({}), { ...H100 }));
    expect(planNtt(j, NTT_TUNING, H100).twoLevel).toBe(NTT_TUNING.twoLevel);
    expect(planNtt(j, withTuning({ twoLevel: 0 }), H100).twoLevel).toBe(0);
  });

  it('says how a job past one binding runs: column blocks, or a four-step per column', () => {
    expect(planNtt(job('dft', 24, 8), NTT_TUNING, DEFAULT_NTT_LIMITS).split).toEqual({ mode: 'columns', columns: 2 });
    expect(planNtt(job('encode', 25, 1, 1), NTT_TUNING, DEFAULT_NTT_LIMITS).split).toEqual({ mode: 'four-step', n1: 2 ** 13, n2: 2 ** 13 });
    expect(planNtt(job('dft', 24, 8), NTT_TUNING, H100).split).toEqual({ mode: 'whole' });
    expect(() => planNtt(job('encode', 27, 1, 1), NTT_TUNING, H100)).toThrow(/exceeds 2\^27/);
  });
});

/** Run a plan's steps on the CPU, each with the tables its record names (a fused step as its two passes). */
function runPlanOnCpu(plan: NttPlan, x: Uint32Array): Uint32Array {
  const w = plan.job.width;
  let src = x;
  for (const s of plan.steps) {
    const passes = s.fused ? [s.pass, plan.passes[s.index + 1]] : [s.pass];
    for (const p of passes) {
      const dst = new Uint32Array(p.n * w);
      const scale = s.sc.kind === 'scale' ? tableWords(s.sc) : null;
      const own = s.twiddles === 'split' ? tableWords(s.tw) : s.twiddles === 'table' ? tableWords(s.sc) : null;
      if (p.sub > 0) runTwoLevelPass(p, src, dst, w, scale, s.groups, own);
      else runRegisterPass(p, src, dst, w, scale);
      src = dst;
    }
  }
  return src;
}

describe('planNtt: the limits change tiles, not results', () => {
  const rng = new SplitMix64(0x9a11);
  // Shapes whose tiles depend on the limits: two-level radix 1024 (4 or 2 groups per workgroup
  // under the default 16 KiB of workgroup memory, 8 or 4 under 48 KiB), radix 16 at width 4, and
  // a staged radix-4 first pass (1024 threads: H100 only).
  const shapes: Array<[number, number, string, Partial<NttTuning>]> = [
    [13, 1, 'two-level 2^10', twoLevelAt(10)],
    [11, 2, 'two-level 2^10', twoLevelAt(10)],
    [10, 4, 'two-level 2^4', twoLevelAt(4)],
    [12, 1, 'radix ≤ 4', { maxRadix: 4 }],
  ];
  for (const [log, width, name, overrides] of shapes) {
    it(`2^${log} x${width}, ${name}: default and H100 plans differ in tiles, agree in uniforms and output`, () => {
      const x = rng.fieldArray(2 ** log * width);
      const tuning = withTuning(overrides);
      let tilesDiffer = false;
      for (const op of OPS) {
        const j = job(op, log, width);
        const a = planNtt(j, tuning, DEFAULT_NTT_LIMITS),
          b = planNtt(j, tuning, H100);
        expect(b.passes.map((p) => p.radix)).toEqual(a.passes.map((p) => p.radix));
        expect(b.steps.map((s) => s.uniform)).toEqual(a.steps.map((s) => s.uniform));
        tilesDiffer ||=
          JSON.stringify(a.steps.map((s) => [s.groups, s.workgroupSize, s.entryPoint])) !==
          JSON.stringify(b.steps.map((s) => [s.groups, s.workgroupSize, s.entryPoint]));
        const want =
          op === 'dft'
            ? ref.dft(x, width)
            : op === 'idft'
              ? ref.idft(x, width)
              : op === 'lde'
                ? ref.cosetLde(x, width, 1, 31)
                : ref.encode(x, width, 1);
        expect(runPlanOnCpu(a, x), `${op} default`).toEqual(want);
        expect(runPlanOnCpu(b, x), `${op} H100`).toEqual(want);
      }
      expect(tilesDiffer).toBe(true);
    });
  }
});
