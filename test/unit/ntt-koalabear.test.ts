// The NTT over KoalaBear without a GPU (issue 22): a plan with field: 'koalabear' asks for the
// pipelines BabyBear's plan asks for with the field named (one WGSL text per entry point, the
// field's constants prepended), binds KoalaBear tables under labels of their own, counts twiddle
// shifts from ω_{2^24} and refuses outputs past 2^24 rows with the TOO_LARGE BabyBear gives past
// 2^27; the tables hold what their definitions say; and whole plans, run on the CPU through the
// kernels' models with the tables their steps name, equal p3-koala-bear's dft vectors and src/ref.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as ref from '../../src/ref/ntt.js';
import { monty31Ops } from '../../src/field/monty31-ops.js';
import { twoAdicGenerator } from '../../src/field/two-adic.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import type { FieldName } from '../../src/params/fields.js';
import { BABY_BEAR } from '../../src/params/babybear.js';
import { isProverError } from '../../src/errors.js';
import { outputHeight, type NttJob, type NttOp } from '../../src/kernels/ntt/job.js';
import { runLongColumn, type BlockRunner } from '../../src/kernels/ntt/long.js';
import { twistOnCpu } from '../../src/kernels/ntt/twist.js';
import { refNtt } from '../../bench/support/ntt-spec-ref.js';
import { DEFAULT_NTT_LIMITS, planNtt, type NttPlan } from '../../src/kernels/ntt/plan.js';
import { NTT_TW_HI, NTT_TW_LO_BITS } from '../../src/kernels/ntt/passes.js';
import { passTwiddleTable, scaleTable, tableLabel, tableWords, twiddleTable } from '../../src/kernels/ntt/tables.js';
import { NTT_TUNING, twoLevelAt, withTuning, type NttTuning } from '../../src/kernels/ntt/tuning.js';
import { runRegisterPass, runTwoLevelPass } from '../support/ntt-cpu-passes.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { nttCallSpec } from '../../src/kernels/first-call.js';

const KB = monty31Ops(KOALA_BEAR);
const OPS: NttOp[] = ['dft', 'idft', 'lde', 'encode'];
const job = (op: NttOp, log: number, width: number, bits = 1, field: FieldName = 'koalabear'): NttJob => ({
  op,
  height: 2 ** log,
  width,
  ...(op === 'lde' || op === 'encode' ? { addedBits: bits } : {}),
  ...(op === 'lde' ? { shift: field === 'koalabear' ? 3 : 31 } : {}),
  ...(field === 'babybear' ? {} : { field }),
});

/** The ProverError code planNtt throws for `j`, or 'planned'. */
function planCode(j: NttJob): string {
  try {
    planNtt(j, NTT_TUNING, DEFAULT_NTT_LIMITS);
    return 'planned';
  } catch (e) {
    return isProverError(e) ? `${e.code} ${e.message}` : `raw ${String(e)}`;
  }
}

describe('planNtt over KoalaBear', () => {
  it("asks for BabyBear's pipelines with the field named, binds KoalaBear tables, shifts from ω_{2^24}", () => {
    let plans = 0;
    for (const op of OPS)
      for (const log of [0, 1, 4, 9, 13, 16, 20, 23, 24])
        for (const width of [1, 3, 8])
          for (const bits of op === 'lde' || op === 'encode' ? [0, 1] : [0]) {
            if (log + bits > 24) continue;
            const kb = planNtt(job(op, log, width, bits), NTT_TUNING, DEFAULT_NTT_LIMITS);
            const bb = planNtt(job(op, log, width, bits, 'babybear'), NTT_TUNING, DEFAULT_NTT_LIMITS);
            expect(bb.requests.every((r) => r.field === undefined)).toBe(true);
            expect(kb.requests).toEqual(bb.requests.map((r) => ({ ...r, field: 'koalabear' })));
            expect(kb.steps.map((s) => s.entryPoint)).toEqual(bb.steps.map((s) => s.entryPoint));
            for (const s of kb.steps) {
              expect(s.pass.twShift).toBe(24 - Math.log2(s.pass.ns * s.pass.radix));
              expect(s.uniform[3]).toBe(s.pass.twShift);
              for (const t of [s.tw, s.sc, s.inner]) {
                if (!t) continue;
                expect(t.field).toBe('koalabear');
                expect(tableLabel(t).startsWith('koalabear ntt ')).toBe(true);
              }
            }
            plans++;
          }
    expect(plans).toBeGreaterThan(150);
  });

  it('refuses outputs past 2^24 rows with TOO_LARGE, as BabyBear past 2^27', () => {
    expect(planCode(job('dft', 24, 1))).toBe('planned');
    expect(planCode(job('encode', 23, 1, 1))).toBe('planned');
    expect(planCode(job('dft', 25, 1))).toMatch(/^TOO_LARGE .*exceeds 2\^24.*KoalaBear/);
    expect(planCode(job('lde', 23, 1, 2))).toMatch(/^TOO_LARGE .*exceeds 2\^24/);
    expect(planCode(job('encode', 24, 1, 1))).toMatch(/^TOO_LARGE /);
    // BabyBear: the same shapes plan, and its own limit gives the same code.
    expect(planCode(job('dft', 25, 1, 0, 'babybear'))).toBe('planned');
    expect(planCode(job('encode', 27, 1, 1, 'babybear'))).toMatch(/^TOO_LARGE .*exceeds 2\^27.*BabyBear/);
  });
});

