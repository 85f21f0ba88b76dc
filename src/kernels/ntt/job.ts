/**
 * What a caller asks of the NTT, and nothing else: the op, the matrix's shape, the blow-up, the
 * coset shift and the row order. How it runs (radices, tiles, tables, fusions) is the tuning's and
 * the plan's business (./tuning.ts, ./plan.ts). The public API validates these fields
 * (src/api/ntt.ts requireNttSpec, src/validate.ts requireAddedBits) before a job is made.
 * @module
 */
import { MONTY31_FIELDS, type FieldName, type Monty31Params } from '../../params/fields.js';

export type NttOp = 'dft' | 'idft' | 'lde' | 'encode';

/** One NTT job on a row-major height × width matrix of canonical values of a 31-bit field. */
export interface NttJob {
  readonly op: NttOp;
  /** Input rows, a power of two; lde / encode output height·2^addedBits rows. */
  readonly height: number;
  readonly width: number;
  /** lde / encode: log2 of the blow-up (0 when absent). */
  readonly addedBits?: number;
  /** lde: the coset shift (canonical, nonzero; 1 when absent). Plonky3's PCS uses the generator 31. */
  readonly shift?: number;
  /** Store rows in bit-reversed order (fused into the last pass). */
  readonly bitReversed?: boolean;
  /** The field of the values (BabyBear when absent): its roots of unity fill the tables, its constants the WGSL. */
  readonly field?: FieldName;
}

/** The parameter record of the job's field. */
export function jobField(job: Pick<NttJob, 'field'>): Monty31Params {
  return MONTY31_FIELDS[job.field ?? 'babybear'];
}

/** Rows of the job's output. */
export function outputHeight(job: NttJob): number {
  return job.op === 'lde' || job.op === 'encode' ? job.height * 2 ** (job.addedBits ?? 0) : job.height;
}
