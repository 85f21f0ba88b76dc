// The CPU Groth16 prover on the committed fixture circuits: its proofs verified by the real
// snarkjs (groth16.verify with snarkjs's own exported key) and by verify.ts; snarkjs's own proofs
// verified by verify.ts; tampered proofs, wrong public signals and witnesses that break a
// constraint refused by both.
import { bn254 } from '@noble/curves/bn254.js';
import * as snarkjs from 'snarkjs';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleProof, randomFr } from '../../src/groth16/assemble.js';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { proofFromJson, proofToJson, publicSignals, publicSignalsFromJson, type Groth16Proof } from '../../src/groth16/proof-json.js';
import { verifyGroth16 } from '../../src/groth16/verify.js';
import { readWtns, witnessFromBigints, witnessToBigints } from '../../src/groth16/wtns.js';
import { readZkey, type Groth16Zkey } from '../../src/groth16/zkey.js';
import { FR_R } from '../../src/params/bn254-fr.js';
import { releaseSnarkjs } from '../support/groth16-circom.js';
import { FIXTURE_CIRCUITS, loadFixture } from '../support/groth16-fixtures.js';

afterAll(releaseSnarkjs);

const G1 = bn254.G1.Point.BASE;
const publicsOf = (signals: string[]) => signals.map(BigInt);

describe('CPU prover: proofs the real snarkjs accepts', () => {
  for (const { name, about } of FIXTURE_CIRCUITS) {
    it(`${name} (${about})`, async () => {
      const f = loadFixture(name);
      const zkey = readZkey(f.zkey);
      const witness = readWtns(f.wtns);
      const vk = await snarkjs.zKey.exportVerificationKey(f.zkeyPath);

      const t0 = performance.now();
      const { proof } = cpuProve(zkey, witness);
      const proveMs = performance.now() - t0;
      const json = proofToJson(proof);
      const signals = publicSignals(witness, zkey.nPublic);
      expect(await snarkjs.groth16.verify(vk, signals, json)).toBe(true);

      const t1 = performance.now();
      expect(verifyGroth16(zkey, publicsOf(signals), proof)).toBe(true);
      const verifyMs = performance.now() - t1;
      console.log(
        `${name}: nVars ${zkey.nVars}, nPublic ${zkey.nPublic}, domain 2^${zkey.logN}: CPU prove ${proveMs.toFixed(0)} ms, verify ${verifyMs.toFixed(0)} ms`,
      );

      // snarkjs's own proof of the same witness: same public signals, and verify.ts accepts it.
      const theirs = await snarkjs.groth16.prove(f.zkeyPath, { type: 'mem', data: f.wtns });
      expect(signals).toEqual(theirs.publicSignals);
      const parsed = proofFromJson(theirs.proof) as Groth16Proof;
      expect(verifyGroth16(zkey, publicsOf(theirs.publicSignals), parsed)).toBe(true);
      // And our JSON reads back to the same points.
      const back = proofFromJson(json) as Groth16Proof;
      expect(back.a.equals(proof.a) && back.b.equals(proof.b) && back.c.equals(proof.c)).toBe(true);
      expect(publicSignalsFromJson(signals)).toEqual(publicsOf(signals));
    });
  }
});

