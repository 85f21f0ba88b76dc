/**
 * Run by test/unit/check-thread.test.ts as an esbuild bundle beside a bundled check-worker.js
 * (as the package's dist holds them): a checked WHIR open on the CPU path and the Groth16 parts,
 * through the Node check thread; prints what ran where and whether the answers agree with this
 * thread's own.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { createProver } from '../../src/index.js';
import { checkTask } from '../../src/checks/check-thread.js';
import { checkThreadStats } from '../../src/checks/check-thread-state.js';
import { runCheckTask, type CheckTask } from '../../src/checks/check-tasks.js';
import { g1Wire, g2Wire, verifyingKeyWire } from '../../src/groth16/check-parts.js';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { publicSignals } from '../../src/groth16/proof-json.js';
import { readWtns } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { readFileSync } from 'node:fs';

const [zkeyPath, wtnsPath] = process.argv.slice(2);
const prover = await createProver({ fallback: 'cpu', worker: false });
const whir = prover.whir({ numVariables: 12, foldingFactor: 2, startingLogInvRate: 1 });
const committed = await whir.commit(new SplitMix64(4242).fieldArray(2 ** 12));
const opening = await whir.open(committed.handle);
const whirOk = (await whir.verify(committed.root, opening)).ok;
const whirTasks = checkThreadStats.onThread;

const zkey = readZkey(readFileSync(zkeyPath));
const witness = readWtns(readFileSync(wtnsPath));
const { proof } = cpuProve(zkey, witness);
const publics = publicSignals(witness, zkey.nPublic).map(BigInt);
const tasks: CheckTask[] = [
  { kind: 'groth16-public', vk: verifyingKeyWire(zkey), publics },
  { kind: 'groth16-proof', a: g1Wire(proof.a), b: g2Wire(proof.b) },
  { kind: 'groth16-proof', a: g1Wire(proof.a.double()), b: g2Wire(proof.b) },
];
const { Fp12 } = bn254.fields;
const same = await Promise.all(
  tasks.map(async (t) => {
    const there = await checkTask(t);
    const here = await runCheckTask(t);
    return 'loop' in there && 'loop' in here && there.loop !== null && here.loop !== null && Fp12.eql(there.loop, here.loop);
  }),
);
prover.destroy();
console.log(JSON.stringify({ whirOk, whirTasks, same, stats: checkThreadStats }));
