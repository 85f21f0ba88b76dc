// Poseidon2, Merkle commitments and proof-of-work grinding on the GPU (SwiftShader) equal
// Plonky3 0.9.0-rc.2's outputs (test/vectors/poseidon2, sponge, merkle, challenger .json) and
// src/ref; bad input gets ProverError codes and the prover stays usable.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

const checked = (rows: Array<{ step: string; status: string }>, prefix: string) =>
  rows.filter((r) => r.step.startsWith(prefix) && r.status === 'ok');

test('Poseidon2 width 16/24, default and seeded-RNG constants, equals Plonky3 and src/ref', async ({ page }) => {
  const result = await autorun(page, 'poseidon2-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  // 2 constant sets x 2 widths of vectors, random batches at both widths, 6 bad inputs
  expect(checked(result.rows, 'poseidon2 ').length).toBe(6);
  expect(checked(result.rows, 'error: ').length).toBe(6);
});

test('KoalaBear Poseidon2 width 16/24 (kernels generated from its record) equals p3-koala-bear and src/ref', async ({ page }) => {
  const result = await autorun(page, 'poseidon2-koalabear-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  // crate vectors and random batches at both widths, 4 bad inputs (field name, range, constants)
  expect(checked(result.rows, 'poseidon2 koalabear ').length).toBe(4);
  expect(checked(result.rows, 'error: ').length).toBe(4);
});

test('Merkle roots, openings and sponge digests equal Plonky3 MerkleTreeMmcs up to 2^12 rows', async ({ page }) => {
  const result = await autorun(page, 'merkle-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  expect(checked(result.rows, 'sponge width ').length).toBe(7); // widths 1, 7, 8, 9, 16, 17, 100
  expect(checked(result.rows, 'merkle ').length).toBeGreaterThanOrEqual(4 * 13 + 2); // 2^0..2^12 x {1,8,16,64} + merkle-a/b
  expect(checked(result.rows, 'error: ').length).toBe(8);
  // Uploads that stream (bench/support/staging-check.ts): leaves hashed and ranges checked per chunk.
  expect(checked(result.rows, 'merkleCommit ').length).toBe(1);
  expect(checked(result.rows, 'merkleCommit: a value >= p').length).toBe(1);
  expect(checked(result.rows, 'commit: a value >= p').length).toBe(1);
});

test('GPU grinding finds Plonky3 DuplexChallenger witnesses (bits 1..12) and the transcript continues in step', async ({ page }) => {
  const result = await autorun(page, 'grind-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const rows = checked(result.rows, 'grind prefix ');
  expect(rows.length).toBe(7);
  expect(rows.reduce((a, r) => a + ((r as { n?: number }).n ?? 0), 0)).toBeGreaterThanOrEqual(84);
  expect(checked(result.rows, 'error: ').length).toBe(4);
});

test('encode-and-commit in one submission equals Plonky3 encode_batch + MerkleTreeMmcs (24 cases)', async ({ page }) => {
  const result = await autorun(page, 'commit-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  expect(checked(result.rows, 'commit 2^').length).toBe(24);
  // the same codewords as GPU-resident NttMatrix handles committed in place (h <= 64: 18 cases), opened after destroy()
  const inPlace = checked(result.rows, 'commit NttMatrix in place');
  expect(inPlace.length).toBe(1);
  expect((inPlace[0] as { n?: number }).n).toBe(18);
  expect(checked(result.rows, 'error: ').length).toBe(4);
});
