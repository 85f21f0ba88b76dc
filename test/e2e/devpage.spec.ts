// The dev page renders what a bench run produced: the GPU vs CPU table, the per-pass chart
// (labelled with its source), the device card (adapter, features, limits, pool), copy-as-markdown,
// at desktop width and at phone width without sideways scrolling. Screenshots go to the test's
// output folder; DEVPAGE_SCREENSHOTS=1 runs all-bench instead and writes docs/images/devpage-*.png
// (docs/dev-page.md shows them).
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('dev page: bench table, chart, device card and markdown at desktop and phone widths', async ({ page, context }) => {
  const docs = process.env.DEVPAGE_SCREENSHOTS === '1';
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 900 });
  const result = docs ? await autorun(page, 'all-bench') : await autorun(page, 'ntt-bench', { logn: '10', reps: '2' });
  expect(failures(result)).toEqual([]);

  const benchRows = page.locator('#bench tbody tr');
  await expect(benchRows).toHaveCount(docs ? 6 : 1);
  await expect(benchRows.first()).toContainText(docs ? 'ntt dft2^12 x 1full' : 'ntt dft2^10 x 1full');
  await expect(page.locator('#chart .bar').first()).toBeVisible();
  await expect(page.locator('#chart-source')).toHaveText(/^(timestamp-query|wall clock)( \+ wall clock)?$/);
  await expect(page.locator('#chart h4').first()).toContainText(/per pass, timestamp-query|per call, wall clock/);
  await expect(page.locator('#limits dd')).toHaveCount(8);
  await expect(page.locator('#adapter')).toContainText('granted binding');
  await expect(page.locator('#pool')).toContainText('peak in use');
  await expect(page.locator('#status')).toHaveText(`${result.mode}: ok`);

  const dir = docs ? 'docs/images' : test.info().outputDir;
  await page.screenshot({ path: `${dir}/devpage-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // Phone width: one column, wide tables scroll inside their card, the page itself does not.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The form, the bench table and the chart (the rows and the device card follow below them).
  const chart = (await page.locator('#chart-card').boundingBox())!;
  await page.screenshot({
    path: `${dir}/devpage-phone.png`,
    fullPage: true,
    clip: { x: 0, y: 0, width: 390, height: chart.y + chart.height + 12 },
  });

  await page.click('#copy');
  await expect(page.locator('#copy')).toHaveText('Copied');
  const md = await page.evaluate(() => navigator.clipboard.readText());
  expect(md.split('\n')[0]).toMatch(/^\| kernel \| size \| check \|/);
  expect(md).toMatch(docs ? /\| msm bn254 \| 2\^8 points \| full \|/ : /\| ntt dft \| 2\^10 x 1 \| full \|/);
});

test('an unknown mode fails cleanly and lists the modes, the bench modes among them', async ({ page }) => {
  const result = await autorun(page, 'no-such-mode');
  expect(result.status).toBe('error');
  expect(result.rows.find((r) => r.step === 'exception')?.detail).toMatch(
    /unknown autorun mode "no-such-mode"; modes: .*ntt-bench, poseidon2-bench, merkle-bench, grind-bench, commit-bench, msm-bench, all-bench/,
  );
  expect(result.rows.at(-1)).toMatchObject({ step: 'done', status: 'done', detail: 'error' });
  await expect(page.locator('#status')).toHaveText('no-such-mode: error');
});
