/**
 * The CPU path's job queue and boundaries. CPU jobs run one at a time, like the device's, so a
 * queued job can be dropped by its AbortSignal; a running one gives the thread back at its
 * boundaries every ~16 ms, where an abort (a message the worker must be free to receive) stops
 * it and progress is reported.
 * @module
 */
import type { JobHooks } from '../gpu/context.js';
import type { JobQueue } from '../sched/scheduler.js';

export class CpuQueue implements JobQueue {
  job: JobHooks | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const out = this.tail.then(job);
    this.tail = out.catch(() => {});
    return out;
  }
}

/** How long CPU work runs before giving the thread back. */
const SLICE_MS = 16;

/**
 * Boundaries of one CPU job: `step(stage)` stops the job if its signal fired and, once a slice
 * of time has passed, reports progress and yields to the event loop.
 */
export function cpuSteps(job: JobHooks): (stage: string) => Promise<void> {
  let last = performance.now();
  return async (stage) => {
    if (performance.now() - last < SLICE_MS) return;
    job.checkpoint(stage);
    await new Promise((r) => setTimeout(r, 0));
    last = performance.now();
  };
}
