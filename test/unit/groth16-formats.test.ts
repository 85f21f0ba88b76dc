// The Groth16 file readers against snarkjs's own reading of the committed fixtures
// (test/groth16/fixtures, made by test/groth16/make-fixtures.ts), and every bad file or witness
// they must refuse, each with its ProverError code and a message naming the fault.
import * as snarkjs from 'snarkjs';
import { afterAll, describe, expect, it } from 'vitest';
import { ProverError } from '../../src/errors.js';
import { cpuProve } from '../../src/groth16/cpu-prove.js';
import { decodeG1Points, decodeG2Points, g1ToWords, g2ToWords, g1FromWords, g2FromWords } from '../../src/groth16/point-words.js';
import { g1ToJson, g2ToJson, verificationKey } from '../../src/groth16/proof-json.js';
import { readWtns, witnessFromBigints, witnessToBigints } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { FR_R, ZKEY_COEF_UNSCALE } from '../../src/params/bn254-fr.js';
import { FQ_P, fromLimbs, toMont } from '../../src/params/bn254.js';
import { editSection, joinBinFile, putU256, putU32, splitBinFile } from '../support/groth16-binfile-edit.js';
import { releaseSnarkjs } from '../support/groth16-circom.js';
import { FIXTURE_CIRCUITS, loadFixture } from '../support/groth16-fixtures.js';

afterAll(releaseSnarkjs);

function expectProverError(f: () => unknown, code: string, message: RegExp): void {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a ProverError').toBeInstanceOf(ProverError);
  expect((caught as ProverError).code).toBe(code);
  expect((caught as ProverError).message).toMatch(message);
}

describe('readZkey agrees with snarkjs', () => {
  for (const { name } of FIXTURE_CIRCUITS) {
    it(`${name}: header, key points, IC, coefficients and every point section equal snarkjs's zkey export`, async () => {
      const f = loadFixture(name);
      const zkey = readZkey(f.zkey);
      const theirs = await snarkjs.zKey.exportJson(f.zkeyPath);
      expect([zkey.nVars, zkey.nPublic, zkey.domainSize, zkey.logN]).toEqual([
        theirs.nVars,
        theirs.nPublic,
        theirs.domainSize,
        theirs.power,
      ]);
      expect(g1ToJson(zkey.alpha1)).toEqual(theirs.vk_alpha_1);
      expect(g1ToJson(zkey.beta1)).toEqual(theirs.vk_beta_1);
      expect(g2ToJson(zkey.beta2)).toEqual(theirs.vk_beta_2);
      expect(g2ToJson(zkey.gamma2)).toEqual(theirs.vk_gamma_2);
      expect(g1ToJson(zkey.delta1)).toEqual(theirs.vk_delta_1);
      expect(g2ToJson(zkey.delta2)).toEqual(theirs.vk_delta_2);
      expect(zkey.ic.map(g1ToJson)).toEqual(theirs.IC);

      // snarkjs reads each stored value v as v·R^-2 (zkey_utils.js readFr2): the scaling is R², not R.
      const coefs = theirs.ccoefs as { matrix: number; constraint: number; signal: number; value: string }[];
      const k = zkey.coefficients;
      expect(k.count).toBe(coefs.length);
      for (let i = 0; i < k.count; i++) {
        const value = (fromLimbs(k.values, 8 * i) * ZKEY_COEF_UNSCALE) % FR_R;
        expect([k.matrix[i], k.constraint[i], k.signal[i], value.toString()]).toEqual([
          coefs[i].matrix,
          coefs[i].constraint,
          coefs[i].signal,
          coefs[i].value,
        ]);
      }

      expect(decodeG1Points(zkey.a.words, zkey.a.count, 'A').map(g1ToJson)).toEqual(theirs.A);
      expect(decodeG1Points(zkey.b1.words, zkey.b1.count, 'B1').map(g1ToJson)).toEqual(theirs.B1);
      expect(decodeG2Points(zkey.b2.words, zkey.b2.count, 'B2').map(g2ToJson)).toEqual(theirs.B2);
      // snarkjs indexes C by signal (nPublic + 1 onwards); the section holds only those.
      expect(decodeG1Points(zkey.c.words, zkey.c.count, 'C').map(g1ToJson)).toEqual((theirs.C as unknown[]).slice(zkey.nPublic + 1));
      expect(decodeG1Points(zkey.h.words, zkey.h.count, 'H').map(g1ToJson)).toEqual(theirs.hExps);
    });
  }

  it('points are Montgomery LE words with infinity as zeros, and the word views share the file buffer', () => {
    const f = loadFixture('multiplier-chain');
    const zkey = readZkey(f.zkey);
    expect(zkey.a.words.buffer).toBe(f.zkey.buffer);
    const x = zkey.alpha1.toAffine().x;
    expect(fromLimbs(g1ToWords(zkey.alpha1))).toBe(toMont(x));
    // Signals that appear in no A (or B) entry have the point at infinity there: all 16 words zero.
    const zeros = decodeG1Points(zkey.a.words, zkey.a.count, 'A').filter((p) => p.is0()).length;
    expect(zeros).toBeGreaterThan(0);
    for (let i = 0; i < zkey.a.count; i++) {
      const p = g1FromWords(zkey.a.words, 16 * i, () => `A ${i}`);
      expect(g1ToWords(p)).toEqual(zkey.a.words.subarray(16 * i, 16 * i + 16));
    }
    for (let i = 0; i < zkey.b2.count; i++) {
      const p = g2FromWords(zkey.b2.words, 32 * i, () => `B2 ${i}`);
      expect(g2ToWords(p)).toEqual(zkey.b2.words.subarray(32 * i, 32 * i + 32));
    }
  });

  it('an unaligned buffer is read (copied) the same', () => {
    const f = loadFixture('multiplier-chain');
    const shifted = new Uint8Array(f.zkey.length + 1).subarray(1);
    shifted.set(f.zkey);
    const a = readZkey(f.zkey);
    const b = readZkey(shifted);
    expect(b.h.words).toEqual(a.h.words);
    expect(b.coefficients.values).toEqual(a.coefficients.values);
    expect(readZkey(f.zkey.slice().buffer).nVars).toBe(a.nVars);
  });

  for (const { name } of FIXTURE_CIRCUITS) {
    it(`${name}: verificationKey deep-equals snarkjs.zKey.exportVerificationKey`, async () => {
      const f = loadFixture(name);
      expect(verificationKey(readZkey(f.zkey))).toEqual(await snarkjs.zKey.exportVerificationKey(f.zkeyPath));
    });
  }
});

