// BN254 G2 MSM on the GPU (SwiftShader) against @noble/curves, from zkey-layout words: edge cases,
// skewed witness-like scalars, random inputs up to 2^logn, a prefix of the points, several window
// batches, each on the fast and the quick pipelines, and the bases' check naming a bad point.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

const LOGN = process.env.G2MSM_E2E_LOGN ?? '10';

test(`g2 msm equals noble (n = 1 .. 2^${LOGN}, edge cases, bad points)`, async ({ page }) => {
  const result = await autorun(page, 'g2msm-check', { logn: LOGN });
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const steps = result.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  for (const s of [
    'n=1',
    'all zero scalars',
    'scalars 1 and r-1',
    'identity points',
    'repeated point',
    'P and -P',
    'skewed (90% zeros, many ones, a few large)',
    'all scalars 1',
    `random n=${1 << Number(LOGN)}`,
    'random n=300',
    'fewer scalars than points',
    'c=8, 3 windows a batch',
    'c=5, 1 window a batch',
    'point off the curve reported',
    'coordinate >= q reported',
    'scalar >= r refused',
    'usable after errors',
  ]) {
    expect(steps).toContain(`g2msm ${s}`);
    if (!/reported|refused|after errors/.test(s)) expect(steps).toContain(`g2msm ${s} (quick)`);
  }
});