describe('KoalaBear NTT tables', () => {
  it('the lo/hi powers are ω_{2^24}^i and ω_{2^24}^(i·2^14); each pass reads ω_{Ns·R}^k at k·2^twShift', () => {
    const tw = twiddleTable(KOALA_BEAR);
    expect(tw.length).toBe(2 ** 14 + 2 ** 10);
    const g = twoAdicGenerator(24, KOALA_BEAR);
    for (const i of [0, 1, 2, 777, 2 ** 14 - 1]) expect(KB.fromMonty(tw[i])).toBe(KB.pow(g, i));
    for (const i of [0, 1, 5, 2 ** 10 - 1]) expect(KB.fromMonty(tw[NTT_TW_HI + i])).toBe(KB.pow(g, i * 2 ** 14));
    // ntt_root_pow: lo[e mod 2^14]·hi[e >> 14] for e = k·2^twShift, every Ns·R a 2^24 plan may use.
    for (let logT = 1; logT <= 24; logT++) {
      const shift = 24 - logT;
      for (const k of [1, 3, 2 ** logT - 1]) {
        if (k >= 2 ** logT) continue;
        const e = k * 2 ** shift;
        const got = KB.montMul(tw[e % 2 ** NTT_TW_LO_BITS], tw[NTT_TW_HI + Math.floor(e / 2 ** NTT_TW_LO_BITS)]);
        expect(KB.fromMonty(got), `2^${logT} k=${k}`).toBe(KB.pow(twoAdicGenerator(logT, KOALA_BEAR), k));
      }
    }
    expect(Array.from(tw.subarray(0, 8))).not.toEqual(Array.from(twiddleTable(BABY_BEAR).subarray(0, 8)));
  });

  it('scale and pass tables hold c·g^i, ω^(k·r) and Shoup quotients floor(x·2^31 / p) of KoalaBear', () => {
    const c = KB.inv(2 ** 10),
      g = KB.mul(3, twoAdicGenerator(10, KOALA_BEAR));
    const sc = scaleTable(c, g, 2 ** 10, KOALA_BEAR);
    for (const i of [0, 1, 100, 1023]) expect(KB.fromMonty(sc[i])).toBe(KB.mul(c, KB.pow(g, i)));
    const [ns, R] = [64, 16];
    const t = passTwiddleTable(ns, R, true, 1, KOALA_BEAR),
      half = (R - 1) * ns;
    const w = twoAdicGenerator(Math.log2(ns * R), KOALA_BEAR);
    for (const [r, k] of [
      [1, 0],
      [1, 5],
      [7, 63],
      [15, 33],
    ]) {
      const x = t[(r - 1) * ns + k];
      expect(x).toBe(KB.pow(w, k * r));
      expect(t[half + (r - 1) * ns + k]).toBe(Number((BigInt(x) << 31n) / KOALA_BEAR.pBig));
    }
  });
});

/** Run a plan's steps on the CPU over KoalaBear, each with the tables its record names (a fused step as its two passes). */
function runPlanOnCpu(plan: NttPlan, x: Uint32Array): Uint32Array {
  const w = plan.job.width;
  let src = x;
  for (const s of plan.steps) {
    for (const p of s.fused ? [s.pass, plan.passes[s.index + 1]] : [s.pass]) {
      const dst = new Uint32Array(p.n * w);
      const scale = s.sc.kind === 'scale' ? tableWords(s.sc) : null;
      const own = s.twiddles === 'split' ? tableWords(s.tw) : s.twiddles === 'table' ? tableWords(s.sc) : null;
      if (p.sub > 0) runTwoLevelPass(p, src, dst, w, scale, s.groups, own, KOALA_BEAR);
      else runRegisterPass(p, src, dst, w, scale, KOALA_BEAR);
      src = dst;
    }
  }
  return src;
}

type Matrix = { values: number[] };
type DftCase = { op: string; id: string; height: number; width: number; input: number[]; dft: Matrix; idft: Matrix };
type LdeCase = DftCase & { lde: { added_bits: number; shift: number; output: Matrix } };
const vectors = (JSON.parse(readFileSync(new URL('../vectors/koalabear.json', import.meta.url), 'utf8')) as { cases: LdeCase[] }).cases;

