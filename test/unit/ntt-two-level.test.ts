// Two-level NTT passes (ntt_pass2_r${R}*: a radix-R·R Stockham pass run as two register halves that
// exchange through workgroup memory), executed on the CPU with the kernel's own index maths and
// tables (src/kernels/ntt/passes.ts, tables.ts: twoLevelRadices, tile2Word, twoLevelGroups, the pass and split
// tables), against src/ref/ntt.ts. Register passes in the same plans run as plain Stockham passes
// (their own index maths is checked in ntt-plan.test.ts).
import { describe, it, expect } from 'vitest';
import * as ntt from '../../src/ref/ntt.js';
import { bbAdd, bbInv, bbMul, bbPow } from '../../src/ref/babybear.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_FOLDED_SCALE, NTT_FLAG_HALF, NTT_FLAG_INVERSE, NTT_FLAG_LAST, NTT_FLAG_ROTATE, NTT_FLAG_SCALE, foldPadding, NTT_TWO_LEVEL_RADICES,
  planTransform, tableQualifies, tile2Out, tile2Word, twoLevelGroups, twoLevelRadices, type NttPass,
} from '../../src/kernels/ntt/passes.js';
import { innerTwiddleTable, inverseScale, passSplitTable, passTwiddleTable, scaleTable, splitTwiddle } from '../../src/kernels/ntt/tables.js';
import { twoAdicGenerator } from '../../src/ref/ntt.js';
import { scaleFold, twiddleSources, twoLevelGroupsFor, type ScaleFold } from '../../src/kernels/ntt/layout.js';
import { NTT_TUNING } from '../../src/kernels/ntt/tuning.js';
import { nttWgsl } from '../../scripts/gen-ntt-wgsl.js';
import { SplitMix64 } from '../support/splitmix.js';
import { loadRow, storeOutput } from '../support/ntt-store.js';

/** DFT_R of v (V[s] = Σ v[r]·ω_R^(r·s)): what the generated radix-R butterflies compute. */
const POWERS = new Map<number, number[]>();
function dftR(v: number[]): number[] {
  const R = v.length;
  let pw = POWERS.get(R);
  if (!pw) { const w = twoAdicGenerator(Math.log2(R)); pw = Array.from({ length: R }, (_, e) => bbPow(w, e)); POWERS.set(R, pw); }
  return v.map((_, s) => v.reduce((acc, x, r) => bbAdd(acc, bbMul(x, pw[(r * s) % R])), 0));
}

const load = loadRow;

/** A register pass, by its definition (twiddles ω_{Ns·R}^(k·r) computed directly). */
function runRegisterPass(p: NttPass, src: Uint32Array, dst: Uint32Array, w: number, sc: Uint32Array | null): void {
  const R = p.radix, m = p.n / R, wr = twoAdicGenerator(Math.log2(p.ns * R));
  for (let t = 0; t < m * w; t++) {
    const col = t % w, j = Math.floor(t / w), k = j % p.ns;
    const v = Array.from({ length: R }, (_, r) => bbMul(load(p, src, w, j + r * m, col), bbPow(wr, k * r)));
    dftR(v).forEach((x, s) => storeOutput(p, dst, w, col, (j - k) * R + k, s, x, sc));
  }
}

/**
 * A two-level pass as ntt_pass2_r${R}* runs it: per workgroup of G groups, the first half's threads
 * (lid = j'·L + lane) load, pre-twiddle (pass table or split table, by the host's choice) and write
 * the tile; then the second half's threads read it, multiply by the inner table and store.
 */
