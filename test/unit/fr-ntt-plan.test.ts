// The Fr NTT's plan (src/kernels/qap/ntt-plan.ts): pass shapes and limits, and the kernel's index
// arithmetic (wgsl/kernels/fr_ntt.wgsl, transcribed below in bigints: tile loads, twiddles, DIF
// stages, bit-reversed stores, scale and coset) equal to src/ref/fr-ntt.ts for every pass shape.
import { describe, expect, it } from 'vitest';
import {
  FR_NTT_PARAM_WORDS,
  frNttParams,
  frTileLogMax,
  planFrNtt,
  type FrNttLimits,
  type FrNttPlan,
} from '../../src/kernels/qap/ntt-plan.js';
import { FR_R, frRootOfUnity } from '../../src/params/bn254-fr.js';
import { invMod, powMod } from '../../src/params/bn254.js';
import { frIntt, frNtt, frScalePowers } from '../../src/ref/fr-ntt.js';

const DEFAULT: FrNttLimits = { tileBytes: 16384, threads: 256, maxBinding: 134217728 };

/** fr_ntt_pass over every workgroup, in bigints (values plain, not Montgomery: the form does not matter). */
function simulatePass(plan: FrNttPlan, params: Uint32Array, src: bigint[], tw: bigint[]): bigint[] {
  const [nLog, rLog, nsLog, tLog, inverse, pre, post] = params;
  const TILE = 2 ** plan.tileLog;
  const jLog = plan.tileLog - rLog;
  const J = 2 ** jLog;
  const dst = new Array<bigint>(src.length).fill(-1n);
  const rootAt = (x: number) => (x >= 2 ** tLog ? (FR_R - tw[x - 2 ** tLog]) % FR_R : tw[x]);
  const rootPow = (m: number, e: number) => {
    const twoT = 2 ** (tLog + 1);
    let x = e * 2 ** (tLog + 1 - m);
    if (inverse) x = (twoT - x) % twoT;
    return rootAt(x);
  };
  const cosetPow = (i: number) => rootAt(i * 2 ** (tLog - nLog));
  const scale = params[8] + 2 ** 32 * params[9]; // the test passes a small scale
  for (let wg = 0; wg < 2 ** (nLog - plan.tileLog); wg++) {
    const j0 = wg * J;
    const tile: bigint[] = [];
    for (let e = 0; e < TILE; e++) tile.push(src[j0 + (e % J) + Math.floor(e / J) * 2 ** (nLog - rLog)]);
    for (let e = 0; e < TILE; e++) {
      const r = Math.floor(e / J);
      const jj = e % J;
      if (nsLog !== 0) tile[e] = (tile[e] * rootPow(nsLog + rLog, r * ((j0 + jj) % 2 ** nsLog))) % FR_R;
      else if (pre === 1) tile[e] = (tile[e] * BigInt(scale)) % FR_R;
      else if (pre === 2) tile[e] = (tile[e] * cosetPow(j0 + jj + r * 2 ** (nLog - rLog))) % FR_R;
    }
    for (let s = 0; s < rLog; s++) {
      const hLog = rLog - 1 - s;
      const h = 2 ** hLog;
      for (let b = 0; b < TILE / 2; b++) {
        const jj = b % J;
        const q = Math.floor(b / J);
        const m = q % h;
        const r = Math.floor(q / h) * 2 * h + m;
        const [e0, e1] = [r * J + jj, (r + h) * J + jj];
        const [x, y] = [tile[e0], tile[e1]];
        tile[e0] = (x + y) % FR_R;
        tile[e1] = (((x - y + FR_R) % FR_R) * (m !== 0 ? rootPow(hLog + 1, m) : 1n)) % FR_R;
      }
    }
    const bitrev = (f: number) => parseInt(f.toString(2).padStart(rLog, '0').split('').reverse().join(''), 2);
    const nsGeJ = nsLog >= jLog;
    const Ns = 2 ** nsLog;
    const base = nsGeJ ? Math.floor(j0 / Ns) * Ns * 2 ** rLog + (j0 % Ns) : j0 * 2 ** rLog;
    for (let o = 0; o < TILE; o++) {
      let f: number, jj: number, g: number;
      if (nsGeJ) [f, jj, g] = [Math.floor(o / J), o % J, base + (o % J) + Math.floor(o / J) * Ns];
      else {
        const rem = o % (Ns * 2 ** rLog);
        [f, jj, g] = [Math.floor(rem / Ns), Math.floor(o / (Ns * 2 ** rLog)) * Ns + (rem % Ns), base + o];
      }
      let v = tile[bitrev(f) * J + jj];
      if (post === 1) v = (v * cosetPow(g)) % FR_R;
      expect(dst[g]).toBe(-1n); // every output written once
      dst[g] = v;
    }
  }
  return dst;
}

/** A whole transform through the plan's passes, with the root table of ω_{2T}, T = 2^tLog. */
function simulate(logN: number, limits: FrNttLimits, x: bigint[], run: { inverse: boolean; coset?: boolean }, tLog = logN): bigint[] {
  const plan = planFrNtt(logN, limits);
  const w2t = frRootOfUnity(tLog + 1);
  const tw = Array.from({ length: 2 ** tLog }, (_, i) => powMod(w2t, BigInt(i), FR_R));
  // 1/N as a small-integer scale is impossible; scale by 3 instead and divide the reference by 3/N·N.
  const scale = run.inverse ? [3, 0, 0, 0, 0, 0, 0, 0] : undefined;
  let v = x;
  for (const p of frNttParams(plan, { ...run, scale }, tLog)) v = simulatePass(plan, p, v, tw);
  if (!run.inverse) return v;
  const fix = (invMod(3n, FR_R) * invMod(BigInt(2 ** logN), FR_R)) % FR_R; // undo 3, apply 1/N
  return v.map((y) => (y * fix) % FR_R);
}

