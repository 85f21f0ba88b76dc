// Two-level NTT passes (ntt_pass2_r${R}*: a radix-R·R Stockham pass run as two register halves that
// exchange through workgroup memory), executed on the CPU with the kernel's own index maths and
// tables (src/kernels/ntt/passes.ts, tables.ts: twoLevelRadices, tile2Word, twoLevelGroups, the pass and split
// tables), against src/ref/ntt.ts. Register passes in the same plans run as plain Stockham passes
// (their own index maths is checked in ntt-plan.test.ts).
import { describe, it, expect } from 'vitest';
import * as ntt from '../../src/ref/ntt.js';
import {
  NTT_FLAG_BITREV,
  NTT_FLAG_INVERSE,
  NTT_FLAG_ROTATE,
  NTT_FLAG_SCALE,
  foldPadding,
  NTT_TWO_LEVEL_RADICES,
  planTransform,
  tile2Out,
  tile2Word,
  twoLevelGroups,
  twoLevelRadices,
  type NttPass,
} from '../../src/kernels/ntt/passes.js';
import { inverseScale, passSplitTable, passTwiddleTable, scaleTable } from '../../src/kernels/ntt/tables.js';
import { scaleFold, twiddleSources, twoLevelGroupsFor, type ScaleFold } from '../../src/kernels/ntt/layout.js';
import { NTT_TUNING } from '../../src/kernels/ntt/tuning.js';
import { nttWgsl } from '../../scripts/gen-ntt-wgsl.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { runRegisterPass, runTwoLevelPass } from '../support/ntt-cpu-passes.js';

const LIMITS = { threads: 256, tileBytes: 16384 };
/** Run `passes`; with `fold` (scaleFold) its two passes read the tables the host builds for it. */
function runPlan(passes: NttPass[], input: Uint32Array, w: number, sc: Uint32Array | null, fold: ScaleFold | null = null): Uint32Array {
  let src = input;
  passes.forEach((p, i) => {
    const dst = new Uint32Array(p.n * w);
    const own =
      fold?.index === i
        ? passSplitTable(p.ns, p.radix, fold.split)
        : fold && i === fold.index + 1
          ? passTwiddleTable(p.ns, p.radix, true, fold.rowFactor)
          : null;
    if (p.sub > 0) runTwoLevelPass(p, src, dst, w, sc, twoLevelGroups(p.sub, w, p.n / p.radix, LIMITS), own);
    else runRegisterPass(p, src, dst, w, sc);
    src = dst;
  });
  return src;
}

