// WHIR end to end in headless Chromium on SwiftShader: the prover as a dApp makes it (in its Web
// Worker, GPU commit and grind) commits and opens a seeded table (dev page mode whir-check), and
// Plonky3's p3-whir 0.9.0-rc.2 (bench/whir-oracle) accepts the proof and makes the same proof,
// byte for byte, for the same table with serial grinding; the page's TS verifier agrees, the
// progress stages come in order, and an abort mid-open leaves the prover able to prove.
// Without cargo the oracle cannot be built and these tests fail (they never skip).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';
import { oraclePath } from '../support/whir-oracle.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { openStages } from '../../bench/support/whir-run.js';
import type { Row } from '../../bench/support/autorun-result.js';

/** (n, fold, rate, seed): seeds differ from the interop test's so the tables are new ones. */
const CASES: [number, number, number, number][] = [
  [10, 2, 1, 9201],
  [12, 4, 2, 9202],
  [12, 1, 1, 9204],
  [14, 3, 1, 9205],
];
const dir = mkdtempSync(join(tmpdir(), 'whir-e2e-'));
const row = (rows: Row[], step: string) => rows.find((r) => r.step === step)!;

test.describe('WHIR in the browser on the GPU path', () => {
  let bin = '';
  test.beforeAll(() => {
    bin = oraclePath();
  });
  const oracle = (...args: string[]) => spawnSync(bin, args, { encoding: 'utf8' });

  for (const [n, fold, rate, seed] of CASES) {
    test(`n=${n} fold=${fold} rate=${rate}: p3-whir accepts the proof and makes the same one`, async ({ page }) => {
      const result = await autorun(page, 'whir-check', { n: String(n), fold: String(fold), rate: String(rate), seed: String(seed) });
      expect(failures(result)).toEqual([]);
      expect(result.status).toBe('ok');
      expect(result.rows[0].detail).toMatch(/in a Web Worker/);
      const env = row(result.rows, 'envelope');
      const envelope = env.envelope as Record<string, unknown>;
      console.log(
        `whir n=${n} fold=${fold} rate=${rate}: commit ${(env.commitMs as number).toFixed(0)} ms, open ${(env.openMs as number).toFixed(0)} ms, proof ${env.jsonBytes} B JSON`,
      );

      const ours = join(dir, `ts${n}-${fold}-${rate}.json`);
      writeFileSync(ours, JSON.stringify(envelope));
      const v = oracle('verify', ours);
      expect(v.stdout, v.stderr).toMatch(/^VERIFY OK/);

      // The crate's own proof for the same table (serial grinding: the smallest witnesses, as ours).
      const evals = new SplitMix64(seed).fieldArray(2 ** n);
      const table = join(dir, `t${n}-${fold}-${rate}.bin`);
      writeFileSync(table, Buffer.from(evals.buffer, evals.byteOffset, evals.byteLength));
      const theirs = join(dir, `rs${n}-${fold}-${rate}.json`);
      const p = oracle(
        'prove',
        '--n',
        String(n),
        '--fold',
        String(fold),
        '--rate',
        String(rate),
        '--poly',
        table,
        '--out',
        theirs,
        '--threads',
        '1',
      );
      expect(p.status, p.stderr).toBe(0);
      const rust = JSON.parse(readFileSync(theirs, 'utf8'));
      expect(envelope.commitment).toEqual(rust.commitment);
      expect(envelope.proof).toEqual(rust.proof);

      expect(row(result.rows, 'ts verify').verdict).toEqual({ ok: true });
      const stages = row(result.rows, 'stages');
      expect(stages.stages).toEqual(stages.expected);
      expect((stages.stages as string[]).slice(1)).toEqual(
        openStages((stages.stages as string[]).filter((s) => s.endsWith(' commit')).length),
      );
      const caps = row(result.rows, 'capabilities').capabilities as Record<string, { path: string }>;
      expect(caps.commit.path).toBe('gpu');
      expect(caps.grind.path).toBe('gpu');
    });
  }

  test('n=10 fold=2 rate=1 at a given point, through the worker: p3-whir open_at makes the same proof and trace, verify_at accepts it', async ({
    page,
  }) => {
    const [n, fold, rate, seed] = CASES[0];
    const result = await autorun(page, 'whir-check', {
      n: String(n),
      fold: String(fold),
      rate: String(rate),
      seed: String(seed),
      point: '1',
    });
    expect(failures(result)).toEqual([]);
    expect(result.rows[0].detail).toMatch(/in a Web Worker/);
    expect((row(result.rows, 'capabilities').capabilities as Record<string, { path: string }>).commit.path).toBe('gpu');
    const at = row(result.rows, 'given point');
    const envelope = at.envelope as Record<string, unknown>;
    const ours = join(dir, 'ts-point.json');
    writeFileSync(ours, JSON.stringify(envelope));
    const v = oracle('verify', ours);
    expect(v.stdout, v.stderr).toMatch(/^VERIFY OK/);

    const evals = new SplitMix64(seed).fieldArray(2 ** n);
    const table = join(dir, 't-point.bin');
    writeFileSync(table, Buffer.from(evals.buffer, evals.byteOffset, evals.byteLength));
    const pointFile = join(dir, 'p-point.bin');
    const flat = Uint32Array.from((at.point as number[][]).flat());
    writeFileSync(pointFile, Buffer.from(flat.buffer));
    const theirs = join(dir, 'rs-point.json');
    const traceFile = join(dir, 'rs-point.jsonl');
    const p = oracle(
      'prove',
      '--n',
      String(n),
      '--fold',
      String(fold),
      '--rate',
      String(rate),
      '--poly',
      table,
      '--point',
      pointFile,
      '--out',
      theirs,
      '--trace',
      traceFile,
      '--threads',
      '1',
    );
    expect(p.status, p.stderr).toBe(0);
    const rust = JSON.parse(readFileSync(theirs, 'utf8'));
    expect(envelope.proof).toEqual(rust.proof);
    expect(at.trace).toBe(readFileSync(traceFile, 'utf8'));
  });

  test("in the page's thread (worker=0) too: p3-whir accepts the proof (n=10 fold=2 rate=1)", async ({ page }) => {
    const result = await autorun(page, 'whir-check', { n: '10', fold: '2', rate: '1', seed: '9206', worker: '0' });
    expect(failures(result)).toEqual([]);
    expect(result.rows[0].detail).toMatch(/in the page's thread/);
    const file = join(dir, 'in-thread.json');
    writeFileSync(file, JSON.stringify(row(result.rows, 'envelope').envelope));
    expect(oracle('verify', file).stdout).toMatch(/^VERIFY OK/);
    expect((row(result.rows, 'capabilities').capabilities as Record<string, { path: string }>).grind.path).toBe('gpu');
  });

  test('an open aborted mid-way rejects with ABORTED / AbortError; the same prover then proves (n=10 fold=2)', async ({ page }) => {
    const result = await autorun(page, 'whir-check', { n: '10', fold: '2', rate: '1', seed: '9203', abort: '1' });
    expect(failures(result)).toEqual([]);
    const abort = row(result.rows, 'abort mid-open');
    expect(abort.status).toBe('ok');
    expect(abort.at).toBe('round 0 grind');
    const file = join(dir, 'after-abort.json');
    writeFileSync(file, JSON.stringify(row(result.rows, 'envelope').envelope));
    expect(oracle('verify', file).stdout).toMatch(/^VERIFY OK/);
    expect(row(result.rows, 'ts verify').verdict).toEqual({ ok: true });
  });
});

test('whir-bench runs at n=10 and reports medians and the per-phase breakdown', async ({ page }) => {
  const result = await autorun(page, 'whir-bench', { n: '10', fold: '2', rate: '1', runs: '2' });
  expect(failures(result)).toEqual([]);
  const med = row(result.rows, 'median');
  expect(med.status).toBe('info'); // a measurement, not a check
  console.log(`whir-bench: ${med.detail}`);
  expect(med.commitMs as number).toBeGreaterThan(0);
  expect(med.openMs as number).toBeGreaterThan(0);
  expect(med.jsonBytes as number).toBeGreaterThan(med.valueBytes as number);
  expect(Object.keys(med.phases as object)).toEqual([
    'commit',
    ...openStages(Object.keys(med.phases as object).filter((s) => s.endsWith(' commit')).length),
  ]);
});
