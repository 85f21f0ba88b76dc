/**
 * One column whose transform is longer than a storage binding holds (2^26-2^27 rows on a device
 * with WebGPU's default 128 MiB binding): a four-step NTT built from batched jobs that each fit.
 * With N = n1·n2 and the input viewed as an n1 × n2 row-major matrix A (x[i1·n2 + i2] = A[i1][i2]):
 *   1. transform A's n2 columns (length n1): B[k1][i2] = Σ_i1 A[i1][i2]·ω_n1^(i1·k1);
 *   2. twist: C[k1][i2] = B[k1][i2]·ω_N^(k1·i2) (ntt_twist on the GPU, before the block is read);
 *   3. transform C's rows (length n2), as the columns of C transposed:
 *      X[k1 + n1·k2] = Σ_i2 C[k1][i2]·ω_n2^(i2·k2),
 * where ω_n1 = ω_N^n2 and ω_n2 = ω_N^n1 (Plonky3's two-adic generators are powers of each other).
 * Steps 1 and 3 run in blocks of columns (gathered and scattered on the CPU), each block one
 * ordinary job of ./record.ts. The inverse uses idft jobs and ω_N^-1 (1/n1 · 1/n2 = 1/N).
 * encode zero-pads: step 1 is then an encode of A's nonzero rows. An lde is an idft (one job, or
 * this inverse) then an encode whose coefficients j are twisted by shift^j before step 1.
 * Rows in bit-reversed order cost nothing extra: the last scatter writes them there.
 * The arithmetic is independent of the GPU (a BlockRunner runs each job), so tests check it on
 * the CPU against src/ref; the GPU runner is gpuBlockRunner.
 * @module
 */
import { ProverError } from '../../errors.js';
import type { GpuContext } from '../../gpu/context.js';
import { monty31Ops } from '../../field/monty31-ops.js';
import { log2Exact, reverseBits, twoAdicGenerator } from '../../field/two-adic.js';
import type { FieldName } from '../../params/fields.js';
import { nttToGpu } from './record.js';
import { jobField, outputHeight, type NttJob } from './job.js';
import { columnsPerBlock, fourStepShape } from './plan.js';
import { copyColumns, transposeRows } from '../matrix-copy.js';
import { recordTwist, type Twist } from './twist.js';

/** Runs one batched job on `block` (job.height × job.width), twisting its input (`pre`) and output (`post`) if given. */
export type BlockRunner = (job: NttJob, block: Uint32Array, pre?: Twist, post?: Twist) => Promise<Uint32Array>;

/** Throws TOO_LARGE when even the four-step's pieces (a column of n1 values) exceed `maxWords`. */
export function checkLongColumn(N: number, maxWords: number): void {
  const { n1 } = fourStepShape(N);
  if (n1 > maxWords) {
    throw new ProverError(
      'TOO_LARGE',
      `NTT of ${N} rows: its four-step pieces (columns of ${n1} values) exceed one binding of ${maxWords} values`,
    );
  }
}

interface FourStep {
  /** Output length (a power of two ≥ x.length). */
  N: number;
  inverse: boolean;
  /** Coset shift: coefficients j are multiplied by shift^j first (lde). */
  shift?: number;
  bitReversed: boolean;
  /** The values' field (BabyBear when absent): its roots, and the pieces' jobs run over it. */
  field?: FieldName;
}

