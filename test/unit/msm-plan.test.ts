// MSM plan: scalar half-planes for each batch, the ring size, riders, and the memory budget at 2^20.
import { describe, expect, it } from 'vitest';
import {
  minSlice,
  MSM_MEM_BUDGET,
  msmPlan,
  ringPlanes,
  WALK_TARGET_THREADS,
  WALK_TARGET_THREADS_WG,
  WALK_WG,
  WG_INV_S,
  DEFAULT_WG_LIMITS,
  defaultWalkWg,
  walkTreeBytes,
  WALK_WG_LARGE,
  WALK_TARGET_THREADS_LARGE,
  walkTarget,
  type MsmTuning,
} from '../../src/kernels/msm/plan.js';
import { msmPoolBytes, packedScalarBytes, partialsBytes, reduceScratchBytes } from '../../src/kernels/msm/buffers.js';
import { batchHalves, RED_WG, SCALAR_HALVES } from '../../src/kernels/msm/layout.js';
import { reduceLevels } from '../../src/kernels/msm/schedule.js';

/** An H100's workgroup limits through Dawn (the 512-thread walker fits). */
const LARGE = { threads: 1024, tileBytes: 49152 };
import { windowCount } from '../../src/ref/msm.js';
import { windowStart } from '../../src/params/msm-layout.js';
import { msmRuns } from '../../src/kernels/msm/runs.js';

