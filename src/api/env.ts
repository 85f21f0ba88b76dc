/**
 * What every API facet (src/api/*.ts) gets from createProver(): the GPU context, the
 * scheduler its jobs run through, and a guard that throws DESTROYED after prover.destroy(). A facet is a function env -> methods; the
 * Prover is the union of all facets, so a kernel family adds its public methods in its own
 * file and one line in src/prover.ts.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { Scheduler } from '../sched/scheduler.js';

export interface ApiEnv {
  ctx: GpuContext;
  /** Every job runs through it: the device queue, AbortSignal, progress, job counts. */
  sched: Scheduler;
  /** Throws ProverError DESTROYED once the prover is destroyed. */
  alive(): void;
}

/** Largest u32 count one storage binding can hold on this device. */
export function maxBindingWords(ctx: GpuContext): number {
  return Math.floor(Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize) / 4);
}