describe('KoalaBear plans run on the CPU model', () => {
  it("equal p3-koala-bear's dft, idft and coset_lde vectors", () => {
    const cases = vectors.filter((c) => c.op === 'dft');
    expect(cases.length).toBeGreaterThanOrEqual(5);
    for (const c of cases) {
      const x = Uint32Array.from(c.input);
      const at = (j: NttJob) => Array.from(runPlanOnCpu(planNtt(j, NTT_TUNING, DEFAULT_NTT_LIMITS), x));
      const base = { height: c.height, width: c.width, field: 'koalabear' as const };
      expect(at({ ...base, op: 'dft' }), `${c.id} dft`).toEqual(c.dft.values);
      expect(at({ ...base, op: 'idft' }), `${c.id} idft`).toEqual(c.idft.values);
      const { added_bits: addedBits, shift, output } = c.lde;
      expect(at({ ...base, op: 'lde', addedBits, shift }), `${c.id} lde`).toEqual(output.values);
    }
  });

  // Layouts that exercise each table kind: register passes with computed and table twiddles,
  // two-level passes (staged, table, split) with the lde's and idft's scale folded into their tables,
  // an lde whose idft's last pass and dft's first run fused, radix-4 passes with split tables.
  const layouts: Array<[number, number, string, Partial<NttTuning>, 'fold' | 'fused' | null]> = [
    [11, 3, 'register passes', {}, null],
    [12, 1, 'two-level 2^4, folded scale', twoLevelAt(4), 'fold'],
    [10, 2, 'two-level 2^6 and a fused lde', { ...twoLevelAt(6), tableMax: 64 }, 'fused'],
    [9, 2, 'radix ≤ 4, split last passes', { maxRadix: 4, splitTables: true }, null],
  ];
  const rng = new SplitMix64(0x4b4e);
  for (const [log, width, name, overrides, shape] of layouts) {
    it(`2^${log} x${width}, ${name}: every op, natural and bit-reversed, equals src/ref over KoalaBear`, () => {
      const x = rng.fieldArray(2 ** log * width, KOALA_BEAR.p);
      const tuning = withTuning(overrides);
      const lde = planNtt(job('lde', log, width), tuning, DEFAULT_NTT_LIMITS);
      if (shape === 'fold') expect(lde.fold).not.toBeNull();
      if (shape === 'fused') expect(lde.fused).toBeGreaterThanOrEqual(0);
      for (const op of OPS)
        for (const bitReversed of [false, true]) {
          const j: NttJob = { ...job(op, log, width), bitReversed };
          let want =
            op === 'dft'
              ? ref.dft(x, width, KOALA_BEAR)
              : op === 'idft'
                ? ref.idft(x, width, KOALA_BEAR)
                : op === 'lde'
                  ? ref.cosetLde(x, width, 1, 3, KOALA_BEAR)
                  : ref.encode(x, width, 1, KOALA_BEAR);
          if (bitReversed) want = ref.bitReverseRows(want, width);
          expect(runPlanOnCpu(planNtt(j, tuning, DEFAULT_NTT_LIMITS), x), `${op}${bitReversed ? ' bitrev' : ''}`).toEqual(want);
        }
    });
  }
});

describe("a KoalaBear call's first-call prefetch", () => {
  it('plans the call over KoalaBear (its pipelines, not BabyBear’s)', () => {
    const spec = nttCallSpec('lde', [new Uint32Array(16), { width: 2, addedBits: 1, shift: 3, field: 'koalabear' }]);
    expect(spec).toEqual({ op: 'lde', height: 8, width: 2, addedBits: 1, shift: 3, bitReversed: false, field: 'koalabear' });
    expect(nttCallSpec('dft', [new Uint32Array(16), { width: 2 }])).toEqual({ op: 'dft', height: 8, width: 2, bitReversed: false });
    expect(planNtt(spec!, NTT_TUNING, DEFAULT_NTT_LIMITS).requests.every((r) => r.field === 'koalabear')).toBe(true);
  });
});

describe('a KoalaBear column past one binding (four-step, ntt/long.ts)', () => {
  // Unreachable on WebGPU's smallest binding (2^25 values > 2^24 rows), but the path takes the
  // field: each piece runs over KoalaBear, with KoalaBear twists, and the whole equals src/ref.
  const rng = new SplitMix64(0x4b4c);
  const maxWords = 2 ** 5;
  const runner: BlockRunner = async (spec, block, pre, post) => {
    expect(spec.field).toBe('koalabear');
    const x = Uint32Array.from(block);
    if (pre) twistOnCpu(x, spec.height, spec.width, pre, KOALA_BEAR);
    const y = refNtt(spec, x);
    if (post) twistOnCpu(y, outputHeight(spec), spec.width, post, KOALA_BEAR);
    return y;
  };
  for (const spec of [
    { op: 'dft', height: 2 ** 7, width: 1, bitReversed: true },
    { op: 'idft', height: 2 ** 7, width: 1 },
    { op: 'encode', height: 2 ** 4, width: 1, addedBits: 3 },
    { op: 'lde', height: 2 ** 6, width: 1, addedBits: 1, shift: 3 },
  ] as NttJob[]) {
    it(`${spec.op} 2^${Math.log2(spec.height)} rows`, async () => {
      const kb: NttJob = { ...spec, field: 'koalabear' };
      const x = rng.fieldArray(spec.height, KOALA_BEAR.p);
      expect(await runLongColumn(kb, x, maxWords, runner)).toEqual(refNtt(kb, x));
    });
  }
});
