/**
 * Where the check tasks ran (check-thread.ts keeps it; `prover.stats().checks.thread` reports
 * it). Apart from the thread's code, which loads with the first checked WHIR or Groth16 job.
 * @module
 */
export type CheckThreadState = 'not started' | 'running' | 'unavailable';

export const checkThreadStats = {
  state: 'not started' as CheckThreadState,
  /** Why the thread is unavailable. */
  why: '',
  /** Tasks the thread answered, and tasks run in the prover's own thread instead. */
  onThread: 0,
  inThread: 0,
};
