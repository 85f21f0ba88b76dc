// The native Groth16 tools (bench/native: native-anchor groth16-setup / groth16-prove), end to
// end: each committed fixture circuit and one random circuit is compiled with circom2, given a
// key by `groth16-setup` (seeded toxic waste, benchmarks only), proved by the repository's CPU
// prover and by `groth16-prove` (arkworks), and the CPU proof must pass snarkjs.groth16.verify
// with snarkjs's own export of the native key's verification key. `groth16-prove` must also
// accept snarkjs's committed fixture keys (its QAP reduction is snarkjs's) and report
// verified: false for a witness that does not satisfy the circuit. `groth16-synth`'s random
// R1CS and witness, with a native key, are proved by snarkjs's own prover and verified by snarkjs. Building native-anchor is
// part of the test (build.sh; minutes cold, a no-op when up to date); ~1 min warm on 2 cores.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snarkjs from 'snarkjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { proofToJson, publicSignals } from '../../src/groth16/proof-json.js';
import { readWtns } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { CIRCUITS, FIXTURES, compileCircuit, computeWitness, releaseSnarkjs, type CircuitInput } from '../support/groth16-circom.js';
import { FIXTURE_CIRCUITS, loadFixture } from '../support/groth16-fixtures.js';
import { nativeAnchorPath, nativeProve, nativeSetup, runNative } from '../support/groth16-native.js';
import { randomCircuit } from '../support/groth16-random-circuit.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'groth16-native-'));
  nativeAnchorPath();
}, 900_000);
afterAll(async () => {
  await releaseSnarkjs();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Compile, native setup, CPU proof checked by snarkjs, native proof checked by arkworks. */
async function roundTrip(name: string, source: string, input: CircuitInput, seed: number): Promise<void> {
  const work = join(dir, name);
  const compiled = await compileCircuit(source, work);
  const zkeyPath = join(work, `${name}.native.zkey`);
  const setup = nativeSetup(compiled.r1cs, zkeyPath, seed);
  const zkey = readZkey(new Uint8Array(await readFile(zkeyPath)));
  expect(zkey.domainSize).toBe(setup.domain_size);
  const { wtns } = await computeWitness(compiled.wasm, input);
  const wtnsPath = join(work, `${name}.wtns`);
  await writeFile(wtnsPath, wtns);
  const witness = readWtns(wtns);
  const { proof } = cpuProve(zkey, witness);
  const vk = await snarkjs.zKey.exportVerificationKey(zkeyPath);
  const signals = publicSignals(witness, zkey.nPublic);
  expect(await snarkjs.groth16.verify(vk, signals, proofToJson(proof))).toBe(true);
  const native = nativeProve(zkeyPath, wtnsPath, 1);
  expect(native.verified).toBe(true);
  expect(native.ms).toHaveLength(1);
}

describe('native-anchor groth16-setup: keys snarkjs verifies proofs of', () => {
  for (const circuit of FIXTURE_CIRCUITS) {
    it(circuit.name, { timeout: 120_000 }, async () => {
      const { input } = loadFixture(circuit.name);
      await roundTrip(circuit.name, join(CIRCUITS, `${circuit.name}.circom`), input, 7);
    });
  }

  const seed = process.env.GROTH16_SEEDS ? Number(process.env.GROTH16_SEEDS.split(',')[0]) : Math.floor(Math.random() * 2 ** 31);
  it(`random circuit, seed ${seed}`, { timeout: 120_000 }, async () => {
    const circuit = randomCircuit(seed);
    const source = join(dir, `random-${seed}.circom`);
    await writeFile(source, circuit.source);
    try {
      await roundTrip(`random-${seed}`, source, circuit.input, seed);
    } catch (e) {
      console.log(`seed ${seed} failed; its circuit:\n${circuit.source}\ninput: ${JSON.stringify(circuit.input)}`);
      throw e;
    }
  });
});

describe('native-anchor groth16-synth', () => {
  it('writes an R1CS and witness that snarkjs proves with the native key', { timeout: 60_000 }, async () => {
    const r1cs = join(dir, 'synth.r1cs');
    const wtns = join(dir, 'synth.wtns');
    const zkey = join(dir, 'synth.zkey');
    runNative('groth16-synth', '--constraints', '1500', '--out-r1cs', r1cs, '--out-wtns', wtns, '--seed', '5');
    expect(nativeSetup(r1cs, zkey, 5).domain_size).toBe(2048);
    const { proof, publicSignals: signals } = await snarkjs.groth16.prove(zkey, wtns);
    const vk = await snarkjs.zKey.exportVerificationKey(zkey);
    expect(await snarkjs.groth16.verify(vk, signals, proof)).toBe(true);
    expect(nativeProve(zkey, wtns, 1).verified).toBe(true);
  });
});

describe('native-anchor groth16-prove', () => {
  for (const circuit of FIXTURE_CIRCUITS) {
    it(`proves snarkjs's ${circuit.name} key (verified by arkworks)`, { timeout: 60_000 }, () => {
      const out = nativeProve(join(FIXTURES, `${circuit.name}.zkey`), join(FIXTURES, `${circuit.name}.wtns`), 2);
      expect(out.verified).toBe(true);
      expect(out.ms).toHaveLength(2);
    });
  }

  it('reports verified: false for a witness that does not satisfy the circuit', { timeout: 60_000 }, async () => {
    const { wtns } = loadFixture('multiplier-chain');
    const bad = new Uint8Array(wtns);
    const values = readWtns(wtns);
    // Value 1 (the output a·Πb): add 1 to its low byte (stays < r: the value is far below it).
    const at = bad.length - 32 * values.count + 32;
    bad[at] ^= 1;
    const path = join(dir, 'bad.wtns');
    await writeFile(path, bad);
    const out = nativeProve(join(FIXTURES, 'multiplier-chain.zkey'), path, 1);
    expect(out.verified).toBe(false);
  });
});
