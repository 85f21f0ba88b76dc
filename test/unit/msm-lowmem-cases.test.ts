// The dev page's low-memory MSM rows plan the shape they name at every size they run at
// (issue 27: at n = 64 the default c gave plans with no staged reduction and one window a batch).
import { describe, expect, it } from 'vitest';
import { msmPlan } from '../../src/kernels/msm/plan.js';
import { lowMemoryCases, lowMemoryShapeError } from '../../bench/support/msm-plan-check.js';

describe('low-memory MSM check rows', () => {
  // msm-noble-check runs them at n = min(2^logn, 256): 64 by default, 256 in CI.
  const sizes = [1, 2, 5, 16, 21, 33, 64, 85, 100, 128, 256, 1024]; // 21 and 85: the chained rows' parts
  for (const n of sizes) {
    it(`n = ${n}: every row plans its named shape`, () => {
      for (const k of lowMemoryCases(n)) expect(lowMemoryShapeError(msmPlan(n, k.tuning), k.expect), k.name).toBe('');
    });
  }
  it('names four distinct rows', () => {
    expect(new Set(lowMemoryCases(64).map((k) => k.name)).size).toBe(4);
  });
  it('reports the shape the default c gave at n = 64 (the bug this guards)', () => {
    // The old row derived its tuning from the default c (4 at n = 64: T = 64 windows, M = 8).
    const [k] = lowMemoryCases(64);
    const old = { ...k.tuning, c: undefined, scratchBytes: 4 * 64 + 96 * 8, pairBytes: 2 * 192 * 64 };
    expect(lowMemoryShapeError(msmPlan(64, old), k.expect)).toMatch(/segments 4\/4/);
  });
});