function runTwoLevelPass(p: NttPass, src: Uint32Array, dst: Uint32Array, w: number, sc: Uint32Array | null, G: number,
  own: Uint32Array | null = null): void {
  const R = p.sub, logR = Math.log2(R), T = R * R, m = p.n / T, L = G * w;
  // `own`: the pass's table when the host binds its own (an lde's scale folded in: scaleFold).
  const table = p.ns > 1 && tableQualifies(p) ? own ?? passTwiddleTable(p.ns, T, true) : null;
  const split = p.ns > 1 && !table ? own ?? passSplitTable(p.ns, T) : null;
  const folded = (p.flags & NTT_FLAG_FOLDED_SCALE) !== 0;
  const rotate = split !== null && (p.flags & NTT_FLAG_ROTATE) !== 0;
  const inner = innerTwiddleTable(R); // vec4 entries: the value first
  const tile = new Int32Array(L * T);
  const twiddle = (k: number, r: number): number => {
    if (table) return table[(r - 1) * p.ns + k];
    return splitTwiddle(split!, p.ns, T, k, r);
  };
  for (let g0 = 0; g0 < m; g0 += G) {
    tile.fill(-1);
    for (let lid = 0; lid < L * R; lid++) {
      const lane = lid % L, jp = Math.floor(lid / L), c = Math.floor(lane / w), col = lane - c * w, j = g0 + c, k = j % p.ns;
      const v = Array.from({ length: R }, (_, r1) => {
        const r = rotate ? (jp + r1 * R + T - 1) % T : jp + r1 * R; // NTT_FLAG_ROTATE (split passes only)
        const x = load(p, src, w, j + r * m, col);
        return p.ns > 1 && (r > 0 || folded) ? bbMul(x, twiddle(k, r)) : x;
      });
      dftR(v).forEach((x, s1) => {
        const word = tile2Word(jp * R + s1, logR, L, lane);
        if (tile[word] !== -1) throw new Error(`R ${R} L ${L}: tile word ${word} written twice`);
        tile[word] = x;
      });
    }
    // A first pass that is not the last stages its outputs and copies the block out linearly.
    const staged = p.ns === 1 && !(p.flags & NTT_FLAG_LAST);
    const out = new Int32Array(L * T).fill(-1);
    for (let lid = 0; lid < L * R; lid++) {
      const lane = lid % L, jp = Math.floor(lid / L), c = Math.floor(lane / w), col = lane - c * w, j = g0 + c, k = j % p.ns;
      const v = Array.from({ length: R }, (_, r2) => {
        const x = tile[tile2Word(jp + r2 * R, logR, L, lane)];
        return jp > 0 && r2 > 0 ? bbMul(x, inner[4 * ((r2 - 1) * R + jp)]) : x;
      });
      dftR(v).forEach((x, s2) => {
        if (!staged) return storeOutput(p, dst, w, col, (j - k) * T + k, jp + s2 * R, x, sc);
        const word = tile2Out(jp + s2 * R, L, lane);
        if (out[word] !== -1) throw new Error(`R ${R} L ${L}: output tile word ${word} written twice`);
        out[word] = x;
      });
    }
    if (staged) {
      for (let x = 0; x < L * T; x++) {
        const jl = Math.floor(x / (T * w)), s = Math.floor(x / w) % T;
        dst[g0 * T * w + x] = out[tile2Out(s, L, jl * w + (x % w))];
      }
    }
  }
}

