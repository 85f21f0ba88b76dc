// The G2 MSM's plan records (src/kernels/g2msm/plan.ts) and the two parallel schemes they drive,
// played over integers in place of points: the balanced accumulation levels (g2msm_acc.wgsl: every
// bucket finished exactly once, however skewed) and the reduction's pairs (g2msm_reduce.wgsl:
// sum (k + 1)·B_k). Also: each uniform's fields agree with its WGSL struct, and the memory at 2^20.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accLevels, chooseC, g2MsmPlan, redLevels, windowsTouched, type AccLevel } from '../../src/kernels/g2msm/plan.js';
import { G2_PARAMS } from '../../src/kernels/g2msm/layout.js';
import { windowCount } from '../../src/params/msm-layout.js';
import { linkAll } from '../../scripts/gen-wgsl.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const NO_KEY = 0xffffffff;
type Slot = [key: number, value: bigint];

/**
 * One g2msm_acc level over items (key, value) sorted by key, as the kernel runs it: thread t's
 * run [t·seg, t·seg + seg) finishes its interior keys into `buckets` (throwing if one is written
 * twice) and writes its first and last keys' partial sums to slots 2t, 2t + 1.
 */
function accLevel(items: Slot[], l: AccLevel, buckets: Map<number, bigint>): Slot[] {
  const seg = l.seg;
  const out: Slot[] = new Array(2 * l.threads);
  const put = (key: number, v: bigint) => {
    if (buckets.has(key)) throw new Error(`bucket ${key} written twice`);
    buckets.set(key, v);
  };
  for (let t = 0; t < l.threads; t++) {
    const s = t * seg;
    const e = Math.min(s + seg, items.length);
    if (s >= items.length || items[s][0] === NO_KEY) {
      out[2 * t] = out[2 * t + 1] = [NO_KEY, 0n];
      continue;
    }
    const partial = !l.fin;
    const emit = (key: number, v: bigint, toSlot: boolean, slot: number) => (toSlot ? (out[slot] = [key, v]) : put(key, v));
    let [key, acc] = items[s];
    let first = true;
    for (let j = s + 1; j < e; j++) {
      const [k, v] = items[j];
      if (k !== key) {
        emit(key, acc, partial && first, 2 * t);
        first = false;
        key = k;
        if (k === NO_KEY) break;
        acc = v;
        continue;
      }
      acc += v;
    }
    if (key === NO_KEY) out[2 * t + 1] = [NO_KEY, 0n];
    else if (first) {
      emit(key, acc, partial, 2 * t);
      if (partial) out[2 * t + 1] = [key, 0n];
    } else emit(key, acc, partial, 2 * t + 1);
  }
  return out;
}

