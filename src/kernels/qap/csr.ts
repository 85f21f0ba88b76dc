/**
 * The zkey's coefficient records grouped by matrix row, once per key on the host (CSR): row
 * m·N + c holds matrix m's (0 = A, 1 = B) entries of constraint c, so wgsl/kernels/fr_qap.wgsl sums
 * a constraint's terms in one thread without atomics. snarkjs writes a constraint's records
 * together, but nothing here relies on it: a counting sort by row (stable, O(count + N)) groups any
 * order; duplicate (constraint, signal) records stay separate terms, as the CPU twin adds them.
 * Also the stage's GPU memory, for plans and reports.
 * @module
 */
import { ProverError } from '../../errors.js';
import type { QapCoefficients } from '../../field/qap-coefficients.js';
import { FR_BYTES } from './ntt-plan.js';
import { atLeastR } from '../../field/fr-words.js';

export interface QapCsr {
  /** domain size N: rows 0 .. N (A) and N .. 2N (B) */
  domainSize: number;
  /** 2N + 1 offsets: row i's entries are rowPtr[i] .. rowPtr[i + 1] */
  rowPtr: Uint32Array;
  /** each entry's signal (witness index) */
  signals: Uint32Array;
  /** each entry's value as stored in the zkey (v·R² mod r), 8 LE words */
  values: Uint32Array;
}

/** Group `coeffs` by row; validates every record (matrix, constraint < N, signal < nVars, value < r). */
export function buildQapCsr(coeffs: QapCoefficients, domainSize: number, nVars: number): QapCsr {
  const { count, matrix, constraint, signal, values } = coeffs;
  if (matrix.length < count || constraint.length < count || signal.length < count || values.length < 8 * count) {
    throw new ProverError(
      'INVALID_LENGTH',
      `QAP coefficients: ${count} records need that many matrix, constraint and signal entries and 8·${count} value words`,
    );
  }
  const rows = 2 * domainSize;
  const rowPtr = new Uint32Array(rows + 1);
  for (let i = 0; i < count; i++) {
    const m = matrix[i];
    const c = constraint[i];
    if (m > 1) throw new ProverError('INVALID_ARGUMENT', `QAP coefficient ${i}: matrix ${m} (a zkey has 0 = A and 1 = B only)`);
    if (c >= domainSize)
      throw new ProverError('INVALID_ARGUMENT', `QAP coefficient ${i}: constraint ${c} is outside the domain of ${domainSize}`);
    if (signal[i] >= nVars)
      throw new ProverError('INVALID_ARGUMENT', `QAP coefficient ${i}: signal ${signal[i]} is not below nVars = ${nVars}`);
    if (atLeastR(values, 8 * i)) throw new ProverError('NON_CANONICAL', `QAP coefficient ${i}: its value is not below r`);
    rowPtr[m * domainSize + c + 1]++;
  }
  for (let r = 0; r < rows; r++) rowPtr[r + 1] += rowPtr[r];
  const next = rowPtr.slice(0, rows);
  const outSignals = new Uint32Array(count);
  const outValues = new Uint32Array(8 * count);
  for (let i = 0; i < count; i++) {
    const k = next[matrix[i] * domainSize + constraint[i]]++;
    outSignals[k] = signal[i];
    outValues.set(values.subarray(8 * i, 8 * i + 8), 8 * k);
  }
  return { domainSize, rowPtr, signals: outSignals, values: outValues };
}

/** Bytes the stage keeps on the GPU, by buffer. */
export interface QapMemory {
  /** A, B and C evaluations (C is overwritten by h) */
  evaluations: number;
  /** the NTT's ping-pong buffer */
  scratch: number;
  /** the root table ω_{2N}^i, i < N */
  roots: number;
  /** values, signals and row offsets */
  coefficients: number;
  witness: number;
  total: number;
}

/**
 * GPU memory of a stage: 3 + 1 buffers of N values, the root table (N values), the coefficients
 * (36 B a record + 8 B a constraint) and the witness. At N = 2^20: 128 MiB + 32 MiB of roots, plus
 * the key's records (e.g. 4 M records: 144 MiB) and nVars·32 B.
 */
export function qapMemory(domainSize: number, count: number, nVars: number): QapMemory {
  const n = domainSize * FR_BYTES;
  const m: Omit<QapMemory, 'total'> = {
    evaluations: 3 * n,
    scratch: n,
    roots: n,
    coefficients: count * (FR_BYTES + 4) + (2 * domainSize + 1) * 4,
    witness: nVars * FR_BYTES,
  };
  return { ...m, total: Object.values(m).reduce((a, b) => a + b, 0) };
}
