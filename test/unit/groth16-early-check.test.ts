// Parts of a Groth16 check made before the proof is complete (src/groth16/early-check.ts,
// verify.ts): the verifier uses a part only for the public signals and the πA, πB it was made
// from, so a proof whose points or signals differ is checked in full; and a part it does use
// decides the verdict. Committed fixture circuits, proofs from the CPU prover with fresh blinding.
import { bn254 } from '@noble/curves/bn254.js';
import { describe, expect, it } from 'vitest';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { EarlyCheck, checkStartedEarly, earlyParts } from '../../src/groth16/early-check.js';
import { outputVerifies } from '../../src/groth16/proof-check.js';
import { proofToJson, publicSignals } from '../../src/groth16/proof-json.js';
import { cPart, proofPart, publicPart, verifyGroth16 } from '../../src/groth16/verify.js';
import { readWtns } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { loadFixture } from '../support/groth16-fixtures.js';

const G1 = bn254.G1.Point.BASE;
const { Fp12 } = bn254.fields;

describe('Groth16 check parts made early', () => {
  const f = loadFixture('poseidon-hash');
  const zkey = readZkey(f.zkey);
  const witness = readWtns(f.wtns);
  const signals = publicSignals(witness, zkey.nPublic).map(BigInt);
  const one = cpuProve(zkey, witness).proof;
  const two = cpuProve(zkey, witness).proof;
  const partsOf = (p: typeof one, publics = signals) => ({ pub: publicPart(zkey, publics), proof: proofPart(p.a, p.b) });

  it('a proof with its own parts verifies; a changed πC does not', () => {
    const parts = partsOf(one);
    expect(verifyGroth16(zkey, signals, one, parts)).toBe(true);
    expect(verifyGroth16(zkey, signals, { ...one, c: one.c.add(G1) }, parts)).toBe(false);
  });

  it("another proof's parts are not used: each proof gets its own verdict", () => {
    const parts = partsOf(two);
    expect(verifyGroth16(zkey, signals, one, parts)).toBe(true);
    // πA changed (πB, signals kept): the parts made for the good πA must not vouch for it.
    expect(verifyGroth16(zkey, signals, { ...one, a: one.a.add(G1) }, partsOf(one))).toBe(false);
    // Other signals than the parts were made for.
    const other = [...signals];
    other[0] = (other[0] + 1n) % 2n ** 250n;
    expect(verifyGroth16(zkey, other, one, partsOf(one))).toBe(false);
  });

  it('a part made for the proof itself decides the verdict (one made wrong fails it)', () => {
    const right = partsOf(one);
    expect(verifyGroth16(zkey, signals, one, { ...right, proof: { ...right.proof, loop: Fp12.ONE } })).toBe(false);
    expect(verifyGroth16(zkey, signals, one, { ...right, pub: { ...right.pub, loop: null } })).toBe(false);
    expect(verifyGroth16(zkey, signals, one, { ...right, proof: { ...right.proof, loop: null } })).toBe(false);
    // πC's part: one made for πC decides; one made for another proof's πC is not used.
    expect(verifyGroth16(zkey, signals, one, { ...right, c: { c: one.c, loop: Fp12.ONE } })).toBe(false);
    expect(verifyGroth16(zkey, signals, one, { ...right, c: cPart(zkey, one.c) })).toBe(true);
    expect(verifyGroth16(zkey, signals, one, { ...right, c: cPart(zkey, two.c) })).toBe(true);
    expect(verifyGroth16(zkey, signals, { ...one, c: two.c }, { ...right, c: cPart(zkey, two.c) })).toBe(false);
  });

  it('EarlyCheck makes the parts in later tasks and hands them to the output check', async () => {
    const check = new EarlyCheck(zkey, signals);
    check.proofPoints(one.a, one.b);
    const out = { proof: proofToJson(one), publicSignals: signals.map(String) };
    expect(earlyParts(out)).toBeUndefined();
    checkStartedEarly(out, check);
    const parts = await earlyParts(out)!;
    expect(parts.proof?.loop).not.toBeNull();
    expect(outputVerifies(zkey, out, parts)).toBe(true);
    // The same parts beside a tampered JSON proof: refused.
    const bad = structuredClone(out);
    bad.proof.pi_c = proofToJson({ ...one, c: one.c.double() }).pi_c;
    expect(outputVerifies(zkey, bad, parts)).toBe(false);
  });
});
