// The QAP's coefficient layout (src/kernels/qap/csr.ts): rows grouped by (matrix, constraint) from
// any record order, duplicates and empty rows kept, every bad record refused; the row sums it
// implies equal src/ref/groth16-h.ts's qapEvaluations; the stage's memory at 2^20.
import { describe, expect, it } from 'vitest';
import { buildQapCsr, qapMemory } from '../../src/kernels/qap/csr.js';
import { FR_R, ZKEY_COEF_UNSCALE } from '../../src/params/bn254-fr.js';
import { fromLimbs, toLimbs } from '../../src/params/bn254.js';
import { qapEvaluations, type QapCoefficients } from '../../src/ref/groth16-h.js';
import { randomQapCoefficients } from '../../bench/support/fr-check.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

function coefficients(recs: Array<[number, number, number, bigint]>): QapCoefficients {
  const values = new Uint32Array(8 * recs.length);
  recs.forEach((r, i) => values.set(toLimbs(r[3]), 8 * i));
  return {
    count: recs.length,
    matrix: Uint32Array.from(recs, (r) => r[0]),
    constraint: Uint32Array.from(recs, (r) => r[1]),
    signal: Uint32Array.from(recs, (r) => r[2]),
    values,
  };
}

describe('buildQapCsr', () => {
  it('groups records by row from any order, keeping duplicates and empty rows', () => {
    const csr = buildQapCsr(
      coefficients([
        [1, 3, 2, 7n],
        [0, 0, 1, 5n],
        [0, 2, 0, 9n],
        [0, 0, 1, 6n], // duplicate (constraint, signal) of record 1
        [1, 0, 0, 4n],
      ]),
      4,
      3,
    );
    // rows A0..A3, B0..B3: A0 has 2, A1 none, A2 1, A3 none, B0 1, B1, B2 none, B3 1
    expect([...csr.rowPtr]).toEqual([0, 2, 2, 3, 3, 4, 4, 4, 5]);
    expect([...csr.signals]).toEqual([1, 1, 0, 0, 2]);
    expect(Array.from({ length: 5 }, (_, i) => fromLimbs(csr.values, 8 * i))).toEqual([5n, 6n, 9n, 4n, 7n]);
  });

  it('an empty key has 2N + 1 zero offsets', () => {
    const csr = buildQapCsr(coefficients([]), 8, 1);
    expect(csr.rowPtr.length).toBe(17);
    expect(csr.rowPtr.every((x) => x === 0)).toBe(true);
    expect(csr.signals.length).toBe(0);
  });

  it("its row sums are qapEvaluations' A and B", () => {
    const rng = new SplitMix64(7);
    const coeffs = randomQapCoefficients(rng, 64, 11, 3);
    const witness = Array.from({ length: 11 }, (_, i) => (BigInt(i) * 0x1234567890abcdefn + 1n) % FR_R);
    const csr = buildQapCsr(coeffs, 64, 11);
    const { a, b } = qapEvaluations(coeffs, witness, 64);
    const sums = Array.from({ length: 128 }, (_, row) => {
      let s = 0n;
      for (let k = csr.rowPtr[row]; k < csr.rowPtr[row + 1]; k++)
        s += ((fromLimbs(csr.values, 8 * k) * ZKEY_COEF_UNSCALE) % FR_R) * witness[csr.signals[k]];
      return s % FR_R;
    });
    expect(sums).toEqual([...a, ...b]);
    expect(csr.rowPtr.some((_, r) => r < 128 && csr.rowPtr[r] === csr.rowPtr[r + 1])).toBe(true); // some rows empty
  });

  it('refuses bad records with their codes', () => {
    const ok: Array<[number, number, number, bigint]> = [[0, 1, 1, 3n]];
    const code = (recs: Array<[number, number, number, bigint]>, n = 4, vars = 2) => {
      try {
        buildQapCsr(coefficients(recs), n, vars);
        return 'none';
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code(ok)).toBe('none');
    expect(code([[2, 1, 1, 3n]])).toBe('INVALID_ARGUMENT');
    expect(code([[0, 4, 1, 3n]])).toBe('INVALID_ARGUMENT');
    expect(code([[0, 1, 2, 3n]])).toBe('INVALID_ARGUMENT');
    expect(code([[0, 1, 1, FR_R]])).toBe('NON_CANONICAL');
    expect(() => buildQapCsr({ ...coefficients(ok), count: 2 }, 4, 2)).toThrow(expect.objectContaining({ code: 'INVALID_LENGTH' }));
  });
});

describe('qapMemory', () => {
  it('states the GPU memory at 2^20', () => {
    const m = qapMemory(2 ** 20, 4 * 2 ** 20, 2 ** 20);
    expect(m.evaluations).toBe(96 * 2 ** 20); // A, B, C: 32 MiB each
    expect(m.scratch).toBe(32 * 2 ** 20);
    expect(m.roots).toBe(32 * 2 ** 20);
    expect(m.coefficients).toBe(4 * 2 ** 20 * 36 + (2 * 2 ** 20 + 1) * 4); // 144 MiB + 8 MiB
    expect(m.witness).toBe(32 * 2 ** 20);
    expect(m.total).toBe(m.evaluations + m.scratch + m.roots + m.coefficients + m.witness);
  });
});
