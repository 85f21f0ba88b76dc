// Shapes are data: in headless Chromium (SwiftShader), a second LDE size (widths 8 and 1), a
// second Merkle size and a second MSM size (another window size) create no pipeline, and after
// warmUp(['ntt']) NTT sizes it never ran create none; each second-size result is checked too.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('a second size of a warm family creates no pipeline', async ({ page }) => {
  const result = await autorun(page, 'compile-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const steps = result.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  expect(steps).toEqual([
    'lde second size x8',
    'lde second size x1',
    "a job waiting for a compile reports 'compiling'",
    'merkleCommit second size',
    'msm second size (another window size)',
    'ntt sizes after warmUp',
  ]);
  const compiled = result.rows.find((r) => r.step === 'compiled')!;
  expect(compiled.pipelines).toBeGreaterThan(0);
});