describe('readWtns agrees with snarkjs', () => {
  for (const { name } of FIXTURE_CIRCUITS) {
    it(`${name}: values equal snarkjs's wtns export, value 0 is 1`, async () => {
      const f = loadFixture(name);
      const w = readWtns(f.wtns);
      const theirs = await snarkjs.wtns.exportJson({ type: 'mem', data: f.wtns });
      expect(witnessToBigints(w)).toEqual(theirs);
      expect(witnessFromBigints(theirs).words).toEqual(w.words);
      expect(w.count).toBe(readZkey(f.zkey).nVars);
    });
  }
});

describe('bad zkeys are refused with the right code', () => {
  const good = loadFixture('multiplier-chain').zkey;
  const zkeyOf = (bytes: Uint8Array) => () => readZkey(bytes);

  it('not a zkey, not bytes', () => {
    const bad = good.slice();
    bad.set([0x77, 0x74, 0x6e, 0x73]); // "wtns"
    expectProverError(zkeyOf(bad), 'INVALID_ARGUMENT', /not a \.zkey file.*"wtns"/);
    expectProverError(() => readZkey('zkey' as never), 'INVALID_ARGUMENT', /Uint8Array or an ArrayBuffer/);
    expectProverError(() => readZkey(loadFixture('multiplier-chain').wtns), 'INVALID_ARGUMENT', /not a \.zkey/);
  });

  it('truncated anywhere', () => {
    expectProverError(zkeyOf(good.subarray(0, 0)), 'INVALID_LENGTH', /truncated/);
    expectProverError(zkeyOf(good.subarray(0, 8)), 'INVALID_LENGTH', /truncated/);
    expectProverError(zkeyOf(good.subarray(0, 20)), 'INVALID_LENGTH', /truncated.*header of section/);
    expectProverError(zkeyOf(good.subarray(0, 200)), 'INVALID_LENGTH', /truncated: section 2 \(Groth16 header\) is cut short/);
    expectProverError(zkeyOf(good.subarray(0, good.length - 1)), 'INVALID_LENGTH', /truncated: section 10 \(contributions\)/);
    // Cut inside section 9 (H): the file ends before the H points do.
    const { sections } = splitBinFile(good);
    const before =
      12 +
      sections
        .slice(
          0,
          sections.findIndex((s) => s.type === 9),
        )
        .reduce((n, s) => n + 12 + s.data.length, 0);
    expectProverError(zkeyOf(good.subarray(0, before + 12 + 100)), 'INVALID_LENGTH', /section 9 \(H points\) is cut short/);
  });

  it('a section shorter or longer than the header says, or missing', () => {
    const minusOne = (type: number) => editSection(good, type, (d) => d.subarray(0, d.length - 64));
    expectProverError(zkeyOf(minusOne(9)), 'INVALID_LENGTH', /section 9 \(H points\) is \d+ bytes, but domainSize = \d+ G1 points needs/);
    expectProverError(zkeyOf(minusOne(5)), 'INVALID_LENGTH', /section 5 \(A points\).*nVars = \d+ G1 points/);
    expectProverError(zkeyOf(minusOne(7)), 'INVALID_LENGTH', /section 7 \(B2 points\)/);
    expectProverError(zkeyOf(minusOne(8)), 'INVALID_LENGTH', /section 8 \(C points\).*nVars - nPublic - 1/);
    expectProverError(zkeyOf(minusOne(3)), 'INVALID_LENGTH', /section 3 \(IC\)/);
    expectProverError(
      zkeyOf(editSection(good, 4, (d) => d.subarray(0, d.length - 44))),
      'INVALID_LENGTH',
      /section 4 \(coefficients\).*count of \d+ coefficients/,
    );
    const { head, sections } = splitBinFile(good);
    expectProverError(
      zkeyOf(
        joinBinFile(
          head,
          sections.filter((s) => s.type !== 6),
        ),
      ),
      'INVALID_LENGTH',
      /section 6 \(B1 points\) is missing/,
    );
    expectProverError(zkeyOf(joinBinFile(head, [...sections, sections[0]])), 'INVALID_ARGUMENT', /section 1 \(header\) appears twice/);
    // A size field that overstates the section runs past the end of the file.
    const lying = joinBinFile(
      head,
      sections.map((s) => (s.type === 3 ? { ...s, declaredSize: s.data.length + 1e6 } : s)),
    );
    expectProverError(zkeyOf(lying), 'INVALID_LENGTH', /section 3 \(IC\) is cut short/);
  });

  it('protocol not Groth16, curve not bn128', () => {
    expectProverError(zkeyOf(editSection(good, 1, (d) => putU32(d, 0, 2))), 'INVALID_ARGUMENT', /PLONK key, not Groth16/);
    expectProverError(zkeyOf(editSection(good, 1, (d) => putU32(d, 0, 10))), 'INVALID_ARGUMENT', /FFLONK key, not Groth16/);
    expectProverError(zkeyOf(editSection(good, 1, (d) => putU32(d, 0, 7))), 'INVALID_ARGUMENT', /unknown protocol 7/);
    expectProverError(
      zkeyOf(editSection(good, 2, (d) => putU256(d, 4, FQ_P - 2n))),
      'INVALID_ARGUMENT',
      /not a BN254 \(bn128\) key: its base field q/,
    );
    expectProverError(zkeyOf(editSection(good, 2, (d) => putU256(d, 40, FR_R + 2n))), 'INVALID_ARGUMENT', /its scalar field r/);
    // BLS12-381's q takes 48 bytes.
    expectProverError(zkeyOf(editSection(good, 2, (d) => putU32(d, 0, 48))), 'INVALID_ARGUMENT', /q is 48 bytes long/);
  });

  it('a coefficient out of range, a key point not canonical or off the curve', () => {
    const coef = (at: number, v: (d: Uint8Array) => void) => zkeyOf(editSection(good, 4, (d) => v(d.subarray(4 + 44 * at))));
    expectProverError(
      coef(3, (d) => putU256(d, 12, FR_R)),
      'NON_CANONICAL',
      /coefficient 3's value is >= r/,
    );
    expectProverError(
      coef(2, (d) => putU32(d, 0, 2)),
      'INVALID_ARGUMENT',
      /coefficient 2 \(matrix 2/,
    );
    expectProverError(
      coef(1, (d) => putU32(d, 8, 1 << 20)),
      'INVALID_ARGUMENT',
      /coefficient 1 .*signal 1048576/,
    );
    expectProverError(
      coef(0, (d) => putU32(d, 4, 1 << 20)),
      'INVALID_ARGUMENT',
      /coefficient 0 .*constraint 1048576/,
    );
    // α1 follows section 2's 84 bytes of n8q, q, n8r, r, nVars, nPublic, domainSize; δ2 is its last 128 bytes.
    expectProverError(zkeyOf(editSection(good, 2, (d) => putU256(d, 84, FQ_P))), 'NON_CANONICAL', /alpha1: a coordinate is \d+ >= p/);
    expectProverError(zkeyOf(editSection(good, 2, (d) => putU256(d, 84, 5n))), 'NOT_ON_CURVE', /alpha1 is not a point/);
    expectProverError(zkeyOf(editSection(good, 2, (d) => putU256(d, d.length - 32, 5n))), 'NOT_ON_CURVE', /delta2/);
    expectProverError(zkeyOf(editSection(good, 3, (d) => putU256(d, 64, 5n))), 'NOT_ON_CURVE', /IC\[1\]/);
    expectProverError(
      zkeyOf(editSection(good, 2, (d) => putU32(d, 80, 1000))),
      'INVALID_ARGUMENT',
      /domainSize 1000 is not a power of two/,
    );
  });
});

describe('bad witnesses are refused with the right code', () => {
  const f = loadFixture('range-check');
  const zkey = readZkey(f.zkey);
  const values = witnessToBigints(readWtns(f.wtns));

  it('.wtns: not a wtns, another prime, truncated, cut values, a value >= r, value 0 not 1', () => {
    expectProverError(() => readWtns(f.zkey), 'INVALID_ARGUMENT', /not a \.wtns file.*"zkey"/);
    expectProverError(
      () => readWtns(editSection(f.wtns, 1, (d) => putU256(d, 4, FQ_P))),
      'INVALID_ARGUMENT',
      /not a BN254 witness: its prime is 21888242871839275222246405745257275088696311157297823662689037894645226208583/,
    );
    expectProverError(
      () => readWtns(f.wtns.subarray(0, f.wtns.length - 5)),
      'INVALID_LENGTH',
      /truncated: section 2 \(values\) is cut short/,
    );
    expectProverError(
      () => readWtns(editSection(f.wtns, 2, (d) => d.subarray(0, d.length - 32))),
      'INVALID_LENGTH',
      /section 2 \(values\).*count of \d+ values/,
    );
    expectProverError(() => readWtns(editSection(f.wtns, 2, (d) => putU256(d, 32 * 7, FR_R))), 'NON_CANONICAL', /value 7 is >= r/);
    expectProverError(() => readWtns(editSection(f.wtns, 2, (d) => putU256(d, 0, 2n))), 'INVALID_ARGUMENT', /value 0 must be 1/);
  });

  it('bigint[]: empty, not bigints, outside [0, r), w[0] not 1', () => {
    expectProverError(() => witnessFromBigints([]), 'INVALID_LENGTH', /empty/);
    expectProverError(() => witnessFromBigints([1n, 2 as never]), 'INVALID_ARGUMENT', /witness\[1\] must be a bigint/);
    expectProverError(() => witnessFromBigints([1n, 5n, FR_R]), 'NON_CANONICAL', /witness\[2\] = \d+ is outside \[0, r\)/);
    expectProverError(() => witnessFromBigints([1n, -1n]), 'NON_CANONICAL', /witness\[1\] = -1/);
    expectProverError(() => witnessFromBigints([0n, 1n]), 'INVALID_ARGUMENT', /value 0 must be 1/);
    expectProverError(() => witnessFromBigints('1' as never), 'INVALID_ARGUMENT', /array of bigints/);
  });

  it('a witness of the wrong length for the key', () => {
    expectProverError(
      () => cpuProve(zkey, witnessFromBigints(values.slice(0, -1))),
      'INVALID_LENGTH',
      /witness has \d+ values but the zkey's circuit has \d+ signals/,
    );
    expectProverError(() => cpuProve(zkey, readWtns(loadFixture('multiplier-chain').wtns)), 'INVALID_LENGTH', /signals/);
  });
});