describe('two-level NTT passes (CPU run of the GPU index maths)', () => {
  it('each R has an entry point per twiddle source', () => {
    const wgsl = nttWgsl();
    for (const R of NTT_TWO_LEVEL_RADICES) for (const s of ['', '_table', '_split']) expect(wgsl).toContain(`fn ntt_pass2_r${R}${s}(`);
  });

  it('layouts: 2^24 -> [1024, 1024, 16], the lde dft 2^25 -> [32, 1024, 1024], short transforms stay register passes', () => {
    expect(twoLevelRadices(24, 10, false)).toEqual([
      [1024, 32],
      [1024, 32],
      [16, 0],
    ]);
    expect(twoLevelRadices(25, 10, true)).toEqual([
      [32, 0],
      [1024, 32],
      [1024, 32],
    ]);
    expect(twoLevelRadices(20, 10, false)).toEqual([
      [1024, 32],
      [1024, 32],
    ]);
    expect(twoLevelRadices(9, 10, false)).toEqual([
      [32, 0],
      [16, 0],
    ]);
    expect(twoLevelRadices(13, 4, false)).toEqual([
      [16, 4],
      [16, 4],
      [16, 4],
      [2, 0],
    ]);
  });

  it('groups per workgroup: 8 at width 1, fewer where the tile or thread limit binds', () => {
    expect(twoLevelGroups(32, 1, 2 ** 14, { threads: 1024, tileBytes: 49152 })).toBe(8);
    expect(twoLevelGroups(32, 1, 2 ** 14, LIMITS)).toBe(4);
    expect(twoLevelGroups(32, 8, 2 ** 14, { threads: 1024, tileBytes: 49152 })).toBe(1);
    expect(twoLevelGroups(32, 16, 2 ** 14, LIMITS)).toBe(0);
    expect(twoLevelGroups(16, 1, 2, LIMITS)).toBe(2);
    // the default cap: 16 lanes (groups × columns), a power of two of groups, at least one
    expect([1, 2, 3, 8, 16, 64].map((w) => twoLevelGroupsFor(w, NTT_TUNING.twoLevelLanes))).toEqual([16, 8, 4, 2, 1, 1]);
  });

  it("tile writes, reads and the first pass's copy-out are free of bank conflicts (32 banks, 32-lane warps)", () => {
    let worst = 0;
    for (const R of NTT_TWO_LEVEL_RADICES)
      for (const L of [1, 2, 4, 8]) {
        const threads = L * R,
          logR = Math.log2(R);
        if (threads < 32) continue;
        for (let warp = 0; warp < threads; warp += 32)
          for (let s = 0; s < R; s++) {
            const banks = (f: (lid: number) => number) => {
              const n = new Uint8Array(32);
              for (let l = 0; l < 32; l++) n[f(warp + l) % 32]++;
              return Math.max(...n);
            };
            worst = Math.max(
              worst,
              banks((lid) => tile2Word(Math.floor(lid / L) * R + s, logR, L, lid % L)),
            );
            worst = Math.max(
              worst,
              banks((lid) => tile2Word(Math.floor(lid / L) + s * R, logR, L, lid % L)),
            );
            worst = Math.max(
              worst,
              banks((lid) => tile2Out(Math.floor(lid / L) + s * R, L, lid % L)),
            );
            // the copy-out at width 1 (lane = group): word x of the block is output x mod T of group x / T
            // (T ≥ 32: a warp's words stay in one group; at T = 16 two groups share a warp, 2-way)
            if (R * R >= 32)
              worst = Math.max(
                worst,
                banks((lid) => {
                  const x = lid + s * L * R;
                  return tile2Out(x % (R * R), L, Math.floor(x / (R * R)));
                }),
              );
          }
      }
    expect(worst).toBe(1);
  });

  const rng = new SplitMix64(0x7e0);
  for (const [logN, w, tileLog] of [
    [12, 1, 4],
    [12, 1, 6],
    [13, 1, 8],
    [11, 3, 4],
    [10, 2, 8],
    [9, 8, 4],
    [12, 1, 10],
    [10, 1, 10],
    [8, 2, 8],
    [8, 1, 4],
  ]) {
    it(`dft / idft / encode / lde / bitrev with two-level passes of 2^${tileLog} at 2^${logN} x ${w}`, () => {
      const n = 2 ** logN;
      const x = rng.fieldArray(n * w);
      const two = { tileLog, remainderFirst: false },
        first = { tileLog, remainderFirst: true };
      expect(planTransform(logN, n, 0, 32, two).some((p) => p.sub > 0)).toBe(true);
      expect(runPlan(planTransform(logN, n, 0, 32, two), x, w, null)).toEqual(ntt.dft(x, w));
      expect(runPlan(planTransform(logN, n, NTT_FLAG_BITREV, 32, first), x, w, null)).toEqual(ntt.bitReverseRows(ntt.dft(x, w), w));
      const inv = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, 32, two), x, w, scaleTable(...inverseScale(n)));
      expect(inv).toEqual(ntt.idft(x, w));
      expect(runPlan(planTransform(logN + 1, n, 0, 32, two), x, w, null)).toEqual(ntt.encode(x, w, 1));
      const coeffs = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, 32, two), x, w, scaleTable(...inverseScale(n, 31)));
      expect(runPlan(planTransform(logN + 1, n, 0, 32, first), coeffs, w, null)).toEqual(ntt.cosetLde(x, w, 1, 31));
      // encode and the lde as one list, with a zero-padded radix-2 first pass folded into the next pass's loads.
      const lde = [...planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, 32, two), ...planTransform(logN + 1, n, 0, 32, first)];
      const enc = planTransform(logN + 1, n, 0, 32, first);
      const padded = (ps: NttPass[]) => (ps.some((p) => p.radix === 2 && p.ns === 1 && p.inRows * 2 === p.n) ? 1 : 0);
      expect(foldPadding(lde).length).toBe(lde.length - padded(lde));
      expect(foldPadding(enc).length).toBe(enc.length - padded(enc));
      expect(runPlan(foldPadding(lde), x, w, scaleTable(...inverseScale(n, 31)))).toEqual(ntt.cosetLde(x, w, 1, 31));
      expect(runPlan(foldPadding(enc), x, w, null)).toEqual(ntt.encode(x, w, 1));
      // ...and with the lde's scale carried in the tables of its idft's last and its dft's first pass, where the layout allows.
      const spec = { op: 'lde' as const, height: n, width: w, addedBits: 1, shift: 31 };
      const folded = foldPadding(lde);
      const { passes, fold } = scaleFold(
        spec,
        NTT_TUNING,
        folded,
        twiddleSources(
          NTT_TUNING,
          folded,
          folded.map(() => false),
        ),
        inverseScale(n, 31),
      );
      expect(fold !== null).toBe(logN % tileLog === 0 && logN > tileLog); // the idft ends, the dft starts (after its folded radix 2) with a two-level pass
      if (fold) expect(runPlan(passes, x, w, null, fold)).toEqual(ntt.cosetLde(x, w, 1, 31));
      // ...and a standalone idft's: c·ω^k in its last split table, ω_T^s by rotating that pass's inputs.
      const ispec = { op: 'idft' as const, height: n, width: w };
      const iplan = planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, 32, two);
      const ifold = scaleFold(
        ispec,
        NTT_TUNING,
        iplan,
        twiddleSources(
          NTT_TUNING,
          iplan,
          iplan.map(() => false),
        ),
        inverseScale(n),
      );
      expect(ifold.fold !== null).toBe(logN % tileLog === 0 && logN > tileLog); // it ends with a two-level pass past Ns = 1
      if (ifold.fold) {
        expect(ifold.passes.at(-1)!.flags & NTT_FLAG_ROTATE).toBe(NTT_FLAG_ROTATE);
        expect(runPlan(ifold.passes, x, w, null, ifold.fold)).toEqual(ntt.idft(x, w));
      }
    });
  }
});