const LIMITS = { threads: 256, tileBytes: 16384 };
/** Run `passes`; with `fold` (scaleFold) its two passes read the tables the host builds for it. */
function runPlan(passes: NttPass[], input: Uint32Array, w: number, sc: Uint32Array | null, fold: ScaleFold | null = null): Uint32Array {
  let src = input;
  passes.forEach((p, i) => {
    const dst = new Uint32Array(p.n * w);
    const own = fold?.index === i ? passSplitTable(p.ns, p.radix, fold.split)
      : fold && i === fold.index + 1 ? passTwiddleTable(p.ns, p.radix, true, fold.rowFactor) : null;
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
    expect(twoLevelRadices(24, 10, false)).toEqual([[1024, 32], [1024, 32], [16, 0]]);
    expect(twoLevelRadices(25, 10, true)).toEqual([[32, 0], [1024, 32], [1024, 32]]);
    expect(twoLevelRadices(20, 10, false)).toEqual([[1024, 32], [1024, 32]]);
    expect(twoLevelRadices(9, 10, false)).toEqual([[32, 0], [16, 0]]);
    expect(twoLevelRadices(13, 4, false)).toEqual([[16, 4], [16, 4], [16, 4], [2, 0]]);
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

  it('tile writes, reads and the first pass\'s copy-out are free of bank conflicts (32 banks, 32-lane warps)', () => {
    let worst = 0;
    for (const R of NTT_TWO_LEVEL_RADICES) for (const L of [1, 2, 4, 8]) {
      const threads = L * R, logR = Math.log2(R);
      if (threads < 32) continue;
      for (let warp = 0; warp < threads; warp += 32) for (let s = 0; s < R; s++) {
        const banks = (f: (lid: number) => number) => {
          const n = new Uint8Array(32);
          for (let l = 0; l < 32; l++) n[f(warp + l) % 32]++;
          return Math.max(...n);
        };
        worst = Math.max(worst, banks((lid) => tile2Word(Math.floor(lid / L) * R + s, logR, L, lid % L)));
        worst = Math.max(worst, banks((lid) => tile2Word(Math.floor(lid / L) + s * R, logR, L, lid % L)));
        worst = Math.max(worst, banks((lid) => tile2Out(Math.floor(lid / L) + s * R, L, lid % L)));
        // the copy-out at width 1 (lane = group): word x of the block is output x mod T of group x / T
        // (T ≥ 32: a warp's words stay in one group; at T = 16 two groups share a warp, 2-way)
        if (R * R >= 32) worst = Math.max(worst, banks((lid) => { const x = lid + s * L * R; return tile2Out(x % (R * R), L, Math.floor(x / (R * R))); }));
      }
    }
    expect(worst).toBe(1);
  });

  const rng = new SplitMix64(0x7e0);
  for (const [logN, w, tileLog] of [[12, 1, 4], [12, 1, 6], [13, 1, 8], [11, 3, 4], [10, 2, 8], [9, 8, 4], [12, 1, 10], [10, 1, 10], [8, 2, 8], [8, 1, 4]]) {
    it(`dft / idft / encode / lde / bitrev with two-level passes of 2^${tileLog} at 2^${logN} x ${w}`, () => {
      const n = 2 ** logN;
      const x = rng.fieldArray(n * w);
      const two = { tileLog, remainderFirst: false }, first = { tileLog, remainderFirst: true };
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
      const { passes, fold } = scaleFold(spec, NTT_TUNING, folded, twiddleSources(NTT_TUNING, folded, folded.map(() => false)), inverseScale(n, 31));
      expect(fold !== null).toBe(logN % tileLog === 0 && logN > tileLog); // the idft ends, the dft starts (after its folded radix 2) with a two-level pass
      if (fold) expect(runPlan(passes, x, w, null, fold)).toEqual(ntt.cosetLde(x, w, 1, 31));
      // ...and a standalone idft's: c·ω^k in its last split table, ω_T^s by rotating that pass's inputs.
      const ispec = { op: 'idft' as const, height: n, width: w };
      const iplan = planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, 32, two);
      const ifold = scaleFold(ispec, NTT_TUNING, iplan, twiddleSources(NTT_TUNING, iplan, iplan.map(() => false)), inverseScale(n));
      expect(ifold.fold !== null).toBe(logN % tileLog === 0 && logN > tileLog); // it ends with a two-level pass past Ns = 1
      if (ifold.fold) {
        expect(ifold.passes.at(-1)!.flags & NTT_FLAG_ROTATE).toBe(NTT_FLAG_ROTATE);
        expect(runPlan(ifold.passes, x, w, null, ifold.fold)).toEqual(ntt.idft(x, w));
      }
    });
  }
});
