// The runtime in headless Chromium: concurrent mixed jobs, pool bounds, AbortSignal (before,
// queued, running), progress order, job counts (test/gpu/runtime-check.ts).
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('concurrent jobs, abort, progress and job counts', async ({ page }) => {
  const result = await autorun(page, 'runtime-check');
  expect(failures(result)).toEqual([]);
  const ok = result.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  for (const s of ['32 concurrent mixed jobs equal the references', 'pool bytes bounded over 200 jobs', 'an already-aborted signal rejects at once',
    'abort of a queued job: rejected before the job ahead ends, next job right', 'abort of a running job (grinding) at its next boundary',
    'progress events in order, done <= total, ending done', 'a throwing onProgress does not break the job', 'stats() counts jobs']) {
    expect(ok).toContain(s);
  }
});
