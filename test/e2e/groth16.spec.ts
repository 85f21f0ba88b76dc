// Groth16 in headless Chromium on SwiftShader, the prover in its Web Worker as a dApp makes it:
// the committed fixture circuits (circomlib Poseidon, Num2Bits, a Merkle inclusion, a multiplier
// chain) and two random circuits written, compiled (circom2) and set up (snarkjs) by this test
// (seeds printed; GROTH16_SEEDS=1,2 replays), proved from their .wtns, from bigints and through
// groth16FullProve (the random ones, with their wasm), every proof verified by snarkjs 0.7.6 here
// as well as in the page; then the refusals (a witness breaking a constraint: UNSATISFIED; bad files).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snarkjs from 'snarkjs';
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';
import { PTAU, compileCircuit, computeWitness, releaseSnarkjs, setupZkey } from '../support/groth16-circom.js';
import { randomCircuit } from '../support/groth16-random-circuit.js';
import type { Row } from '../../bench/support/autorun-result.js';

test.afterAll(releaseSnarkjs);

/** Every proof row of a run, verified by snarkjs with the key the page reported. */
async function snarkjsVerdicts(rows: Row[]): Promise<string[]> {
  const bad: string[] = [];
  for (const r of rows.filter((r) => 'proof' in r)) {
    const { vk, publicSignals, proof } = r as unknown as { vk: unknown; publicSignals: string[]; proof: unknown };
    if (!(await snarkjs.groth16.verify(vk, publicSignals, proof))) bad.push(r.step);
  }
  return bad;
}

test('committed circom circuits: proofs snarkjs verifies, refusals with their codes', async ({ page }) => {
  const result = await autorun(page, 'groth16-check');
  expect(failures(result)).toEqual([]);
  const proofs = result.rows.filter((r) => 'proof' in r);
  expect(proofs.map((r) => r.step)).toEqual(
    ['multiplier-chain', 'poseidon-hash', 'range-check', 'merkle-inclusion'].flatMap((n) => [
      `${n}: prove from .wtns`,
      `${n}: prove from bigint[]`,
    ]),
  );
  expect(await snarkjsVerdicts(result.rows)).toEqual([]);
  const steps = result.rows.map((r) => r.step);
  for (const s of [
    'groth16 witness breaking a constraint: UNSATISFIED',
    'groth16 truncated zkey: INVALID_LENGTH',
    'groth16 key usable after errors',
    'groth16 ran on the gpu path',
  ]) {
    expect(steps).toContain(s);
  }
});

test('random circuits this repository never saw, through groth16FullProve too', async ({ page }) => {
  test.setTimeout(8 * 60_000);
  const seeds = process.env.GROTH16_SEEDS
    ? process.env.GROTH16_SEEDS.split(',').map(Number)
    : Array.from({ length: 2 }, () => Math.floor(Math.random() * 2 ** 31));
  console.log(`groth16 e2e random circuit seeds: ${seeds.join(',')}`);
  const dir = await mkdtemp(join(tmpdir(), 'groth16-e2e-'));
  const files = new Map<string, Buffer>();
  try {
    for (const seed of seeds) {
      const c = randomCircuit(seed);
      const source = join(dir, `r${seed}.circom`);
      await writeFile(source, c.source);
      const compiled = await compileCircuit(source, dir);
      const zkey = join(dir, `r${seed}.zkey`);
      await setupZkey(compiled.r1cs, PTAU, zkey, 'e2e0'.repeat(16));
      const { wtns } = await computeWitness(compiled.wasm, c.input);
      files.set(`r${seed}.zkey`, await readFile(zkey));
      files.set(`r${seed}.wtns`, Buffer.from(wtns));
      files.set(`r${seed}.wasm`, await readFile(compiled.wasm));
      files.set(`r${seed}.input.json`, Buffer.from(JSON.stringify(c.input)));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await page.route('**/fixtures/groth16-random/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    const body = files.get(name);
    return body ? route.fulfill({ body, contentType: 'application/octet-stream' }) : route.fulfill({ status: 404 });
  });
  const cases = seeds.map((s) => `r${s}`).join(',');
  const result = await autorun(page, 'groth16-check', { base: '/fixtures/groth16-random/', cases, wasm: cases });
  expect(failures(result)).toEqual([]);
  const proofs = result.rows.filter((r) => 'proof' in r).map((r) => r.step);
  expect(proofs).toEqual(seeds.flatMap((s) => [`r${s}: prove from .wtns`, `r${s}: prove from bigint[]`, `r${s}: groth16FullProve`]));
  expect(await snarkjsVerdicts(result.rows)).toEqual([]);
});
