/**
 * What every CPU facet (src/cpu/*.ts) gets: the scheduler its jobs run through (a CpuQueue under
 * it) and the DESTROYED guard; the CPU twin of src/api/env.ts.
 * @module
 */
import type { Scheduler } from '../sched/scheduler.js';

export interface CpuEnv {
  sched: Scheduler;
  /** Throws ProverError DESTROYED once the prover is destroyed. */
  alive(): void;
}
