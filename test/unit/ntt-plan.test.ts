// The GPU NTT's pass layout and index formulas (src/kernels/ntt/passes.ts, tables.ts), executed on the CPU step for
// step as wgsl/kernels/ntt_stockham.gen.wgsl does them (Montgomery tables, canonical data), against
// src/ref/ntt.ts: a wrong radix split, twiddle exponent, output mapping or scale table fails here.
import { describe, it, expect } from 'vitest';
import * as ntt from '../../src/ref/ntt.js';
import { montMul } from '../../src/field/babybear.js';
import {
  NTT_FLAG_BITREV,
  NTT_FLAG_INVERSE,
  NTT_FLAG_SCALE,
  NTT_STAGE_WORDS,
  NTT_TW_HI,
  NTT_TW_LO,
  NTT_TW_LO_BITS,
  NTT_TABLE_MAX,
  planTransform,
  splitBits,
  splitQualifies,
  radices,
  stageCopy,
  stagedQualifies,
  stageSlot,
  stageWord,
  stageWorkgroup,
  tableQualifies,
} from '../../src/kernels/ntt/passes.js';
import { inverseScale, passSplitTable, passTwiddleTable, scaleTable } from '../../src/kernels/ntt/tables.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { bbShoupQuotient } from '../../src/params/babybear.js';
import { readFileSync } from 'node:fs';
import { NTT_RADICES, NTT_STAGED_RADICES, NTT_TABLE_RADICES, nttWgsl } from '../../scripts/gen-ntt-wgsl.js';
import { columnsPerBlock, nttSplit } from '../../src/kernels/ntt/plan.js';
import { TW, threadValues, runPass, runPlan } from '../support/ntt-plan-model.js';

describe('NTT plan (CPU run of the GPU index math)', () => {
  it('wgsl/kernels/ntt_stockham.gen.wgsl is what scripts/gen-ntt-wgsl.ts generates', () => {
    expect(readFileSync(new URL('../../wgsl/kernels/ntt_stockham.gen.wgsl', import.meta.url), 'utf8')).toBe(nttWgsl());
  });

  it('radices multiply to 2^k and each has an entry point', () => {
    for (let k = 0; k <= 27; k++) {
      const rs = radices(k);
      for (const r of rs) expect(NTT_RADICES).toContain(r);
      expect(rs.reduce((a, b) => a * b, 1)).toBe(2 ** k);
      expect(Math.max(...rs)).toBeLessThanOrEqual(32);
    }
  });

  const rng = new SplitMix64(4242);
  for (const logN of [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 13]) {
    for (const w of [1, 3]) {
      it(`dft / idft / encode / lde / bitrev at 2^${logN} x ${w}`, () => {
        const n = 2 ** logN;
        const x = rng.fieldArray(n * w);
        expect(runPlan(planTransform(logN, n, 0), x, w, null)).toEqual(ntt.dft(x, w));
        expect(runPlan(planTransform(logN, n, 0, 16), x, w, null)).toEqual(ntt.dft(x, w));
        const inv = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE), x, w, scaleTable(...inverseScale(n)));
        expect(inv).toEqual(ntt.idft(x, w));
        const br = runPlan(planTransform(logN, n, NTT_FLAG_BITREV), x, w, null);
        expect(br).toEqual(ntt.bitReverseRows(ntt.dft(x, w), w));
        if (logN <= 10) {
          const enc = runPlan(planTransform(logN + 2, n, 0), x, w, null);
          expect(enc).toEqual(ntt.encode(x, w, 2));
          const coeffs = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE), x, w, scaleTable(...inverseScale(n, 31)));
          expect(runPlan(planTransform(logN + 1, n, 0), coeffs, w, null)).toEqual(ntt.cosetLde(x, w, 1, 31));
        }
      });
    }
  }
});