describe('refusals: both verifiers say no', () => {
  const f = loadFixture('poseidon-hash');
  const zkey = readZkey(f.zkey);
  const witness = readWtns(f.wtns);
  const signals = publicSignals(witness, zkey.nPublic);
  const { proof } = cpuProve(zkey, witness);
  const both = async (vkZkey: Groth16Zkey, s: string[], p: Groth16Proof) => {
    const vk = await snarkjs.zKey.exportVerificationKey(f.zkeyPath);
    return [await snarkjs.groth16.verify(vk, s, proofToJson(p)), verifyGroth16(vkZkey, publicsOf(s), p)];
  };

  it('a tampered proof', async () => {
    expect(await both(zkey, signals, { ...proof, a: proof.a.add(G1) })).toEqual([false, false]);
    expect(await both(zkey, signals, { ...proof, c: proof.c.add(G1) })).toEqual([false, false]);
    expect(await both(zkey, signals, { ...proof, b: proof.b.add(bn254.G2.Point.BASE) })).toEqual([false, false]);
    expect(await both(zkey, signals, { a: proof.c, b: proof.b, c: proof.a })).toEqual([false, false]);
  });

  it('a wrong public signal', async () => {
    for (let i = 0; i < signals.length; i++) {
      const wrong = signals.map((s, j) => (j === i ? String((BigInt(s) + 1n) % FR_R) : s));
      expect(await both(zkey, wrong, proof)).toEqual([false, false]);
    }
    // Too few or too many signals: verify.ts refuses; snarkjs checks no count (it uses as many IC points as signals given).
    expect(verifyGroth16(zkey, publicsOf(signals).slice(1), proof)).toBe(false);
    expect(verifyGroth16(zkey, [...publicsOf(signals), 0n], proof)).toBe(false);
    expect(
      verifyGroth16(
        zkey,
        publicsOf(signals).map((x, i) => (i === 0 ? x + FR_R : x)),
        proof,
      ),
    ).toBe(false);
  });

  it('a proof point off the curve or at infinity', () => {
    const off = bn254.G1.Point.fromAffine({ x: 1n, y: 1n });
    expect(verifyGroth16(zkey, publicsOf(signals), { ...proof, a: off })).toBe(false);
    expect(verifyGroth16(zkey, publicsOf(signals), { ...proof, a: bn254.G1.Point.ZERO })).toBe(false);
    expect(verifyGroth16(zkey, publicsOf(signals), { ...proof, c: bn254.G1.Point.ZERO })).toBe(false);
    expect(proofFromJson({ ...proofToJson(proof), pi_a: ['1', '2'] })).toBeUndefined();
  });

  for (const { name } of FIXTURE_CIRCUITS) {
    it(`${name}: a witness that breaks a constraint gives a proof that does not verify`, async () => {
      const g = loadFixture(name);
      const z = readZkey(g.zkey);
      const values = witnessToBigints(readWtns(g.wtns));
      const vk = await snarkjs.zKey.exportVerificationKey(g.zkeyPath);
      // Flip the last private signal (every kept wire sits in a constraint after circom --O2).
      const bad = values.map((v, i) => (i === values.length - 1 ? (v + 1n) % FR_R : v));
      const { proof: p } = cpuProve(z, witnessFromBigints(bad));
      const s = publicSignals(witnessFromBigints(bad), z.nPublic);
      expect(await snarkjs.groth16.verify(vk, s, proofToJson(p))).toBe(false);
      expect(verifyGroth16(z, publicsOf(s), p)).toBe(false);
    });
  }
});

describe('assembly and blinding', () => {
  const f = loadFixture('range-check');
  const zkey = readZkey(f.zkey);
  const witness = readWtns(f.wtns);
  const signals = publicsOf(publicSignals(witness, zkey.nPublic));

  it('fixed r, s reproduce the proof; fresh ones differ and all verify, edge r, s included', () => {
    const blinding = { r: 12345n, s: 67890n };
    const one = cpuProve(zkey, witness, { blinding });
    const two = cpuProve(zkey, witness, { blinding });
    expect(one.proof.a.equals(two.proof.a) && one.proof.b.equals(two.proof.b) && one.proof.c.equals(two.proof.c)).toBe(true);
    const fresh = cpuProve(zkey, witness);
    expect(fresh.proof.a.equals(one.proof.a)).toBe(false);
    expect(verifyGroth16(zkey, signals, fresh.proof)).toBe(true);
    for (const [r, s] of [
      [0n, 0n],
      [1n, FR_R - 1n],
      [FR_R - 1n, 0n],
    ]) {
      expect(verifyGroth16(zkey, signals, assembleProof(zkey, one.sums, { r, s }))).toBe(true);
    }
    expect(() => assembleProof(zkey, one.sums, { r: FR_R, s: 1n })).toThrow(/blinding\.r/);
  });

  it('randomFr is in [0, r) and not constant', () => {
    const xs = Array.from({ length: 64 }, randomFr);
    expect(xs.every((x) => x >= 0n && x < FR_R)).toBe(true);
    expect(new Set(xs).size).toBe(64);
    // The top bit of a 254-bit draw below r is set about r/2^254 - 1/2 ≈ 26% of the time: some must be.
    expect(xs.some((x) => x >> 253n === 1n)).toBe(true);
  });

  it('verify time at nPublic 1..10 (same pairing work at any nPublic, plus the L sum)', () => {
    const { proof } = cpuProve(zkey, witness);
    for (const n of [1, 10]) {
      // A key with n + 1 IC points: the check is false, but it does all of the work.
      const ic = Array.from({ length: n + 1 }, (_, i) => zkey.ic[i % zkey.ic.length]);
      const publics = Array.from({ length: n }, () => randomFr());
      const t0 = performance.now();
      const runs = 5;
      for (let k = 0; k < runs; k++) verifyGroth16({ ...zkey, ic }, publics, proof);
      console.log(`verifyGroth16 at nPublic ${n}: ${((performance.now() - t0) / runs).toFixed(1)} ms`);
    }
  });
});
