// End to end on circuits this repository never saw: a random circom circuit (Poseidon, Num2Bits,
// multiplications, random public/private input counts) is written to a temp dir, compiled with
// circom2, set up with snarkjs over the committed 2^11 powers of tau, proved with the CPU prover
// and verified by snarkjs and by verify.ts. Two fresh seeds a run; the log names them, and
// GROTH16_SEEDS=1,2 replays chosen ones. ~10-20 s a seed on a 2-core machine (compile ~3-9 s,
// setup ~2-4 s, prove ~0.5-3 s).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snarkjs from 'snarkjs';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { proofToJson, publicSignals } from '../../src/groth16/proof-json.js';
import { verifyGroth16 } from '../../src/groth16/verify.js';
import { readWtns, witnessFromBigints } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { PTAU, compileCircuit, computeWitness, releaseSnarkjs, setupZkey } from '../support/groth16-circom.js';
import { randomCircuit } from '../support/groth16-random-circuit.js';

afterAll(releaseSnarkjs);

const seeds = process.env.GROTH16_SEEDS
  ? process.env.GROTH16_SEEDS.split(',').map(Number)
  : Array.from({ length: 2 }, () => Math.floor(Math.random() * 2 ** 31));

describe('random circuits: CPU proofs snarkjs accepts', () => {
  for (const seed of seeds) {
    it(`seed ${seed}`, { timeout: 120_000 }, async () => {
      const circuit = randomCircuit(seed);
      const dir = await mkdtemp(join(tmpdir(), `groth16-random-${seed}-`));
      try {
        const times: string[] = [];
        let t = performance.now();
        const lap = (label: string) => {
          const now = performance.now();
          times.push(`${label} ${((now - t) / 1000).toFixed(1)} s`);
          t = now;
        };
        const source = join(dir, 'random.circom');
        await writeFile(source, circuit.source);
        const compiled = await compileCircuit(source, dir);
        lap('compile');
        const zkeyPath = join(dir, 'random.zkey');
        await setupZkey(compiled.r1cs, PTAU, zkeyPath, '00'.repeat(31) + (seed % 256).toString(16).padStart(2, '0'));
        lap('setup');
        const { values, wtns } = await computeWitness(compiled.wasm, circuit.input);
        const zkey = readZkey(new Uint8Array(await readFile(zkeyPath)));
        const witness = readWtns(wtns);
        expect(witness.words).toEqual(witnessFromBigints(values).words);
        lap('witness');
        const { proof } = cpuProve(zkey, witness);
        lap('prove');
        const signals = publicSignals(witness, zkey.nPublic);
        expect(zkey.nPublic).toBe(circuit.nOutputs + circuit.nPublicInputs);
        const vk = await snarkjs.zKey.exportVerificationKey(zkeyPath);
        expect(await snarkjs.groth16.verify(vk, signals, proofToJson(proof))).toBe(true);
        expect(verifyGroth16(zkey, signals.map(BigInt), proof)).toBe(true);
        lap('verify');
        console.log(
          `seed ${seed}: ${circuit.nPublicInputs} public + ${circuit.nPrivateInputs} private inputs, ${circuit.nOutputs} outputs; ` +
            `${circuit.ops}; nVars ${zkey.nVars}, domain 2^${zkey.logN}; ${times.join(', ')}`,
        );
      } catch (e) {
        console.log(`seed ${seed} failed; its circuit:\n${circuit.source}\ninput: ${JSON.stringify(circuit.input)}`);
        throw e;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