describe('staged first pass (ntt_pass_r${R}_staged: tile, then one contiguous block per workgroup)', () => {
  it('each staged radix has an entry point', () => {
    const wgsl = nttWgsl();
    for (const R of NTT_STAGED_RADICES) expect(wgsl).toContain(`fn ntt_pass_r${R}_staged(`);
  });

  it('tile word -> global word equals the plain store at every W dividing the workgroup', () => {
    for (const R of NTT_STAGED_RADICES) {
      const wg = stageWorkgroup(R);
      expect(wg * R).toBe(NTT_STAGE_WORDS);
      for (let w = 1; w <= wg; w *= 2) {
        for (const t0 of [0, wg, 5 * wg]) {
          const tile = new Int32Array(NTT_STAGE_WORDS).fill(-1);
          for (let lid = 0; lid < wg; lid++) {
            const t = t0 + lid,
              col = t % w,
              j = Math.floor(t / w);
            for (let s = 0; s < R; s++) {
              const slot = stageSlot(stageWord(lid, s, R, w), R, w);
              if (tile[slot] !== -1) throw new Error(`R ${R} W ${w}: tile slot ${slot} written twice`);
              tile[slot] = (j * R + s) * w + col; // the plain kernel's store at ns = 1, k = 0
            }
          }
          for (let lid = 0; lid < wg; lid++)
            for (let i = 0; i < R; i++) {
              const x = lid + i * wg;
              const plain = tile[stageSlot(x, R, w)];
              if (plain !== stageCopy(t0, x, R))
                throw new Error(`R ${R} W ${w} t0 ${t0}: tile word ${x} -> ${stageCopy(t0, x, R)}, plain store ${plain}`);
            }
        }
      }
    }
  });

  it('tile writes and copy-out are free of bank conflicts (32 banks of 4 bytes, 32-lane warps)', () => {
    const ways = (slots: number[]) => {
      const banks = new Uint8Array(32);
      for (const x of slots) banks[x % 32]++;
      return Math.max(...banks);
    };
    const lanes = Array.from({ length: 32 }, (_, l) => l);
    let worst = 0;
    for (const R of NTT_STAGED_RADICES) {
      const wg = stageWorkgroup(R);
      for (let w = 1; w <= wg; w *= 2) {
        for (let warp = 0; warp < wg; warp += 32)
          for (let s = 0; s < R; s++) {
            worst = Math.max(worst, ways(lanes.map((l) => stageSlot(stageWord(warp + l, s, R, w), R, w))));
          }
        for (let warp = 0; warp < wg; warp += 32)
          for (let i = 0; i < R; i++) worst = Math.max(worst, ways(lanes.map((l) => stageSlot(warp + l + i * wg, R, w))));
      }
    }
    expect(worst).toBe(1);
    // Why the swizzle: unswizzled, width 1 at radix 32 puts the 32 lanes' stores in one bank.
    expect(ways(lanes.map((l) => stageWord(l, 0, 32, 1)))).toBe(32);
  });

  it('qualifies the first pass of a multi-pass transform with full workgroups only', () => {
    const q = (logN: number, w: number, maxRadix = 32) => planTransform(logN, 2 ** logN, 0, maxRadix).map((p) => stagedQualifies(p, w));
    expect(q(12, 1)).toEqual([true, false, false]); // 2^12 / 32 = 128 threads = one workgroup
    expect(q(11, 1)).toEqual([false, false, false]); // 64 threads < 128
    expect(q(11, 2)).toEqual([true, false, false]);
    expect(q(12, 3)).toEqual([false, false, false]); // 3 does not divide 128
    expect(q(12, 128)).toEqual([true, false, false]);
    expect(q(12, 256)).toEqual([false, false, false]); // wider than the workgroup
    expect(q(5, 1024)).toEqual([false]); // one pass: the last one maps its destinations
    expect(q(12, 1, 16)).toEqual([true, false, false]); // 256 threads of radix 16
    expect(q(12, 1, 4)).toEqual([true, false, false, false, false, false]);
    expect(q(12, 1, 2).some(Boolean)).toBe(false);
  });

  const rng = new SplitMix64(0x57a9);
  for (const [logN, w, maxRadix] of [
    [12, 1, 32],
    [11, 2, 32],
    [9, 8, 32],
    [8, 16, 32],
    [12, 1, 16],
    [10, 4, 8],
    [12, 1, 4],
  ]) {
    it(`dft / idft / encode / lde with staged first passes at 2^${logN} x ${w}, radix ≤ ${maxRadix}`, () => {
      const n = 2 ** logN;
      const x = rng.fieldArray(n * w);
      expect(planTransform(logN, n, 0, maxRadix).some((p) => stagedQualifies(p, w))).toBe(true);
      expect(runPlan(planTransform(logN, n, 0, maxRadix), x, w, null, true)).toEqual(ntt.dft(x, w));
      const inv = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, maxRadix), x, w, scaleTable(...inverseScale(n)), true);
      expect(inv).toEqual(ntt.idft(x, w));
      expect(runPlan(planTransform(logN + 1, n, 0, maxRadix), x, w, null, true)).toEqual(ntt.encode(x, w, 1));
      const coeffs = runPlan(
        planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, maxRadix),
        x,
        w,
        scaleTable(...inverseScale(n, 31)),
        true,
      );
      expect(runPlan(planTransform(logN + 1, n, 0, maxRadix), coeffs, w, null, true)).toEqual(ntt.cosetLde(x, w, 1, 31));
    });
  }
});

