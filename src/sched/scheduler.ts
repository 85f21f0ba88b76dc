/**
 * The scheduler: every public job goes through run(), which adds to the device's one queue
 * (GpuContext.run: jobs run one at a time, in call order, inside error scopes) what a caller
 * sees of a job: an AbortSignal (a job aborted while queued is rejected at once and skipped
 * when its turn comes; a running one stops at its next boundary), progress events, and counts
 * of jobs queued, run, failed and aborted for prover.stats().
 * @module
 */
import { isProverError } from '../errors.js';
import type { JobHooks } from '../gpu/context.js';
import { abortError, JobControl, type JobOptions, type SubmissionTime } from './job.js';

export interface JobStats {
  /** Jobs waiting for the device or running now. */
  queued: number;
  /** Jobs that finished with a result. */
  run: number;
  /** Jobs that failed (bad input found on the device, GPU errors, device loss). */
  failed: number;
  /** Jobs rejected by their AbortSignal. */
  aborted: number;
  /**
   * The last job that finished with a result: its name and each GPU submission's time (most
   * jobs submit one group of passes per stage; bench profiles time single passes), and when its
   * work began and ended on the same clock (JobControl.span).
   */
  last?: { job: string; submissions: SubmissionTime[]; startMs?: number; endMs?: number };
}

/**
 * Where jobs run, one at a time in call order: a GpuContext (the device's queue, inside error
 * scopes), or the CPU path's CpuQueue. `job` is the running job, for its boundaries.
 */
export interface JobQueue {
  run<T>(job: () => Promise<T>): Promise<T>;
  job: JobHooks | undefined;
}

export class Scheduler {
  private readonly counts: JobStats = { queued: 0, run: 0, failed: 0, aborted: 0 };
  private last: JobControl | undefined;

  constructor(private readonly ctx: JobQueue) {}

  stats(): JobStats {
    const last = this.last && { job: this.last.job, submissions: this.last.submissions(), ...this.last.span() };
    return { ...this.counts, ...(last ? { last } : {}) };
  }

  /**
   * Run `work` as the job `name` once the device is free. `work` gets the job's control; the
   * GPU context checks it at every submission and readback (ctx.job).
   */
  run<T>(name: string, opts: JobOptions, work: (job: JobControl) => Promise<T>): Promise<T> {
    const job = new JobControl(name, opts);
    const signal = opts.signal;
    if (signal?.aborted) {
      this.counts.aborted++;
      return Promise.reject(abortError(name, signal));
    }
    this.counts.queued++;
    job.report('queued');
    const queued = this.ctx.run(async () => {
      job.throwIfAborted(); // aborted while queued: skipped, nothing recorded
      this.ctx.job = job;
      job.begin();
      try {
        const out = await work(job);
        job.throwIfAborted(); // aborted during its last submission: the result is dropped
        return out;
      } finally {
        this.ctx.job = undefined;
      }
    });
    // The caller hears of an abort at once, even while the job waits behind others.
    const aborted =
      signal &&
      new Promise<never>((_, reject) => {
        const onAbort = () => reject(abortError(name, signal));
        signal.addEventListener('abort', onAbort, { once: true });
        queued.then(
          () => signal.removeEventListener('abort', onAbort),
          () => signal.removeEventListener('abort', onAbort),
        );
      });
    aborted?.catch(() => {}); // an abort after the job settled rejects nobody's promise
    const settled = (aborted ? Promise.race([queued, aborted]) : queued).then(
      (out) => {
        this.counts.run++;
        this.last = job;
        job.finish();
        return out;
      },
      (e: unknown) => {
        if (isProverError(e) && e.code === 'ABORTED') this.counts.aborted++;
        else this.counts.failed++;
        throw e;
      },
    );
    // The device queue slot is released when the job really ends, not when its caller gave up.
    void queued.catch(() => {}).finally(() => this.counts.queued--);
    return settled;
  }
}
