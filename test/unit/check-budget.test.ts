// The ration of 'sample' checks (src/checks/budget.ts): the first result is always checked, then a
// check runs when 5% of the jobs' time since covers its cost, and credit saved while checks were
// dear does not buy a run of checks once they are cheap.
import { describe, it, expect } from 'vitest';
import { CheckBudget, SAMPLE_SHARE } from '../../src/checks/budget.js';

/** Checks run over `jobs` jobs of `jobMs` and `units` (a check costing checkMs a unit). */
function run(b: CheckBudget, jobs: number, jobMs: number, units: number, checkMs: number): number {
  let checks = 0;
  for (let i = 0; i < jobs; i++) {
    if (b.due(jobMs, units)) {
      b.spent(checkMs * units, units);
      checks++;
    }
  }
  return checks;
}

describe('check budget', () => {
  it('checks the first result, then about SAMPLE_SHARE of the job time', () => {
    const b = new CheckBudget();
    expect(b.priced).toBe(false);
    expect(run(b, 1, 100, 1, 20)).toBe(1);
    expect(b.priced).toBe(true);
    // 20 ms checks on 100 ms jobs at 5%: one check every 4 jobs.
    const checks = run(b, 40, 100, 1, 20);
    expect(checks * 20).toBeLessThanOrEqual(SAMPLE_SHARE * 40 * 100 + 20);
    expect(checks).toBeGreaterThanOrEqual(9);
  });

  it('keeps no credit beyond one check: cheap checks after dear ones stay at the share', () => {
    const b = new CheckBudget();
    // Large inputs: a check costs 300 ms (30 units of 10) on 100 ms jobs, earning 5 ms each.
    run(b, 200, 100, 30, 10);
    // Small inputs: a check costs 10 ms on 100 ms jobs: one in two, not a run of them.
    const checks = run(b, 20, 100, 1, 10);
    expect(checks).toBeLessThanOrEqual(11);
    expect(checks).toBeGreaterThanOrEqual(9);
  });
});