describe('table twiddles (ntt_pass_r${R}_table: a middle pass reads ω_{Ns·R}^(k·r) from its own table)', () => {
  it('each table radix has an entry point', () => {
    const text = nttWgsl();
    for (const R of NTT_TABLE_RADICES) expect(text).toContain(`fn ntt_pass_r${R}_table(`);
  });

  it('qualifies middle passes up to Ns·R = NTT_TABLE_MAX: passes 2-4 of 2^24 and 2^25', () => {
    const q = (logN: number, maxRadix = 32) => planTransform(logN, 2 ** logN, 0, maxRadix).map((p) => tableQualifies(p));
    expect(q(25)).toEqual([false, true, true, true, false]); // Ns = 1 | 32, 1024, 32768 | last (Ns·R = 2^25)
    expect(q(24)).toEqual([false, true, true, true, false]);
    expect(q(10)).toEqual([false, false]); // first and last only
    expect(q(12, 4)).toEqual([false, true, true, true, true, false]);
    expect(
      planTransform(27, 2 ** 27, 0)
        .filter((p) => tableQualifies(p))
        .every((p) => p.ns * p.radix <= NTT_TABLE_MAX),
    ).toBe(true);
  });

  it('every entry equals the running-product twiddle the plain kernel computes', () => {
    for (const [ns, R] of [
      [32, 32],
      [1024, 32],
      [2, 2],
      [8, 16],
      [64, 4],
    ]) {
      const table = passTwiddleTable(ns, R);
      expect(table.length).toBe((R - 1) * ns);
      const twShift = 27 - Math.log2(ns * R); // the kernel's ω_{Ns·R} = ω_{2^27}^(2^twShift)
      for (let k = 0; k < ns; k++) {
        const e = k * 2 ** twShift;
        const w1 = montMul(TW[NTT_TW_LO + (e % 2 ** NTT_TW_LO_BITS)], TW[NTT_TW_HI + Math.floor(e / 2 ** NTT_TW_LO_BITS)]);
        let wr = w1;
        for (let r = 1; r < R; r++, wr = montMul(wr, w1))
          if (table[(r - 1) * ns + k] !== wr) throw new Error(`ns ${ns} R ${R} k ${k} r ${r}`);
      }
      // The Shoup form: the same twiddles plain (x = montMul(x·2^32, 1)), then their quotients.
      const sh = passTwiddleTable(ns, R, true);
      expect(sh.length).toBe(2 * (R - 1) * ns);
      for (let i = 0; i < (R - 1) * ns; i++) {
        if (sh[i] !== montMul(table[i], 1) || sh[(R - 1) * ns + i] !== bbShoupQuotient(sh[i]))
          throw new Error(`shoup ns ${ns} R ${R} i ${i}`);
      }
    }
  });

  it('split tables: k = kh·2^h + kl with h = ceil(log2(Ns) / 2); last passes and passes past the table limit', () => {
    expect([2, 32, 1024, 2 ** 20, 2 ** 21].map(splitBits)).toEqual([1, 3, 5, 10, 11]);
    const sp = (logN: number, max?: number) => planTransform(logN, 2 ** logN, 0).map((p) => splitQualifies(p, max));
    expect(sp(25)).toEqual([false, false, false, false, true]);
    expect(sp(25, 2 ** 10)).toEqual([false, false, true, true, true]);
    expect(sp(5)).toEqual([false]); // one pass: no twiddles
    expect(passSplitTable(2 ** 20, 32).length).toBe(2 * 32 * (1024 + 1024));
  });

  const rng = new SplitMix64(0x7ab1e);
  for (const [logN, w, maxRadix] of [
    [11, 1, 32],
    [13, 3, 32],
    [12, 2, 8],
    [10, 1, 4],
    [9, 5, 2],
  ]) {
    for (const max of [NTT_TABLE_MAX, 64]) {
      it(`dft / idft / encode / lde with table / split-table passes at 2^${logN} x ${w}, radix ≤ ${maxRadix}, tables to ${max}`, () => {
        const n = 2 ** logN;
        const x = rng.fieldArray(n * w);
        expect(planTransform(logN + 1, n, 0, maxRadix).some((p) => splitQualifies(p, max))).toBe(true);
        expect(runPlan(planTransform(logN, n, 0, maxRadix), x, w, null, true, max)).toEqual(ntt.dft(x, w));
        const inv = runPlan(
          planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, maxRadix),
          x,
          w,
          scaleTable(...inverseScale(n)),
          true,
          max,
        );
        expect(inv).toEqual(ntt.idft(x, w));
        expect(runPlan(planTransform(logN + 1, n, 0, maxRadix), x, w, null, true, max)).toEqual(ntt.encode(x, w, 1));
        const coeffs = runPlan(
          planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, maxRadix),
          x,
          w,
          scaleTable(...inverseScale(n, 31)),
          true,
          max,
        );
        expect(runPlan(planTransform(logN + 1, n, 0, maxRadix), coeffs, w, null, true, max)).toEqual(ntt.cosetLde(x, w, 1, 31));
      });
    }
  }
});