function randomValues(n: number, seed: number): bigint[] {
  let s = BigInt(seed) | 1n;
  return Array.from({ length: n }, () => {
    s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 256n) - 1n);
    return s % FR_R;
  });
}

describe('planFrNtt', () => {
  it('splits stages evenly into passes of at most one tile', () => {
    expect(planFrNtt(1, DEFAULT).passes).toEqual([{ rLog: 1, nsLog: 0 }]);
    expect(planFrNtt(9, DEFAULT).passes.map((p) => p.rLog)).toEqual([9]);
    expect(planFrNtt(10, DEFAULT).passes.map((p) => p.rLog)).toEqual([5, 5]);
    expect(planFrNtt(20, DEFAULT).passes.map((p) => p.rLog)).toEqual([7, 7, 6]);
    expect(planFrNtt(20, DEFAULT).passes.map((p) => p.nsLog)).toEqual([0, 7, 14]);
    expect(planFrNtt(21, DEFAULT).passes.map((p) => p.rLog)).toEqual([7, 7, 7]);
    expect(planFrNtt(22, DEFAULT)).toMatchObject({ tileLog: 9, workgroupSize: 256, groups: 2 ** 13, bytes: 2 ** 27 });
    const big = { ...DEFAULT, maxBinding: 2 ** 33 };
    expect(planFrNtt(24, big).passes.map((p) => p.rLog)).toEqual([8, 8, 8]);
    expect(planFrNtt(27, big).passes.length).toBe(3);
  });

  it('fits the workgroup limits', () => {
    expect(frTileLogMax(DEFAULT)).toBe(9);
    expect(frTileLogMax({ ...DEFAULT, tileBytes: 32768, threads: 1024 })).toBe(9);
    expect(frTileLogMax({ ...DEFAULT, threads: 64 })).toBe(7);
    expect(frTileLogMax({ ...DEFAULT, tileBytes: 8192 })).toBe(8);
    expect(planFrNtt(16, { ...DEFAULT, threads: 64 }).passes.map((p) => p.rLog)).toEqual([6, 5, 5]);
  });

  it('refuses what does not fit, with the codes', () => {
    expect(() => planFrNtt(23, DEFAULT)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
    expect(() => planFrNtt(23, DEFAULT)).toThrow(/2\^22 values/);
    expect(() => planFrNtt(0, DEFAULT)).toThrow(expect.objectContaining({ code: 'INVALID_LENGTH' }));
    expect(() => planFrNtt(28, { ...DEFAULT, maxBinding: 2 ** 40 })).toThrow(expect.objectContaining({ code: 'INVALID_LENGTH' }));
  });

  it('puts the scale on the first pass and an inverse coset on the last', () => {
    const plan = planFrNtt(12, { ...DEFAULT, tileBytes: 4096 }); // 7 stages a tile: 6 + 6
    const fwd = frNttParams(plan, { inverse: false, coset: true }, 12);
    expect(fwd.map((w) => [w[5], w[6]])).toEqual([
      [2, 0],
      [0, 0],
    ]);
    const inv = frNttParams(plan, { inverse: true, coset: true, scale: [5, 0, 0, 0, 0, 0, 0, 7] }, 13);
    expect(inv.map((w) => [w[3], w[4], w[5], w[6], w[8], w[15]])).toEqual([
      [13, 1, 1, 0, 5, 7],
      [13, 1, 0, 1, 5, 7],
    ]);
    expect(inv[0].length).toBe(FR_NTT_PARAM_WORDS);
  });
});

describe("fr_ntt's index arithmetic equals src/ref/fr-ntt.ts", () => {
  // Small tiles make every pass shape at small sizes: one pass, J = 1, J > Ns, Ns ≥ J, uneven radices.
  const cases: Array<[number, FrNttLimits]> = [
    [1, DEFAULT],
    [3, DEFAULT],
    [6, { ...DEFAULT, tileBytes: 32 * 8 }], // tile 2^3: 3 + 3
    [7, { ...DEFAULT, tileBytes: 32 * 8 }], // 3 + 2 + 2
    [8, { ...DEFAULT, tileBytes: 32 * 16 }], // 4 + 4
    [10, { ...DEFAULT, tileBytes: 32 * 32 }], // 4 + 3 + 3
    [10, DEFAULT], // 5 + 5
  ];
  for (const [logN, limits] of cases) {
    const shape = planFrNtt(logN, limits)
      .passes.map((p) => p.rLog)
      .join('+');
    it(`2^${logN} (${shape})`, () => {
      const x = randomValues(2 ** logN, logN * 31 + limits.tileBytes);
      const w2n = frRootOfUnity(logN + 1);
      expect(simulate(logN, limits, x, { inverse: false })).toEqual(frNtt(x));
      expect(simulate(logN, limits, x, { inverse: true })).toEqual(frIntt(x));
      expect(simulate(logN, limits, x, { inverse: false, coset: true })).toEqual(frNtt(frScalePowers(x, w2n)));
      expect(simulate(logN, limits, x, { inverse: true, coset: true })).toEqual(frScalePowers(frIntt(x), w2n));
      // A root table for a larger size serves a smaller transform.
      expect(simulate(logN, limits, x, { inverse: false, coset: true }, logN + 2)).toEqual(frNtt(frScalePowers(x, w2n)));
    });
  }
});
