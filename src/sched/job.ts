/**
 * One job's controls: the caller's AbortSignal and progress callback, checked and reported at
 * the job's boundaries (start, each GPU submission, readback, end). The GPU cannot stop inside a
 * submission, so a running job stops at its next boundary; a job still queued is dropped.
 * @module
 */
import { ProverError } from '../errors.js';
import type { JobHooks } from '../gpu/context.js';
import { show } from '../validate.js';

/**
 * What a job reports: `done` of `total` steps of `job`, now at `stage`. `done <= total`, never
 * decreasing. Stages name the job's GPU submissions, plus 'compiling' (waiting for its pipelines:
 * a family's first call) and 'done'.
 */
export interface JobProgress {
  job: string;
  stage: string;
  done: number;
  total: number;
}

/**
 * How a GPU result is checked against the CPU reference (docs/checks.md): 'off'; 'sample' (the
 * default: cheap spot checks, within about 5% of the family's job time); 'full' (the whole
 * result recomputed on the CPU: for tests and small sizes).
 */
export type CheckMode = 'off' | 'sample' | 'full';

/** Per-call options every job method takes (in its options argument, or as an extra last one). */
export interface JobOptions {
  /** This call's result check; default: the prover's `check` option. */
  check?: CheckMode;
  /** Abort the job: rejected with an AbortError (a ProverError with code ABORTED). */
  signal?: AbortSignal;
  /** Called at the job's boundaries; exceptions it throws are ignored. */
  onProgress?: (p: JobProgress) => void;
}

/** The error an aborted job rejects with: `name === 'AbortError'` (the web's convention) and code ABORTED. */
export function abortError(job: string, signal?: AbortSignal): ProverError {
  return new ProverError('ABORTED', `${job} was aborted by its AbortSignal; call it again with a fresh signal if you still need it`, {
    cause: signal?.reason,
  });
}

/**
 * `p` (undefined: at once), or `job`'s ABORTED as soon as `signal` aborts: a call that waits on
 * something before its job is queued (a Groth16 proof on its family's self-check) hears of an abort
 * at once, as a queued job does. A malformed signal is left to the call's own validation.
 */
export function settledOrAborted(p: Promise<void> | undefined, job: string, signal?: AbortSignal): Promise<void> | undefined {
  if (!p || typeof signal?.addEventListener !== 'function') return p;
  if (signal.aborted) return Promise.reject(abortError(job, signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortError(job, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The job options of a call (undefined, or an object whose signal and onProgress have the right types). */
export function requireJobOptions(name: string, o: unknown): JobOptions {
  if (o === undefined) return {};
  if (typeof o !== 'object' || o === null) throw new ProverError('INVALID_ARGUMENT', `${name} must be an options object, got ${show(o)}`);
  const { signal, onProgress, check } = o as JobOptions;
  requireCheckMode(`${name}.check`, check);
  if (signal !== undefined && !isSignal(signal)) {
    throw new ProverError('INVALID_ARGUMENT', `${name}.signal must be an AbortSignal (new AbortController().signal), got ${show(signal)}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new ProverError('INVALID_ARGUMENT', `${name}.onProgress must be a function, got ${show(onProgress)}`);
  }
  return { signal, onProgress, ...(check === undefined ? {} : { check }) };
}

/** A CheckMode, or undefined. */
export function requireCheckMode(name: string, check: unknown): CheckMode | undefined {
  if (check !== undefined && check !== 'off' && check !== 'sample' && check !== 'full') {
    throw new ProverError('INVALID_ARGUMENT', `${name} must be 'off', 'sample' or 'full', got ${show(check)}`);
  }
  return check;
}

/** An AbortSignal, of this realm or another (checked by shape). */
export function isSignal(s: unknown): s is AbortSignal {
  const x = s as AbortSignal;
  return typeof s === 'object' && s !== null && typeof x.aborted === 'boolean' && typeof x.addEventListener === 'function';
}

/** One submission of a job and the time the GPU spent on it. */
export interface SubmissionTime {
  stage: string;
  /** From the later of its submission and the previous one's end, to its end (onSubmittedWorkDone). */
  gpuMs: number;
  /** When it was submitted, ms after the job's first submission: a gap shows the host's share. */
  atMs: number;
}

/** A running job as the GPU context sees it (JobHooks), plus its progress bookkeeping. */
export class JobControl implements JobHooks {
  private done = 0;
  private total = 1;
  private readonly finished: { stage: string; submittedAt: number; doneAt: number }[] = [];
  /** When its work began (the device free for it) and when it finished: performance.now(). */
  private startedAt = NaN;
  private endedAt = NaN;

  constructor(
    readonly job: string,
    private readonly opts: JobOptions,
  ) {}

  get aborted(): boolean {
    return this.opts.signal?.aborted === true;
  }

  /** Throws the job's AbortError if its signal has fired. */
  throwIfAborted(): void {
    if (this.aborted) throw abortError(this.job, this.opts.signal);
  }

  /** Announce `steps` more boundaries ahead (a loop of submissions), so `total` is known early. */
  expect(steps: number): void {
    this.total = Math.max(this.total, this.done + steps);
  }

  /** A boundary: stop here if aborted, else report one more step done. */
  checkpoint(stage: string): void {
    this.throwIfAborted();
    this.done++;
    this.total = Math.max(this.total, this.done);
    this.report(stage);
  }

  gpuDone(stage: string, submittedAt: number, doneAt: number): void {
    this.finished.push({ stage, submittedAt, doneAt });
  }

  /**
   * The GPU time of each submission that has finished, in order. The queue runs submissions one
   * after another, so each one's time starts when it was submitted or when the one before ended.
   */
  submissions(): SubmissionTime[] {
    let prevEnd = 0;
    const t0 = this.firstSubmittedAt();
    return this.finished.map(({ stage, submittedAt, doneAt }) => {
      const gpuMs = doneAt - Math.max(submittedAt, prevEnd);
      prevEnd = doneAt;
      return { stage, gpuMs: +gpuMs.toFixed(3), atMs: +(submittedAt - t0).toFixed(3) };
    });
  }

  /** When its first finished submission was submitted: the zero of atMs, startMs and endMs. */
  private firstSubmittedAt(): number {
    return Math.min(...this.finished.map((f) => f.submittedAt));
  }

  /** Its work begins (the device is free for it). */
  begin(): void {
    this.startedAt = performance.now();
  }

  /**
   * When the job's work began and when it finished, in ms from its first submission (the
   * submissions' atMs clock): a start well before 0 is host work before the GPU had anything.
   */
  span(): { startMs: number; endMs: number } | undefined {
    if (this.finished.length === 0 || Number.isNaN(this.startedAt)) return undefined;
    const t0 = this.firstSubmittedAt();
    return { startMs: +(this.startedAt - t0).toFixed(3), endMs: +(this.endedAt - t0).toFixed(3) };
  }

  /** The job finished: done = total. */
  finish(): void {
    this.endedAt = performance.now();
    this.total = Math.max(this.total, this.done);
    this.done = this.total;
    this.report('done');
  }

  report(stage: string): void {
    const cb = this.opts.onProgress;
    if (!cb) return;
    try {
      cb({ job: this.job, stage, done: this.done, total: this.total });
    } catch {
      // The caller's callback is the only caller code that runs mid-job: it must not break the job.
    }
  }
}
