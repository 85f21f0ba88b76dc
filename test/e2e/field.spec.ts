// BabyBear and ext4 field ops on the GPU (SwiftShader) equal src/field and BigInt on 2^16 random
// inputs plus all pairs of edge values, and KoalaBear's on 2^12; bad input gets ProverError codes; rows reach /progress.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';
import { FIELD_CHECK_OPS } from '../../bench/support/field-check.js';

test('every GPU field op equals the reference and BigInt on 2^16 inputs + edge pairs', async ({ page }) => {
  const result = await autorun(page, 'field-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const checked = result.rows.filter((r) => r.step.startsWith('field '));
  expect(checked.map((r) => r.step)).toEqual(FIELD_CHECK_OPS.map((op) => `field ${op}`));
  for (const r of checked) expect(r.n as number).toBeGreaterThanOrEqual(1 << 16);
});

test('KoalaBear: the same GPU field ops built with its constants equal src/field and BigInt (2^12 inputs + edge pairs)', async ({
  page,
}) => {
  const result = await autorun(page, 'field-check', { field: 'koalabear', n: '4096' });
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const checked = result.rows.filter((r) => r.step.startsWith('field koalabear '));
  expect(checked.map((r) => r.step)).toEqual(FIELD_CHECK_OPS.map((op) => `field koalabear ${op}`));
  for (const r of checked) expect(r.n as number).toBeGreaterThanOrEqual(4096);
});

test('bad input gets ProverError codes and the prover stays usable (fast-check over every public method)', async ({ page }) => {
  // A random seed each run (the row names it: replay with npm start -- --mode errors-check --seed N).
  const result = await autorun(page, 'errors-check', { runs: '400' });
  expect(failures(result)).toEqual([]);
  const ok = result.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  expect(ok.length).toBeGreaterThanOrEqual(6 + 2 + 5);
  expect(ok).toContain('bad input property: the table code, no hang, prover right after');
  expect(ok).toContain('bad input property covers every public method');
  const property = result.rows.find((r) => r.step.startsWith('bad input property: '))!;
  expect(property.detail).toMatch(/^400 generated bad calls after 2 of each of \d+ kinds/);
});

test('autorun posts its rows to /progress', async ({ page, request }) => {
  const result = await autorun(page, 'field-check', { n: '256' });
  const res = await request.get(`/progress?runId=${encodeURIComponent(result.runId)}`);
  const rows = (await res.json()) as Array<Record<string, unknown>>;
  expect(rows.length).toBe(result.rows.length);
  for (const row of rows) {
    expect(row).toMatchObject({ runId: result.runId, mode: 'field-check' });
    expect(typeof row.step).toBe('string');
    expect(typeof row.status).toBe('string');
    expect(typeof row.ms).toBe('number');
  }
  expect(rows.at(-1)).toMatchObject({ step: 'done', status: 'done' });
});
