// The GPU NTT's passes run on the CPU step for step, as wgsl/kernels/ntt_stockham.gen.wgsl runs them
// (Montgomery tables, canonical data): test/unit/ntt-plan.test.ts checks them against src/ref/ntt.ts.
import * as ntt from '../../src/ref/ntt.js';
import { bbAdd, bbMul, bbSub, montMul } from '../../src/field/babybear.js';
import {
  NTT_STAGE_WORDS,
  NTT_TW_HI,
  NTT_TW_LO,
  NTT_TW_LO_BITS,
  NTT_MAX_RADIX,
  stageCopy,
  stagedQualifies,
  stageSlot,
  stageWord,
  stageWorkgroup,
  tableQualifies,
  type NttPass,
} from '../../src/kernels/ntt/passes.js';
import { passSplitTable, passTwiddleTable, splitTwiddle, twiddleTable } from '../../src/kernels/ntt/tables.js';
import { loadRow, storeOutput } from './ntt-store.js';
import { WGSL_PARAM_CONSTS } from '../../src/params/wgsl-consts.js';
export const TW = twiddleTable();
/** The butterflies' ω_32^e in Montgomery form: the WGSL constants the kernel multiplies by. */
const ROOTS_32 = WGSL_PARAM_CONSTS.BB_ROOTS_32 as readonly number[];

const TABLES = new Map<string, Uint32Array>();
function tableOf(p: NttPass, split: boolean): Uint32Array {
  const key = `${split} ${p.ns},${p.radix}`;
  if (!TABLES.has(key)) TABLES.set(key, split ? passSplitTable(p.ns, p.radix) : passTwiddleTable(p.ns, p.radix));
  return TABLES.get(key)!;
}

/** Twiddle r of thread k from a split table (plain values), as `ntt_pass_r${R}_split` indexes it. */
function splitTableTwiddle(p: NttPass, k: number, r: number): number {
  return splitTwiddle(tableOf(p, true), p.ns, p.radix, k, r);
}

type Source = 'running' | 'table' | 'split';

/**
 * The radix-R DFT of thread t's R inputs (twiddled by k), V[s] at index s, as the kernel computes
 * it: twiddles as a running product of a lo/hi power, or with `table` read from the pass's table.
 */
export function threadValues(p: NttPass, src: Uint32Array, w: number, t: number, source: Source = 'running'): number[] {
  const R = p.radix,
    m = p.n / R,
    logR = Math.log2(R);
  const col = t % w,
    j = Math.floor(t / w),
    k = j % p.ns;
  const v: number[] = [];
  for (let r = 0; r < R; r++) v.push(loadRow(p, src, w, j + r * m, col));
  const e = k * 2 ** p.twShift;
  const tw = montMul(TW[NTT_TW_LO + (e % 2 ** NTT_TW_LO_BITS)], TW[NTT_TW_HI + Math.floor(e / 2 ** NTT_TW_LO_BITS)]);
  let wr = tw;
  if (source === 'table') for (let r = 1; r < R; r++) v[r] = montMul(v[r], tableOf(p, false)[(r - 1) * p.ns + k]);
  else if (source === 'split') for (let r = 1; r < R; r++) v[r] = bbMul(v[r], splitTableTwiddle(p, k, r));
  else
    for (let r = 1; r < R; r++) {
      v[r] = montMul(v[r], wr);
      wr = montMul(wr, tw);
    }
  for (let half = R >> 1; half >= 1; half >>= 1) {
    for (let b = 0; b < R; b += 2 * half)
      for (let i = 0; i < half; i++) {
        const a = v[b + i],
          c = v[b + i + half];
        v[b + i] = bbAdd(a, c);
        v[b + i + half] = montMul(bbSub(a, c), ROOTS_32[i * (NTT_MAX_RADIX / (2 * half))]);
      }
  }
  return v.map((_, s) => v[ntt.reverseBits(s, logR)]);
}

/** One pass over all threads, as `ntt_pass_r${R}` (or `_table`) does it. */
export function runPass(
  p: NttPass,
  src: Uint32Array,
  dst: Uint32Array,
  w: number,
  sc: Uint32Array | null,
  source: Source = 'running',
): void {
  const R = p.radix,
    m = p.n / R;
  for (let t = 0; t < m * w; t++) {
    const col = t % w,
      j = Math.floor(t / w),
      k = j % p.ns;
    const V = threadValues(p, src, w, t, source);
    for (let s = 0; s < R; s++) storeOutput(p, dst, w, col, (j - k) * R + k, s, V[s], sc);
  }
}

/** One pass as `ntt_pass_r${R}_staged` does it: per workgroup, values into the tile, barrier, tile out as one block. */
function runStagedPass(p: NttPass, src: Uint32Array, dst: Uint32Array, w: number): void {
  const R = p.radix,
    wg = stageWorkgroup(R);
  const tile = new Uint32Array(NTT_STAGE_WORDS);
  for (let t0 = 0; t0 < (p.n / R) * w; t0 += wg) {
    for (let lid = 0; lid < wg; lid++) {
      const V = threadValues(p, src, w, t0 + lid);
      for (let s = 0; s < R; s++) tile[stageSlot(stageWord(lid, s, R, w), R, w)] = V[s];
    }
    for (let lid = 0; lid < wg; lid++)
      for (let i = 0; i < R; i++) dst[stageCopy(t0, lid + i * wg, R)] = tile[stageSlot(lid + i * wg, R, w)];
  }
}

/**
 * All passes; with `staged`, qualifying first passes run as the staged kernel; with `tables` (the
 * largest single table's Ns·R), passes read table or split-table twiddles as the host picks them.
 */
export function runPlan(passes: NttPass[], input: Uint32Array, w: number, sc: Uint32Array | null, staged = false, tables = 0): Uint32Array {
  let src = input;
  for (const p of passes) {
    const dst = new Uint32Array(p.n * w);
    if (staged && stagedQualifies(p, w)) runStagedPass(p, src, dst, w);
    else runPass(p, src, dst, w, sc, !tables || p.ns < 2 ? 'running' : tableQualifies(p, tables) ? 'table' : 'split');
    src = dst;
  }
  return src;
}
