// BN254 Fr on the GPU (SwiftShader), demo/modes/fr-check.ts: the WGSL field ops equal bigint on
// edge and random values; the Fr NTT (forward, inverse, on snarkjs's coset) equals src/ref/fr-ntt.ts
// at 2^1 .. 2^12 and on 2-, 3- and 4-pass plans; Groth16's polynomial stage (QapStage.h) equals
// src/ref/groth16-h.ts on random keys at 2^2 .. 2^10; bad input is rejected with stable codes.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('GPU Fr ops, Fr NTT and the QAP stage equal their bigint twins', async ({ page }) => {
  const result = await autorun(page, 'fr-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const rows = Object.fromEntries(result.rows.map((r) => [r.step, r]));
  // 8 x 8 edge pairs + 192 random pairs
  expect(rows['fr field ops'].status).toBe('ok');
  expect(rows['fr field ops'].n).toBe(256);
  // (12 sizes + 4 capped-tile plans) x ntt, intt, coset ntt, coset intt
  expect(rows['fr ntt'].status).toBe('ok');
  expect(rows['fr ntt'].n).toBe(64);
  // 5 random keys + the empty key, two witnesses each
  expect(rows['qap h'].status).toBe('ok');
  expect(rows['qap h'].n).toBe(12);
  expect(rows['qap bad input'].status).toBe('ok');
  expect(rows['qap bad input'].n).toBe(9);
});
