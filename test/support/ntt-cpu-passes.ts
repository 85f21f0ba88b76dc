/**
 * CPU models of the NTT's register and two-level passes, as the kernels run them (the two-level
 * pass with its workgroup tile, groups and inner table), shared by test/unit/ntt-two-level.test.ts
 * and test/unit/ntt-plan-record.test.ts (which runs whole plans through them).
 */
import { monty31Ops } from '../../src/field/monty31-ops.js';
import { twoAdicGenerator } from '../../src/field/two-adic.js';
import { BABY_BEAR } from '../../src/params/babybear.js';
import type { Monty31Params } from '../../src/params/monty31.js';
import {
  NTT_FLAG_FOLDED_SCALE,
  NTT_FLAG_LAST,
  NTT_FLAG_ROTATE,
  tableQualifies,
  tile2Out,
  tile2Word,
  type NttPass,
} from '../../src/kernels/ntt/passes.js';
import { innerTwiddleTable, passSplitTable, passTwiddleTable, splitTwiddle } from '../../src/kernels/ntt/tables.js';
import { loadRow, storeOutput } from './ntt-store.js';

/** DFT_R of v (V[s] = Σ v[r]·ω_R^(r·s)): what the generated radix-R butterflies compute. */
const POWERS = new Map<string, number[]>();
function dftR(v: number[], F: Monty31Params): number[] {
  const R = v.length;
  const { add, mul, pow } = monty31Ops(F);
  let pw = POWERS.get(`${F.name} ${R}`);
  if (!pw) {
    const w = twoAdicGenerator(Math.log2(R), F);
    pw = Array.from({ length: R }, (_, e) => pow(w, e));
    POWERS.set(`${F.name} ${R}`, pw);
  }
  return v.map((_, s) => v.reduce((acc, x, r) => add(acc, mul(x, pw[(r * s) % R])), 0));
}

/** A register pass over F (BabyBear when not given), by its definition (twiddles ω_{Ns·R}^(k·r) computed directly). */
export function runRegisterPass(
  p: NttPass,
  src: Uint32Array,
  dst: Uint32Array,
  w: number,
  sc: Uint32Array | null,
  F: Monty31Params = BABY_BEAR,
): void {
  const { mul, pow } = monty31Ops(F);
  const R = p.radix,
    m = p.n / R,
    wr = twoAdicGenerator(Math.log2(p.ns * R), F);
  for (let t = 0; t < m * w; t++) {
    const col = t % w,
      j = Math.floor(t / w),
      k = j % p.ns;
    const v = Array.from({ length: R }, (_, r) => mul(loadRow(p, src, w, j + r * m, col), pow(wr, k * r)));
    dftR(v, F).forEach((x, s) => storeOutput(p, dst, w, col, (j - k) * R + k, s, x, sc, F));
  }
}

/**
 * A two-level pass as ntt_pass2_r${R}* runs it: per workgroup of G groups, the first half's threads
 * (lid = j'·L + lane) load, pre-twiddle (pass table or split table, by the host's choice) and write
 * the tile; then the second half's threads read it, multiply by the inner table and store.
 */
export function runTwoLevelPass(
  p: NttPass,
  src: Uint32Array,
  dst: Uint32Array,
  w: number,
  sc: Uint32Array | null,
  G: number,
  own: Uint32Array | null = null,
  F: Monty31Params = BABY_BEAR,
): void {
  const { mul } = monty31Ops(F);
  const R = p.sub,
    logR = Math.log2(R),
    T = R * R,
    m = p.n / T,
    L = G * w;
  // `own`: the pass's table when the host binds its own (an lde's scale folded in: scaleFold).
  const table = p.ns > 1 && tableQualifies(p) ? (own ?? passTwiddleTable(p.ns, T, true, 1, F)) : null;
  const split = p.ns > 1 && !table ? (own ?? passSplitTable(p.ns, T, undefined, F)) : null;
  const folded = (p.flags & NTT_FLAG_FOLDED_SCALE) !== 0;
  const rotate = split !== null && (p.flags & NTT_FLAG_ROTATE) !== 0;
  const inner = innerTwiddleTable(R, F); // vec4 entries: the value first
  const tile = new Int32Array(L * T);
  const twiddle = (k: number, r: number): number => {
    if (table) return table[(r - 1) * p.ns + k];
    return splitTwiddle(split!, p.ns, T, k, r, F);
  };
  for (let g0 = 0; g0 < m; g0 += G) {
    tile.fill(-1);
    for (let lid = 0; lid < L * R; lid++) {
      const lane = lid % L,
        jp = Math.floor(lid / L),
        c = Math.floor(lane / w),
        col = lane - c * w,
        j = g0 + c,
        k = j % p.ns;
      const v = Array.from({ length: R }, (_, r1) => {
        const r = rotate ? (jp + r1 * R + T - 1) % T : jp + r1 * R; // NTT_FLAG_ROTATE (split passes only)
        const x = loadRow(p, src, w, j + r * m, col);
        return p.ns > 1 && (r > 0 || folded) ? mul(x, twiddle(k, r)) : x;
      });
      dftR(v, F).forEach((x, s1) => {
        const word = tile2Word(jp * R + s1, logR, L, lane);
        if (tile[word] !== -1) throw new Error(`R ${R} L ${L}: tile word ${word} written twice`);
        tile[word] = x;
      });
    }
    // A first pass that is not the last stages its outputs and copies the block out linearly.
    const staged = p.ns === 1 && !(p.flags & NTT_FLAG_LAST);
    const out = new Int32Array(L * T).fill(-1);
    for (let lid = 0; lid < L * R; lid++) {
      const lane = lid % L,
        jp = Math.floor(lid / L),
        c = Math.floor(lane / w),
        col = lane - c * w,
        j = g0 + c,
        k = j % p.ns;
      const v = Array.from({ length: R }, (_, r2) => {
        const x = tile[tile2Word(jp + r2 * R, logR, L, lane)];
        return jp > 0 && r2 > 0 ? mul(x, inner[4 * ((r2 - 1) * R + jp)]) : x;
      });
      dftR(v, F).forEach((x, s2) => {
        if (!staged) return storeOutput(p, dst, w, col, (j - k) * T + k, jp + s2 * R, x, sc, F);
        const word = tile2Out(jp + s2 * R, L, lane);
        if (out[word] !== -1) throw new Error(`R ${R} L ${L}: output tile word ${word} written twice`);
        out[word] = x;
      });
    }
    if (staged) {
      for (let x = 0; x < L * T; x++) {
        const jl = Math.floor(x / (T * w)),
          s = Math.floor(x / w) % T;
        dst[g0 * T * w + x] = out[tile2Out(s, L, jl * w + (x % w))];
      }
    }
  }
}
