// The runtime in headless Chromium, in its Web Worker (the default) and in the page's thread:
// concurrent mixed jobs, pool bounds, AbortSignal (before, queued, running), progress order,
// job counts; in the worker also a free page thread, transfers, errors as in-thread
// (bench/support/runtime-check.ts).
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('concurrent jobs, abort, progress and job counts', async ({ page }) => {
  const result = await autorun(page, 'runtime-check');
  expect(failures(result)).toEqual([]);
  const ok = result.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  for (const s of [
    '32 concurrent mixed jobs equal the references',
    'pool bytes bounded over 200 jobs',
    'an already-aborted signal rejects at once',
    'abort of a queued job: rejected before the job ahead ends, next job right',
    'abort of a running job (grinding) at its next boundary',
    'progress events in order, done <= total, ending done',
    'a throwing onProgress does not break the job',
    'results written into out, and in place; a wrong out is refused',
    'a large input with one value >= p is NON_CANONICAL, found on the GPU at its index',
    'stats() counts jobs',
    "stats() gives the last job's GPU time per submission",
    'a device lost mid-job is recreated and the job run again',
    'a loss between jobs is recovered on the next call',
    'a handle from a lost device fails with DEVICE_LOST, in place and as input',
  ]) {
    expect(ok).toContain(s);
  }
  expect(result.rows[0].detail).toMatch(/in a Web Worker/);
  for (const s of [
    "the page's thread stays free during an MSM of 2^12 and an NTT of 2^16 x 8",
    'inputs stay valid by default; { transfer: true } hands them over',
    "errors cross with the in-thread prover's code, name and message",
  ]) {
    expect(ok).toContain(s);
  }
});

test("the same runtime checks in the page thread (worker: false) at WebGPU's default limits", async ({ page }) => {
  const result = await autorun(page, 'runtime-check', { worker: '0', limits: 'default' });
  expect(failures(result)).toEqual([]);
  expect(result.rows[0].detail).toMatch(/in the page's thread, WebGPU's default limits/);
  expect(result.rows.filter((r) => r.status === 'ok').length).toBeGreaterThanOrEqual(8);
});

test("the README's first call and docs/usage.md's tour run as written", async ({ page }) => {
  const result = await autorun(page, 'readme-check');
  expect(failures(result)).toEqual([]);
  expect(result.rows.filter((r) => r.status === 'ok').map((r) => r.step)).toContain('README examples run as written');
});
