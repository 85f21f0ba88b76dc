/**
 * The ration of 'sample' checks (docs/checks.md): how often a family's results are checked so that
 * the checks cost about SAMPLE_SHARE of its jobs' time. families.ts keeps one per family.
 * @module
 */

/** The share of a family's job time its 'sample' checks may spend. */
export const SAMPLE_SHARE = 0.05;

/**
 * A family's 'sample' budget: every job earns SAMPLE_SHARE of its end-to-end time; a check runs
 * when the earned time covers its estimated cost (the last check's cost per unit). The first
 * result of each family is always checked. Credit beyond one check's cost is not kept: saved up
 * over jobs whose checks cost more (a smaller size's first one), it let every 2^20 MSM of a run
 * be checked (H200: 1.095x its time with checks off, against 0.999x at 2^16).
 */
export class CheckBudget {
  private credit = 0;
  private msPerUnit = -1;

  due(jobMs: number, units: number): boolean {
    const cost = this.msPerUnit * units;
    this.credit = Math.min(this.credit + SAMPLE_SHARE * jobMs, Math.max(cost, SAMPLE_SHARE * jobMs));
    return this.msPerUnit < 0 || cost <= this.credit;
  }

  /** Whether a check has priced the next (before the first, every result is checked). */
  get priced(): boolean {
    return this.msPerUnit >= 0;
  }

  spent(ms: number, units: number): void {
    this.msPerUnit = ms / units;
    this.credit -= ms;
  }
}