/** The four-step transform of x (zero-padded to N when shorter; see the module comment). */
export async function fourStep(x: Uint32Array, f: FourStep, maxWords: number, run: BlockRunner): Promise<Uint32Array> {
  const { N, inverse } = f;
  checkLongColumn(N, maxWords);
  const { n1, n2 } = fourStepShape(N);
  const logN = log2Exact(N);
  const F = jobField(f);
  const omega = inverse ? monty31Ops(F).inv(twoAdicGenerator(logN, F)) : twoAdicGenerator(logN, F);
  const inField = (job: NttJob): NttJob => (f.field ? { ...job, field: f.field } : job);
  // Step 1's input: A's first h1 rows hold the values (the rest are the zero padding).
  const h1 = Math.max(1, Math.ceil(x.length / n2));
  const padded = h1 * n2 === x.length ? x : new Uint32Array(h1 * n2);
  if (padded !== x) padded.set(x);
  const addedBits = log2Exact(n1 / h1);
  const c = new Uint32Array(N); // C, n1 × n2
  const cols1 = columnsPerBlock(n2, n1, maxWords);
  for (let c0 = 0; c0 < n2; c0 += cols1) {
    const cw = Math.min(cols1, n2 - c0);
    const block = new Uint32Array(h1 * cw);
    copyColumns(padded, n2, c0, block, cw, 0, h1, cw);
    const job: NttJob = inField(
      inverse
        ? { op: 'idft', height: n1, width: cw }
        : addedBits === 0
          ? { op: 'dft', height: n1, width: cw }
          : { op: 'encode', height: h1, width: cw, addedBits },
    );
    const pre: Twist | undefined = f.shift === undefined ? undefined : { base: f.shift, mode: 'linear', col0: c0, rowStride: n2 };
    const got = await run(job, block, pre, { base: omega, mode: 'product', col0: c0 });
    copyColumns(got, cw, 0, c, n2, c0, n1, cw);
  }
  const out = new Uint32Array(N);
  const rev1 = f.bitReversed ? Uint32Array.from({ length: n1 }, (_, k) => reverseBits(k, log2Exact(n1))) : undefined;
  const rev2 = f.bitReversed ? Uint32Array.from({ length: n2 }, (_, k) => reverseBits(k, log2Exact(n2))) : undefined;
  const cols3 = columnsPerBlock(n1, n2, maxWords);
  for (let a = 0; a < n1; a += cols3) {
    const cw = Math.min(cols3, n1 - a);
    const block = new Uint32Array(n2 * cw); // rows a.. of C, transposed
    transposeRows(c, n2, a, cw, block);
    const got = await run(inField({ op: inverse ? 'idft' : 'dft', height: n2, width: cw }), block);
    if (rev1 && rev2) {
      // X[k1 + n1·k2] goes to row reverse(k1 + n1·k2) = reverse(k2) + n2·reverse(k1).
      // In tiles of 64 columns: contiguous reads, writes within 64 runs of n2 values.
      for (let t = 0; t < cw; t += 64) {
        const te = Math.min(cw, t + 64);
        for (let k2 = 0; k2 < n2; k2++) {
          const at = rev2[k2];
          for (let k = t; k < te; k++) out[at + n2 * rev1[a + k]] = got[k2 * cw + k];
        }
      }
    }
    if (!rev1) copyColumns(got, cw, 0, out, n1, a, n2, cw);
  }
  return out;
}

/**
 * `job` (one column, width 1) on `x` when its output is longer than `maxWords` values: dft,
 * idft and encode as one four-step; lde as an idft (one job when the input fits, else a
 * four-step) and a four-step encode with the shift.
 */
export async function runLongColumn(job: NttJob, x: Uint32Array, maxWords: number, run: BlockRunner): Promise<Uint32Array> {
  const N = outputHeight(job);
  const bitReversed = job.bitReversed === true;
  const field = job.field;
  switch (job.op) {
    case 'dft':
    case 'encode':
      return fourStep(x, { N, inverse: false, bitReversed, field }, maxWords, run);
    case 'idft':
      return fourStep(x, { N, inverse: true, bitReversed, field }, maxWords, run);
    case 'lde': {
      const h = job.height;
      const coeffs =
        h <= maxWords
          ? await run({ op: 'idft', height: h, width: 1, ...(field ? { field } : {}) }, x)
          : await fourStep(x, { N: h, inverse: true, bitReversed: false, field }, maxWords, run);
      return fourStep(coeffs, { N, inverse: false, shift: job.shift, bitReversed, field }, maxWords, run);
    }
  }
}

/** Runs each job on the GPU (nttToGpu), with the twists recorded before and after it in the same submission. */
export function gpuBlockRunner(ctx: GpuContext): BlockRunner {
  return async (job, block, pre, post) => {
    const input = ctx.upload(block, 'ntt block');
    const uniforms: GPUBuffer[] = [];
    try {
      const enc = ctx.device.createCommandEncoder({ label: `ntt block ${job.op}` });
      if (pre) uniforms.push(await recordTwist(ctx, enc, input, job.height, job.width, pre, job.field));
      const out = await nttToGpu(ctx, enc, job, input);
      try {
        if (post) uniforms.push(await recordTwist(ctx, enc, out.buffer, out.height, out.width, post, job.field));
        ctx.submit(enc, 'ntt four-step piece');
        return await ctx.readback(out.buffer, out.height * out.width);
      } finally {
        out.release();
      }
    } finally {
      ctx.pool.release(input);
      for (const u of uniforms) ctx.pool.release(u);
    }
  };
}
