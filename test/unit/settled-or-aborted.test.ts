// settledOrAborted: a call that waits before its job is queued (a Groth16 proof on its family's
// self-check) hears of its AbortSignal at once, and otherwise goes on when the wait settles.
import { describe, expect, it } from 'vitest';
import { isProverError } from '../../src/errors.js';
import { settledOrAborted } from '../../src/sched/job.js';

const never = new Promise<void>(() => {});
const code = (p: Promise<unknown> | undefined) =>
  Promise.resolve(p).then(
    () => 'resolved',
    (e: unknown) => (isProverError(e) ? e.code : String(e)),
  );

describe('settledOrAborted', () => {
  it('rejects with ABORTED when the signal aborts during the wait, without waiting for it', async () => {
    const ac = new AbortController();
    const waiting = code(settledOrAborted(never, 'job', ac.signal));
    ac.abort();
    expect(await waiting).toBe('ABORTED');
  });

  it('rejects at once for a signal aborted before, and follows the wait otherwise', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await code(settledOrAborted(never, 'job', ac.signal))).toBe('ABORTED');
    expect(await code(settledOrAborted(Promise.resolve(), 'job', new AbortController().signal))).toBe('resolved');
    expect(await code(settledOrAborted(Promise.reject(new Error('lost')), 'job', new AbortController().signal))).toBe('Error: lost');
    expect(settledOrAborted(undefined, 'job', ac.signal)).toBeUndefined();
  });
});
