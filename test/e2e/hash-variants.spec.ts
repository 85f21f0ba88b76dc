// Both Poseidon2 kernel variants stay exact (src/kernels/p2-variant.ts): hash.spec.ts covers the
// default ('straight': generated straight-line permutation, coalesced Merkle leaves) on every
// vector; this spec runs the same Plonky3 checks on the alternative ('loop', the first kernels,
// kept selectable for the bench) and asserts which kernels ran. Merkle here stops at 2^8 rows to
// keep SwiftShader time down (~15 s for both tests); hash.spec.ts goes to 2^12.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

const checked = (rows: Array<{ step: string; status: string }>, prefix: string) => rows.filter((r) => r.step.startsWith(prefix) && r.status === 'ok');
const variantOf = (rows: Array<{ step: string; detail?: unknown }>) => rows.find((r) => r.step === 'p2 variant')?.detail;

test('loop variant: Poseidon2 w16/w24 (both constant sets) equals Plonky3 and src/ref', async ({ page }) => {
  const result = await autorun(page, 'poseidon2-check', { p2: 'loop' });
  expect(variantOf(result.rows)).toBe('loop');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  expect(checked(result.rows, 'poseidon2 ').length).toBe(6);
});

test('loop variant: Merkle roots, openings and sponge digests equal Plonky3 up to 2^8 rows', async ({ page }) => {
  const result = await autorun(page, 'merkle-check', { p2: 'loop', maxLogH: '8' });
  expect(variantOf(result.rows)).toBe('loop');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  expect(checked(result.rows, 'sponge width ').length).toBe(7);
  expect(checked(result.rows, 'merkle ').length).toBeGreaterThanOrEqual(4 * 9); // 2^0..2^8 x {1,8,16,64}
});
