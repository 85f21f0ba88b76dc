// A check task that fails (a thread that broke mid-task and a prover-thread retry that threw too)
// must not fail a proof: the WHIR verifier and the Groth16 check then make that part themselves.
// The thread's checkTask is replaced by one that always rejects.
import { describe, expect, it, vi } from 'vitest';
import { createProver } from '../../src/index.js';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { EarlyCheck } from '../../src/groth16/early-check.js';
import { publicSignals } from '../../src/groth16/proof-json.js';
import { verifyGroth16 } from '../../src/groth16/verify.js';
import { readWtns } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { loadFixture } from '../support/groth16-fixtures.js';

vi.mock('../../src/checks/check-thread.js', () => ({
  checkTask: () => Promise.reject(new Error('the check thread broke')),
}));

describe('check tasks that fail', () => {
  it('a checked WHIR open is verified all the same, and returned', async () => {
    const prover = await createProver({ fallback: 'cpu', worker: false });
    try {
      const whir = prover.whir({ numVariables: 12, foldingFactor: 2, startingLogInvRate: 1 });
      const committed = await whir.commit(new SplitMix64(9090).fieldArray(2 ** 12));
      const opening = await whir.open(committed.handle, { check: 'sample' });
      expect(await whir.verify(committed.root, opening)).toEqual({ ok: true });
      expect(prover.stats().checks.failed).toBe(0);
    } finally {
      prover.destroy();
    }
  });

  it('a Groth16 check with no early parts makes them itself', async () => {
    const f = loadFixture('range-check');
    const zkey = readZkey(f.zkey);
    const witness = readWtns(f.wtns);
    const signals = publicSignals(witness, zkey.nPublic).map(BigInt);
    const { proof } = cpuProve(zkey, witness);
    const early = new EarlyCheck(zkey, signals);
    early.proofPoints(proof.a, proof.b);
    const parts = await early.parts();
    expect(parts).toEqual({ pub: undefined, proof: undefined });
    expect(verifyGroth16(zkey, signals, proof, parts)).toBe(true);
    expect(verifyGroth16(zkey, signals, { ...proof, c: proof.c.double() }, parts)).toBe(false);
  });
});
