// MSM plan: scalar word planes for each batch, the ring size, and the memory budget at 2^20.
import { describe, expect, it } from 'vitest';
import { batchWords, minSlice, MSM_MEM_BUDGET, msmPlan, msmPoolBytes, reduceLevels, ringPlanes, topWindowBits, WALK_TARGET_THREADS } from '../../src/kernels/msm-plan.js';
import { windowCount } from '../../src/ref/msm.js';

describe('msm plan memory', () => {
  it('batch words cover every digit bit (window bits plus the look-back bit)', () => {
    for (const c of [4, 6, 8, 10, 12, 16]) {
      const T = windowCount(c);
      for (const nw of [1, 2, 3]) {
        for (let w0 = 0; w0 < T; w0 += nw) {
          const [lo, hi] = batchWords(c, w0, Math.min(nw, T - w0));
          const first = Math.max(0, w0 * c - 1), last = Math.min(255, Math.min(T, w0 + nw) * c - 1);
          expect(lo).toBe(first >> 5);
          expect(hi).toBe(Math.min(7, last >> 5));
          expect(hi - lo + 1).toBeLessThanOrEqual(ringPlanes(c, T, nw));
        }
      }
    }
  });

  it('c + 1 <= 17 bits per window: one window per batch needs at most 2 planes', () => {
    for (const c of [4, 8, 12, 16]) expect(ringPlanes(c, windowCount(c), 1)).toBeLessThanOrEqual(2);
    expect(ringPlanes(16, 16, 3)).toBe(3);
  });

  it('2^20 fits 100 MB by streaming the scalars; smaller n keeps all planes (one submit)', () => {
    const p = msmPlan(1 << 20);
    expect(p.planes).toBe(2);
    expect(p.poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
    expect(msmPoolBytes({ ...p, planes: 8 })).toBeGreaterThan(MSM_MEM_BUDGET); // 119 MiB
    // bases 64 + 2 planes 8 + entries 4 + bucket sums 3 + partials 8 (16384 threads) + reduction
    // pairs 6 + 1.5 + counts/offsets 0.5 MiB (+ small)
    expect(p.walkThreads).toBe(16384);
    expect(Math.round(p.poolBytes / 2 ** 20)).toBe(95);
    for (const logn of [10, 14, 16, 18]) expect(msmPlan(1 << logn).planes).toBe(8);
    for (let logn = 0; logn <= 20; logn++) expect(msmPlan(1 << logn).poolBytes).toBeLessThanOrEqual(MSM_MEM_BUDGET);
    expect(msmPlan(1 << 10, { lowMemory: true, scratchBytes: 1 }).planes).toBe(2);
  });

  it('plans aim for WALK_TARGET_THREADS walker threads where memory and minSlice allow, most windows per batch next', () => {
    for (const logn of [16, 18, 19]) expect(msmPlan(1 << logn).walkThreads).toBeGreaterThanOrEqual(WALK_TARGET_THREADS);
    // ...but no slice shorter than minSlice: 2^14 at c = 8 has ~128 entries per bucket, slices of 16.
    expect(minSlice(1 << 14, 128)).toBe(16);
    expect(msmPlan(1 << 14).walkThreads).toBe(((1 << 14) * 32) / (8 * 16));
    expect(msmPlan(1 << 12)).toMatchObject({ nwin: 32, batches: 1 });
  });

  it('c keeps the top window at >= c - 4 bits (few crowded buckets serialize the fix-up)', () => {
    for (let logn = 0; logn <= 22; logn++) {
      const c = msmPlan(1 << logn).c;
      expect(topWindowBits(c)).toBeGreaterThanOrEqual(c - 4);
    }
    expect(topWindowBits(12)).toBe(2);
    expect(topWindowBits(16)).toBe(14);
  });

  it('reduction levels take K pairs to one', () => {
    for (const K of [1, 2, 4, 8, 32, 1024]) expect(reduceLevels(K).reduce((a, g) => a + g, 0)).toBe(Math.log2(K));
    const p = msmPlan(1 << 20);
    expect([p.c, p.K, p.seg]).toEqual([16, 2048, 16]);
    expect(p.levels).toEqual([2, 2, 2, 2, 2, 1]);
  });
});