describe('msm plan memory', () => {
  it('batch halves cover every digit bit (window bits plus the look-back bit)', () => {
    for (const c of [4, 6, 8, 10, 12, 16]) {
      const T = windowCount(c);
      for (const nw of [1, 2, 3]) {
        for (let w0 = 0; w0 < T; w0 += nw) {
          const [lo, hi] = batchHalves(c, w0, Math.min(nw, T - w0));
          const first = Math.max(0, windowStart(w0, c) - 1),
            last = windowStart(Math.min(T, w0 + nw), c) - 1;
          expect(lo).toBe(first >> 4);
          expect(hi).toBe(Math.min(SCALAR_HALVES - 1, last >> 4));
          expect(hi - lo + 1).toBeLessThanOrEqual(ringPlanes(c, T, nw));
        }
      }
    }
  });

  it('c + 1 <= 17 bits per window: one window per batch needs at most 2 half-planes', () => {
    for (const c of [4, 8, 12, 13, 15, 16]) expect(ringPlanes(c, windowCount(c), 1)).toBeLessThanOrEqual(2);
    expect(ringPlanes(16, 16, 3)).toBe(4); // bits 47..95: halves 2..5
  });

  it('2^20 with its scalars fits 100 MB: bases 64 MiB + scalars 32 MiB do not, so the job runs as 4 parts of 2^18 (8 of 2^17 at the default limits)', () => {
    const n = 1 << 20;
    for (const limits of [DEFAULT_WG_LIMITS, LARGE]) {
      // One run over all 2^20 scalars cannot fit whatever its working buffers (96 MiB = 100.7 MB before them).
      expect(64 * n + packedScalarBytes(n)).toBeGreaterThan(MSM_MEM_BUDGET);
      expect(msmPlan(n, {}, limits).poolBytes).toBeGreaterThan(MSM_MEM_BUDGET);
      const job = msmRuns([{ start: 0, n }], 0, n, {}, limits);
      // The 128-thread walker reaches more threads with 8 parts (H100 at the default limits, end to
      // end: 8 parts at c = 13 0.955x of the earlier 4 at c = 15).
      const parts = limits === LARGE ? 4 : 8;
      expect(job.runs.map((r) => [r.start, r.n, r.base0])).toEqual(
        Array.from({ length: parts }, (_, k) => [(k * n) / parts, n / parts, (k * n) / parts]),
      );
      expect(job.runs.every((r) => r.plan.c === 13)).toBe(true);
      expect(job.poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
      for (const r of job.runs) {
        // every part counts all the bases and its own scalars, and its walker reaches its thread target
        expect(r.plan.basesN).toBe(n);
        expect(r.plan.poolBytes).toBe(msmPoolBytes(r.plan));
        if (limits === LARGE) expect(r.plan.walkThreads).toBeGreaterThanOrEqual(walkTarget(r.plan));
        expect(msmPoolBytes(r.plan)).toBeGreaterThanOrEqual(64 * n + packedScalarBytes(1 << 18));
      }
    }
    // Below 2^20 one run holds everything; 2^16 all 16 half-planes (one split pass).
    for (let logn = 0; logn <= 19; logn++) {
      const job = msmRuns([{ start: 0, n: 1 << logn }], 0, 1 << logn, {}, LARGE);
      expect(job.runs.length).toBe(1);
      expect(job.poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
    }
    expect(msmPlan(1 << 16, {}, LARGE).planes).toBe(SCALAR_HALVES);
    // Tunings: forced parts, and riders, the per-thread walker or S = 1 still fit at 2^20.
    for (const t of [{ riders: true }, { wgInv: false }, { S: 1 }])
      expect(msmRuns([{ start: 0, n }], 0, n, t).poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
    expect(msmRuns([{ start: 0, n: 1000 }], 0, 1000, { parts: 4 }).runs.map((r) => r.n)).toEqual([250, 250, 250, 250]);
  });

  it('slices and chunks: runs cover [offset, offset + m) of the bases, cut where chunks end, bases counted per chunk', () => {
    const chunks = [
      { start: 0, n: 1000 },
      { start: 1000, n: 1000 },
      { start: 2000, n: 500 },
    ];
    const job = msmRuns(chunks, 900, 1300, {});
    expect(job.runs.map((r) => [r.chunk, r.base0, r.start, r.n, r.plan.basesN])).toEqual([
      [0, 900, 0, 100, 1000],
      [1, 0, 100, 1000, 1000],
      [2, 0, 1100, 200, 500],
    ]);
    const tail = msmRuns([{ start: 0, n: 1 << 16 }], 100, 7, { parts: 2 });
    expect(tail.runs.map((r) => [r.base0, r.start, r.n])).toEqual([
      [100, 0, 4],
      [104, 4, 3],
    ]);
  });

  it('the 512-thread walker where the device allows it, from 2^18', () => {
    expect(walkTreeBytes(WALK_WG_LARGE)).toBe(36864);
    expect(walkTreeBytes(WALK_WG)).toBeLessThanOrEqual(DEFAULT_WG_LIMITS.tileBytes);
    expect(defaultWalkWg(1 << 20, DEFAULT_WG_LIMITS)).toBe(WALK_WG);
    expect(defaultWalkWg(1 << 20, { threads: 1024, tileBytes: 32768 })).toBe(WALK_WG); // tree does not fit
    expect(defaultWalkWg(1 << 20, { threads: 256, tileBytes: 65536 })).toBe(WALK_WG);
    expect(defaultWalkWg(1 << 20, LARGE)).toBe(WALK_WG_LARGE);
    expect([12, 16, 17, 18, 22].map((logn) => msmPlan(1 << logn, {}, LARGE).walkWg)).toEqual([
      WALK_WG,
      WALK_WG,
      WALK_WG,
      WALK_WG_LARGE,
      WALK_WG_LARGE,
    ]);
    expect(msmPlan(1 << 20, { wgInv: false }, LARGE).walkWg).toBe(WALK_WG); // the per-thread walker has no tree
    // Past the budget (2^21, 2^22) one batch a window with the longest slice that still gives the target.
    for (const logn of [21, 22]) expect(msmPlan(1 << logn, {}, LARGE).walkThreads).toBe(WALK_TARGET_THREADS_LARGE);
  });

  it('plans aim for WALK_TARGET_THREADS walker threads where memory and minSlice allow, most windows per batch next', () => {
    for (const logn of [16, 18, 19]) expect(msmPlan(1 << logn, { wgInv: false }).walkThreads).toBeGreaterThanOrEqual(WALK_TARGET_THREADS);
    // ...but no slice shorter than minSlice: 2^14 at c = 8 has ~128 entries per bucket, slices of 16
    // (S slots of a thread, 8 per-thread inversion, WG_INV_S = 4 with the workgroup's).
    expect(minSlice(1 << 14, 128)).toBe(16);
    for (const t of [{ wgInv: false }, {}, { c: 8 }]) {
      const p = msmPlan(1 << 14, t);
      expect(p.walkThreads).toBeLessThanOrEqual(Math.ceil(((1 << 14) * p.nwin) / (p.S * minSlice(1 << 14, p.M)) / p.walkWg) * p.walkWg);
    }
    expect(msmPlan(1 << 14, { c: 8 }).walkThreads).toBe(((1 << 14) * 32) / (WG_INV_S * 16));
    expect(msmPlan(1 << 12)).toMatchObject({ c: 9, nwin: 29, batches: 1 });
  });

  it('the top window sees c - 2 bits or more (windows of c - 1 on top), so c follows the cost model alone', () => {
    // Bits of a scalar (< r < 2^254) the top window's digit sees: crowded buckets below c - 4 made
    // the fix-up slow (H100, 2^14 at c = 12 with all-c windows: 49 ms of fix-up for 2 bits).
    const topWindowBits = (c: number) => 254 - windowStart(windowCount(c) - 1, c);
    for (let c = 4; c <= 16; c++) expect(topWindowBits(c)).toBeGreaterThanOrEqual(c - 2);
    expect([12, 13, 14, 15, 16].map(topWindowBits)).toEqual([10, 11, 12, 14, 14]); // all-c windows: 2, 7, 2, 14, 14
    // The defaults measured on the H100 (pickC): c = 9-11 from 2^12 to 2^15, 13 at 2^16-2^17, 15 at
    // 2^18-2^20 on its own, 16 past the budget; a 2^20 job's parts of 2^18 over all 2^20 bases, 13.
    expect([12, 13, 15, 16, 17, 18, 19, 22].map((logn) => msmPlan(1 << logn, {}, LARGE).c)).toEqual([9, 10, 11, 13, 13, 15, 15, 16]);
    expect(msmPlan(1 << 18, {}, LARGE, 1 << 20).c).toBe(13);
  });

  it('reduction levels take K pairs to one', () => {
    for (const K of [1, 2, 4, 8, 32, 1024]) expect(reduceLevels(K).reduce((a, g) => a + g, 0)).toBe(Math.log2(K));
    const p = msmPlan(1 << 20);
    expect([p.c, p.K, p.seg]).toEqual([16, 2048, 16]);
    expect(p.levels).toEqual([2, 2, 2, 2, 2, 1]);
  });

  it("every reduction level's group fits one reduction workgroup (its lanes exchange through workgroup memory)", () => {
    for (let logn = 0; logn <= 23; logn++) {
      for (const limits of [LARGE, DEFAULT_WG_LIMITS]) {
        for (const t of [{}, { riders: true }, { lowMemory: true }]) {
          const p = msmPlan(1 << logn, t, limits);
          for (const size of [p.seg / p.seg1, ...p.levels.map((g) => 2 ** g)]) expect(RED_WG % size).toBe(0);
        }
      }
    }
  });

  it('wgInv: small S, up to WALK_TARGET_THREADS_WG threads under the same budget', () => {
    // A 2^20 job's parts: 2^18 scalars over 2^20 bases.
    const part = (t: MsmTuning) => msmPlan(1 << 18, t, DEFAULT_WG_LIMITS, 1 << 20);
    const d = part({}),
      a = part({ S: 4 }),
      b = part({ wgInv: true, S: 1 });
    expect([part({ wgInv: false }).wgInv, d.wgInv, a.wgInv, b.wgInv]).toEqual([false, true, true, true]);
    expect([a.S, b.S]).toEqual([WG_INV_S, 1]);
    expect(WG_INV_S).toBe(4);
    // Default S with wgInv: 4, 8 from 2^20 (the per-thread walker's 16384 threads at 2^20), 16 from 2^22.
    expect([18, 19, 20, 21, 22].map((logn) => msmPlan(1 << logn).S)).toEqual([4, 4, 8, 8, 16]);
    // partials (64 bytes a thread) no longer tie threads to S: 98304 threads at S = 4 and the
    // target 131072 at S = 1, all under the budget with the whole 2^20 bases resident.
    expect(a.walkThreads).toBe(65536);
    expect(b.walkThreads).toBe(WALK_TARGET_THREADS_WG);
    for (const p of [a, b, d]) {
      expect(partialsBytes(p)).toBe(64 * p.walkThreads);
      expect(p.poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
      if (p !== b) expect(p.c).toBe(d.c); // S = 1 weighs the walk more in pickC's model: c = 15
    }
    for (let logn = 0; logn <= 19; logn++) {
      for (const S of [1, 2, 4]) {
        const p = msmPlan(1 << logn, { wgInv: true, S });
        expect(p.poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
        expect(p.walkThreads % WALK_WG).toBe(0);
        expect(p.walkThreads / WALK_WG).toBeLessThanOrEqual(65535); // one dispatch dimension
        expect(p.walkThreads).toBeGreaterThanOrEqual(msmPlan(1 << logn, { wgInv: false }).walkThreads);
      }
    }
    // Where memory allows, past the default's target: 2^18 and 2^19 reach the wgInv target.
    for (const logn of [18, 19])
      expect(msmPlan(1 << logn, { wgInv: true, S: 2 }).walkThreads).toBeGreaterThanOrEqual(WALK_TARGET_THREADS_WG);
    expect(WALK_TARGET_THREADS_WG).toBeGreaterThan(WALK_TARGET_THREADS);
  });

  it('wgInv off (the per-thread-inversion walker) plans as before, but for the half-plane ring', () => {
    // c / nwin / walkThreads / half-planes / K for n = 2^0 .. 2^22. Before half-planes: 2^19 a ring
    // of 5 words, 2^20 16384 threads (the ring's 4 MiB saved buy 2^20 more slices). Thread counts
    // round to the workgroup size: these plans were made with 64 (WALK_WG is now 128). Since
    // partials are one per thread (not per slot) and a riderless plan's final levels use the dead
    // entries buffer, 2^18 - 2^22 got more threads (2^20 two windows a batch) from the same budget.
    // Since the caller's packed scalars count (32 bytes each), 2^18 and 2^19 take fewer windows a
    // batch, and a 2^20 plan on its own is over the budget (msmRuns cuts that job into parts).
    // Since the top windows have c - 1 bits (no crowded top window), c follows the cost model for
    // every window size: 7 at 2^9 (was 6), 9-12 at 2^12-2^15 (8), 13 at 2^16-2^17 (15).
    const before = [
      '4/64/64/16/8',
      '4/64/64/16/8',
      '4/64/64/16/8',
      '4/64/64/16/8',
      '4/64/64/16/8',
      '4/64/128/16/8',
      '5/51/256/16/16',
      '5/51/448/16/16',
      '6/43/704/16/32',
      '7/37/1216/16/64',
      '8/32/2048/16/128',
      '8/32/4096/16/128',
      '9/29/7424/16/256',
      '10/26/13312/16/512',
      '11/24/24576/16/1024',
      '12/22/45056/16/1024',
      '13/20/32768/16/1024',
      '13/20/40960/16/1024',
      '15/16/32768/16/1024',
      '15/7/38272/8/1024',
      '16/1/32768/2/2048',
      '16/1/32768/2/2048',
      '16/1/32768/2/2048',
    ];
    for (let logn = 0; logn <= 22; logn++) {
      const p = msmPlan(1 << logn, { wgInv: false, walkWg: 64 });
      expect([p.c, p.nwin, p.walkThreads, p.planes, p.K].join('/')).toBe(before[logn]);
      expect([p.S, p.wgInv, p.mul13, p.riders]).toEqual([8, false, true, false]);
      expect(msmPlan(1 << logn).wgInv).toBe(true);
    }
  });

  it('riders: wgInv plans of more than one batch; the ring and scratch are in the pool bytes', () => {
    for (let logn = 0; logn <= 22; logn++) {
      // Riders where asked for and there is a next batch; by default only where they win the search.
      const d = msmPlan(1 << logn);
      expect(!d.riders || d.batches > 1).toBe(true);
      const p = msmPlan(1 << logn, { riders: true });
      expect(p.riders).toBe(p.batches > 1);
      const off = msmPlan(1 << logn, { riders: false });
      expect(off.riders).toBe(false);
      if (!p.riders) continue;
      // Walk and fix-up dispatches with their riders (merging level, first pass) are one dimension of workgroups.
      expect(Math.ceil(p.walkThreads / p.walkWg) + Math.ceil((p.nwin * p.K) / p.walkWg)).toBeLessThanOrEqual(65535);
      expect(Math.ceil((p.nwin * p.M) / p.fixWg) + Math.ceil((p.nwin * p.M) / p.seg1 / p.fixWg)).toBeLessThanOrEqual(65535);
      // The first pass's pairs fit the second list (the riders' scratch); partials need no room for them.
      expect(reduceScratchBytes(p)).toBeGreaterThanOrEqual(192 * p.nwin * (p.M / p.seg1));
      expect(partialsBytes(p)).toBe(64 * p.walkThreads);
      if (logn <= 19) expect(p.poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
    }
  });
});
