/**
 * Makes the Groth16 fixtures under test/groth16/fixtures/ (README.md there lists what and how):
 *   node --import tsx test/groth16/make-fixtures.ts          circuits' keys and witnesses
 *   node --import tsx test/groth16/make-fixtures.ts --ptau   the powers of tau first (~45 s)
 * Every step is deterministic (beacon contributions with fixed hashes), so running it again with
 * the same snarkjs and circom2 versions writes the same bytes.
 * @module
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as prettier from 'prettier';
import {
  CIRCUITS,
  FIXTURES,
  PTAU,
  REPO_ROOT,
  compileCircuit,
  computeWitness,
  releaseSnarkjs,
  setupZkey,
  type CircuitInput,
} from '../support/groth16-circom.js';
import { FIXTURE_CIRCUITS } from '../support/groth16-fixtures.js';

const run = promisify(execFile);
const SNARKJS = join(REPO_ROOT, 'node_modules/snarkjs/cli.js');
/** Beacon hashes: arbitrary fixed bytes, so the ceremony is reproducible (and worthless as a secret). */
const PTAU_BEACON = '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const ZKEY_BEACON = '2021222324252627282930313233343536373839404142434445464748494a4b';

async function timed<T>(label: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await f();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

async function snarkjsCli(...args: string[]): Promise<void> {
  await run(process.execPath, [SNARKJS, ...args], { cwd: REPO_ROOT, maxBuffer: 1 << 24 });
}

/** powersoftau new bn128 11 -> beacon -> prepare phase2 (the commands README.md lists). */
async function makePtau(work: string): Promise<void> {
  const p0 = join(work, 'pot11_0000.ptau');
  const p1 = join(work, 'pot11_beacon.ptau');
  await timed('ptau new 2^11', () => snarkjsCli('powersoftau', 'new', 'bn128', '11', p0));
  await timed('ptau beacon', () => snarkjsCli('powersoftau', 'beacon', p0, p1, PTAU_BEACON, '10', '-n=webgpu-prover fixture beacon'));
  await timed('ptau prepare phase2', () => snarkjsCli('powersoftau', 'prepare', 'phase2', p1, PTAU));
}

/** merkle-inclusion's public root: the helper circuit computes it from the same secret and path. */
async function merkleRoot(work: string, input: CircuitInput): Promise<string> {
  const helper = await compileCircuit(join(CIRCUITS, 'merkle-root-helper.circom'), work);
  const { secret, pathElements, pathIndices } = input;
  const { values } = await computeWitness(helper.wasm, { secret, pathElements, pathIndices });
  return values[1].toString(); // the helper's only public signal: its output, the root
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'groth16-fixtures-'));
  try {
    if (process.argv.includes('--ptau')) await makePtau(work);
    for (const circuit of FIXTURE_CIRCUITS) {
      const input: CircuitInput = { ...circuit.input };
      if (circuit.name === 'merkle-inclusion') input.root = await merkleRoot(work, input);
      const compiled = await timed(`${circuit.name}: compile`, () => compileCircuit(join(CIRCUITS, `${circuit.name}.circom`), work));
      console.log(
        compiled.log
          .split('\n')
          .filter((l) => /constraints|wires|inputs|outputs/.test(l))
          .join('; '),
      );
      const zkey = join(FIXTURES, `${circuit.name}.zkey`);
      await timed(`${circuit.name}: setup + beacon`, () => setupZkey(compiled.r1cs, PTAU, join(work, `${circuit.name}.zkey`), ZKEY_BEACON));
      await copyFile(join(work, `${circuit.name}.zkey`), zkey);
      const { wtns } = await computeWitness(compiled.wasm, input);
      await writeFile(join(FIXTURES, `${circuit.name}.wtns`), wtns);
      const inputPath = join(FIXTURES, `${circuit.name}.input.json`);
      // Formatted as the repository's prettier config wants it (npm test runs prettier --check).
      const options = { ...(await prettier.resolveConfig(inputPath)), filepath: inputPath };
      await writeFile(inputPath, await prettier.format(JSON.stringify(input), options));
      console.log(`${circuit.name}: zkey ${(await stat(zkey)).size} B, wtns ${wtns.length} B`);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
    await releaseSnarkjs();
  }
}

await main();