describe('G2 MSM plan', () => {
  it('chooses c by T·(n + 2^c): small windows at small n, 16 at 2^20', () => {
    expect(chooseC(1)).toBe(3);
    expect(chooseC(256)).toBe(6);
    expect(chooseC(1 << 20)).toBe(16);
    for (let lg = 0; lg <= 22; lg++) expect(chooseC(1 << lg)).toBeGreaterThanOrEqual(chooseC(Math.max(1, 1 << (lg - 1))));
  });

  it('batches cover every window once; levels shrink to one thread', () => {
    for (const [n, opts] of [
      [1, {}],
      [1000, {}],
      [1 << 20, {}],
      [300, { c: 8, entryBudget: 300 }],
      [50, { c: 5, entryBudget: 50 }],
    ] as const) {
      const p = g2MsmPlan(n, opts);
      expect(p.T).toBe(windowCount(p.c));
      expect(p.batches.map((b) => [b.w0, b.nw])).toEqual(
        Array.from({ length: p.batches.length }, (_, i) => [i * p.nw, Math.min(p.nw, p.T - i * p.nw)]),
      );
      for (const b of p.batches) {
        expect(b.acc[0]).toMatchObject({ mode: 0, kin: n * b.nw });
        expect(b.acc.at(-1)!.fin).toBe(true);
        expect(b.acc.slice(1).every((l, i) => l.mode === 1 && l.kin === 2 * b.acc[i].threads)).toBe(true);
      }
    }
    expect(accLevels(1 << 21).map((l) => [l.kin, l.seg])).toEqual([[1 << 21, 32], ...[17, 15, 13, 11, 9, 7, 5, 3].map((k) => [1 << k, 8])]);
    expect(redLevels(1 << 15, 3)).toEqual(Array.from({ length: 12 }, (_, i) => ({ kin: 4096 >> i })));
    expect(redLevels(4, 2)).toEqual([]);
  });

  it('GPU memory at 2^20: 225 MiB of run buffers beside the 128 MiB of bases', () => {
    const p = g2MsmPlan(1 << 20);
    expect([p.c, p.T, p.nw, p.batches.length]).toEqual([16, 16, 8, 2]);
    // The first level's threads capped at 2^17 (runs of 64), then runs of 8 slots.
    expect(p.batches[0].acc.map((l) => [l.threads, l.seg])).toEqual([
      [1 << 17, 64],
      ...[15, 13, 11, 9, 7, 5, 3, 1, 0].map((k) => [1 << k, 8]),
    ]);
    expect(p.bytes.slotsA).toBe(2 * (1 << 17) * 196);
    expect(p.runBytes).toBeLessThan(226 * 2 ** 20);
    expect(p.runBytes + 128 * (1 << 20)).toBeLessThan(371e6);
  });

  it('a witness-like histogram (90% zeros, 8% ones) picks smaller windows than full-size scalars', () => {
    const n = 1 << 20;
    const bits = new Array(257).fill(0);
    [bits[0], bits[1], bits[254]] = [0.9 * n, 0.08 * n, 0.02 * n];
    expect(chooseC(n, bits)).toBe(12);
    const full = new Array(257).fill(0);
    full[254] = n;
    expect(chooseC(n, full)).toBe(chooseC(n));
    // All ones: one entry a scalar whatever c is; the batches' cost keeps c from its least (3: 85 windows, 11 batches).
    const ones = new Array(257).fill(0);
    ones[1] = n;
    expect(chooseC(n, ones)).toBe(11);
    expect([0, 1, 2, 15, 16, 17, 254].map((b) => windowsTouched(b, 16))).toEqual([0, 1, 1, 1, 2, 2, 16]);
  });

  it('accumulation levels finish every bucket exactly once, however skewed the entries', () => {
    const rng = new SplitMix64(3);
    const shapes: [string, (nb: number) => number[]][] = [
      ['uniform', (nb) => Array.from({ length: nb }, () => Number(rng.next() % 5n))],
      ['one huge bucket', (nb) => Array.from({ length: nb }, (_, b) => (b === 1 ? 5000 : b % 3 === 0 ? 1 : 0))],
      ['all empty', (nb) => new Array(nb).fill(0)],
      ['every entry in the last bucket', (nb) => Array.from({ length: nb }, (_, b) => (b === nb - 1 ? 777 : 0))],
      ['runs of seg', (nb) => Array.from({ length: nb }, (_, b) => (b % 2 ? 32 : 31))],
    ];
    for (const [name, counts] of shapes) {
      for (const seg of [4, 32]) {
        const nb = 40;
        const per = counts(nb);
        const items: Slot[] = [];
        const want = new Map<number, bigint>();
        per.forEach((c, b) => {
          for (let i = 0; i < c; i++) {
            const v = rng.next();
            items.push([b, v]);
            want.set(b, (want.get(b) ?? 0n) + v);
          }
        });
        const levels = accLevels(items.length + 3 * seg, seg, seg === 4 ? 4 : 8); // the sort's bound exceeds the entries
        const buckets = new Map<number, bigint>();
        let cur = [...items, ...new Array<Slot>(levels[0].kin - items.length).fill([NO_KEY, 0n])];
        for (const l of levels) cur = accLevel(cur, l, buckets);
        expect(buckets, `${name}, seg ${seg}`).toEqual(want);
      }
    }
  });

  it('reduction pairs (W, U = len·S) give sum (k + 1)·B_k per window', () => {
    const rng = new SplitMix64(4);
    for (const [m, lseg] of [
      [32, 5],
      [1024, 5],
      [4, 2],
      [64, 3],
    ]) {
      const B = Array.from({ length: m }, () => rng.next() % 1000n);
      let pairs: [bigint, bigint][] = [];
      for (let s = 0; s < m >> lseg; s++) {
        let S = 0n,
          W = 0n;
        for (let k = (s + 1) << lseg; k-- > s << lseg;) ((S += B[k]), (W += S));
        for (let d = 0; d < lseg; d++) S += S; // U = 2^lseg·S
        pairs.push([W, S]);
      }
      // (W, U) merges as (W_L + W_R + U_R, 2·(U_L + U_R)), as g2msm_reduce_level adds them.
      for (const l of redLevels(m, lseg)) {
        pairs = Array.from({ length: l.kin / 2 }, (_, g) => {
          const [[wl, ul], [wr, ur]] = [pairs[2 * g], pairs[2 * g + 1]];
          const u = ul + ur;
          return [wl + wr + ur, u + u];
        });
      }
      expect(pairs.length).toBe(1);
      expect(pairs[0][0]).toBe(B.reduce((a, b, k) => a + BigInt(k + 1) * b, 0n));
    }
  });

  const wgsl = (kernel: string) =>
    readFileSync(new URL(`../../wgsl/kernels/${kernel}.wgsl`, import.meta.url), 'utf8').replace(/\/\/.*$/gm, '');
  for (const s of G2_PARAMS) {
    it(`${s.kernel} ${s.struct}: the WGSL struct, the packer and the fields read agree`, () => {
      const m = new RegExp(`struct\\s+${s.struct}\\s*\\{([^}]*)\\}`).exec(wgsl(s.kernel));
      const fields = m![1]
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
        .map((f) => f.split(':').map((x) => x.trim()));
      expect(fields.map(([f]) => f)).toEqual(s.fields);
      expect(fields.every(([, t]) => t === 'u32')).toBe(true);
      const code = linkAll()[s.kernel].code.replace(/\/\/.*$/gm, '');
      expect([...new Set([...code.matchAll(/\bprm\.(\w+)/g)].map((x) => x[1]))].sort()).toEqual([...s.fields].sort());
    });
  }
});
