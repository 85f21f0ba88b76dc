/**
 * The circom + snarkjs tool chain the Groth16 tests and test/groth16/make-fixtures.ts share:
 * compile a circuit with circom2 (circom 2.2 compiled to WASI, npm `circom2`), set it up with
 * snarkjs over a powers of tau, compute witnesses with circom's own witness wasm through
 * circom_runtime (what `snarkjs wtns calculate` runs).
 *
 * circom2 is a WASI program: it sees only the directories its CLI pre-opens, which are the
 * working directory and its parents (relative paths), so it runs from the repository root and
 * finds circomlib through `-l node_modules` (`include "circomlib/circuits/poseidon.circom"`).
 * @module
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { WitnessCalculatorBuilder } from 'circom_runtime';
import * as snarkjs from 'snarkjs';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FIXTURES = join(REPO_ROOT, 'test/groth16/fixtures');
export const CIRCUITS = join(REPO_ROOT, 'test/groth16/circuits');
/** The committed powers of tau (2^11, made by make-fixtures.ts; fixtures/README.md says how). */
export const PTAU = join(FIXTURES, 'pot11.ptau');

const run = promisify(execFile);

export interface CompiledCircuit {
  readonly r1cs: string;
  readonly wasm: string;
  /** circom's summary lines (constraints, wires, inputs, outputs). */
  readonly log: string;
}

/**
 * Compiles `source` (a .circom file) into `outDir`: `<name>.r1cs` and `<name>_js/<name>.wasm`.
 * --O2 drops the linear constraints (smaller keys; the witness then holds only the kept wires).
 */
export async function compileCircuit(source: string, outDir: string): Promise<CompiledCircuit> {
  await mkdir(outDir, { recursive: true });
  const name = basename(source, '.circom');
  const cli = join(REPO_ROOT, 'node_modules/circom2/cli.js');
  const args = [cli, source, '--r1cs', '--wasm', '--O2', '-l', 'node_modules', '-o', outDir];
  const { stdout, stderr } = await run(process.execPath, args, { cwd: REPO_ROOT, maxBuffer: 1 << 24 });
  // circom2 exits 0 on some errors (its WASI exit is not always propagated): check the outputs.
  const log = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  if (!/Everything went okay/.test(log)) throw new Error(`circom2 failed on ${source}:\n${log}`);
  return { r1cs: join(outDir, `${name}.r1cs`), wasm: join(outDir, `${name}_js`, `${name}.wasm`), log };
}

/**
 * `snarkjs groth16 setup` then one deterministic contribution (`zkey beacon`), so δ is not the
 * generator (a key fresh from setup has δ1 = G1, δ2 = G2, which would hide a δ mix-up).
 */
export async function setupZkey(r1cs: string, ptau: string, zkeyOut: string, beaconHash: string): Promise<void> {
  const initial = `${zkeyOut}.0000`;
  await snarkjs.zKey.newZKey(r1cs, ptau, initial);
  await snarkjs.zKey.beacon(initial, zkeyOut, 'webgpu-prover test beacon', beaconHash, 10);
}

/** Circuit inputs by signal name: numbers, decimal strings or bigints, arrays for array signals. */
export type CircuitInput = Record<string, unknown>;

/** The witness as values (circom_runtime's calculateWitness, constraints checked) and as a .wtns file. */
export async function computeWitness(wasm: string, input: CircuitInput): Promise<{ values: bigint[]; wtns: Uint8Array }> {
  const calculator = await WitnessCalculatorBuilder(await readFile(wasm));
  const values = await calculator.calculateWitness(input, true);
  const wtns = await calculator.calculateWTNSBin(input, true);
  return { values, wtns };
}

/** snarkjs's worker threads (ffjavascript's bn128 singleton) keep Node alive until terminated. */
export async function releaseSnarkjs(): Promise<void> {
  const curve = (globalThis as { curve_bn128?: { terminate(): Promise<void> } | null }).curve_bn128;
  if (curve) await curve.terminate();
}