describe('lde fusion (ntt_lde_fused_r${R1}: the idft last pass and the dft first pass in one thread)', () => {
  it('the idft last-pass thread j writes exactly the rows dft first-pass thread j reads, scaled', () => {
    const rng = new SplitMix64(0xf05e);
    for (const [logN, w, maxRadix] of [
      [9, 1, 32],
      [8, 2, 16],
      [10, 3, 32],
      [6, 1, 4],
    ]) {
      const n = 2 ** logN;
      const passes = planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, maxRadix);
      const p = passes[passes.length - 1],
        R1 = p.radix,
        ns = p.ns;
      const sc = scaleTable(...inverseScale(n, 31));
      const src = rng.fieldArray(n * w);
      const dst = new Uint32Array(n * w);
      runPass(p, src, dst, w, sc);
      for (let j = 0; j < ns; j++) {
        for (let col = 0; col < w; col++) {
          const V = threadValues(p, src, w, j * w + col);
          for (let r = 0; r < R1; r++) {
            const row = j + r * ns;
            const scaled = montMul(
              V[r],
              montMul(sc[row % 2 ** NTT_TW_LO_BITS], sc[2 ** NTT_TW_LO_BITS + Math.floor(row / 2 ** NTT_TW_LO_BITS)]),
            );
            if (dst[row * w + col] !== scaled) throw new Error(`2^${logN} x${w} R1 ${R1}: j ${j} r ${r}`);
          }
        }
      }
    }
  });
});

describe('column blocks for jobs past one binding (src/kernels/ntt/plan.ts nttSplit)', () => {
  it('blocks of as many columns as fit one binding, at least one', () => {
    const max = 2 ** 25; // 128 MiB of values, WebGPU's default binding
    expect(columnsPerBlock(8, 2 ** 24, max)).toBe(2); // 2^24 x 8 dft: 4 blocks of 2 columns
    expect(columnsPerBlock(8, 2 ** 25, max)).toBe(1); // its lde (2^25 rows): 8 blocks
    expect(columnsPerBlock(3, 2 ** 20, max)).toBe(3); // fits: one block
    expect(columnsPerBlock(1, 2 ** 26, max)).toBe(1); // one column past the limit: a four-step (ntt/long.ts)
    expect(nttSplit(2 ** 25, 1, max)).toEqual({ mode: 'whole' }); // a 2^24 -> 2^25 lde x1
    expect(nttSplit(2 ** 25, 2, max)).toEqual({ mode: 'columns', columns: 1 }); // x2
    expect(nttSplit(2 ** 26, 1, max)).toEqual({ mode: 'four-step', n1: 2 ** 13, n2: 2 ** 13 });
  });
});
