/**
 * Public facet: BabyBear (or, with `field: 'koalabear'`, KoalaBear) NTTs on the columns of a
 * row-major matrix, equal to Plonky3 p3-dft 0.9.0-rc.2 (dft_batch, idft_batch, coset_lde_batch)
 * and to WHIR's zero-padded encoding.
 * Inputs and outputs are Uint32Arrays of canonical values, or GPU-resident NttMatrix handles
 * (`{ gpu: true }`) so a following stage can consume them without a round trip. A job whose
 * matrix exceeds one storage binding runs through the host in blocks of columns, a column past
 * one binding as a four-step of blocks (src/kernels/ntt/blocks.ts, long.ts); its GPU-resident
 * result is then held in row blocks of one binding each.
 * @module
 */
import { ProverError } from '../errors.js';
import type { GpuContext } from '../gpu/context.js';
import { nttMaxWords, nttToGpu, type NttGpuResult } from '../kernels/ntt/record.js';
import { runNttColumnBlocks } from '../kernels/ntt/blocks.js';
import { nttSplit } from '../kernels/ntt/plan.js';
import { checkLongColumn } from '../kernels/ntt/long.js';
import { uploadField } from '../kernels/canonical.js';
import { jobField, outputHeight, type NttOp, type NttJob } from '../kernels/ntt/job.js';
import type { FieldName } from '../params/fields.js';
import {
  fieldRecord,
  optionalBoolean,
  optionalOut,
  requireAddedBits,
  requireCanonical,
  requireFieldArray,
  requireFieldName,
  requireInt,
  requireOptions,
  show,
} from '../validate.js';
import type { ApiEnv } from './env.js';
import { requireBabyBearMatrix } from './is-ntt-matrix.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import type { Scheduler } from '../sched/scheduler.js';

/** Widest matrix accepted: 1024 columns (a WHIR folding of 2^10). */
export const NTT_MAX_WIDTH = 1024;
/** Largest Uint32Array result (2^30 values, 4 GiB): past one binding a job runs in column blocks, up to this. */
export const NTT_MAX_RESULT_VALUES = 2 ** 30;

/** A matrix kept in GPU memory: canonical values, row-major. */
export interface NttMatrix {
  readonly height: number;
  readonly width: number;
  /** The field of its values: the `field` option of the call that made it. */
  readonly field: FieldName;
  /**
   * Copy the values back (rows in the order they were produced).
   * @throws ProverError DESTROYED (the matrix or its prover), ABORTED, DEVICE_LOST
   */
  read(job?: JobOptions): Promise<Uint32Array>;
  /** Give the GPU memory back; the handle cannot be used afterwards. */
  destroy(): void;
}

export interface NttOptions extends JobOptions {
  /** Number of columns; values.length must be a multiple of it and the height a power of two. */
  width: number;
  /** Return rows in bit-reversed order (as Plonky3's PCS commits LDEs); fused into the last pass. */
  bitReversedOutput?: boolean;
  /** Return an NttMatrix handle that stays on the GPU instead of a Uint32Array. */
  gpu?: boolean;
  /**
   * Write the result into this array (exactly the result's length; it may be the input itself)
   * and return it, instead of a new array: reused across calls it saves the allocation.
   */
  out?: Uint32Array;
  /**
   * The field of the values: 'babybear' (default) or 'koalabear' (p = 2^31 - 2^24 + 1, at most
   * 2^24 rows in and out). Values, the lde shift and an input NttMatrix must be of this field.
   */
  field?: FieldName;
}
export interface NttExtendOptions extends NttOptions {
  /** log2 of the blow-up: the output has height·2^addedBits rows (0 ≤ addedBits, height·2^addedBits ≤ 2^27; KoalaBear 2^24). */
  addedBits: number;
}
export interface NttLdeOptions extends NttExtendOptions {
  /** Coset shift (nonzero, canonical); Plonky3's PCS uses the field's generator (BabyBear 31, KoalaBear 3). */
  shift: number;
}

type Input = Uint32Array | NttMatrix;

/**
 * What an NTT method resolves to, by its options' `gpu`: `true` an NttMatrix; `false` or absent a
 * Uint32Array; a `boolean` (options held in a variable) either, as it will be at run time.
 * Options without `gpu` are told apart by `keyof`: they share no property with `{ gpu?: false }`,
 * so TypeScript's weak-type rule says they do not extend it.
 */
export type NttResult<O extends Pick<NttOptions, 'gpu'>> = O extends { gpu: true }
  ? NttMatrix
  : 'gpu' extends keyof O
    ? O extends { gpu?: false | undefined }
      ? Uint32Array
      : Uint32Array | NttMatrix
    : Uint32Array;

export interface NttMethods {
  /**
   * Plonky3 dft_batch: out[i][c] = Σ_j in[j][c]·ω^(ij), ω = two_adic_generator(log2 h); natural order.
   * Every NTT method throws ProverError INVALID_ARGUMENT (options, a matrix of another prover),
   * INVALID_LENGTH (empty, not whole rows, height not a power of two), NON_CANONICAL (values, an
   * lde shift >= p), TOO_LARGE (past 2^27 rows, KoalaBear's 2^24, or 2^30 result values), DESTROYED
   * (a destroyed NttMatrix or prover), DEVICE_LOST, GPU_ERROR. `field: 'koalabear'` runs any of
   * them over KoalaBear (INVALID_ARGUMENT for another name, or an NttMatrix of the other field).
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const evals = await prover.dft(coeffs, { width: 8 });
   */
  dft<O extends NttOptions>(values: Input, opts: O): Promise<NttResult<O>>;
  /**
   * Plonky3 idft_batch (the inverse of dft, scaled by 1/h).
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   */
  idft<O extends NttOptions>(values: Input, opts: O): Promise<NttResult<O>>;
  /**
   * Plonky3 coset_lde_batch(evals, addedBits, shift): the columns are evaluations on the subgroup
   * of size h; output row i is the column's polynomial at shift·ω'^i, ω' of order h·2^addedBits.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const lde = await prover.lde(trace, { width: 8, addedBits: 1, shift: 31 });
   */
  lde<O extends NttLdeOptions>(values: Input, opts: O): Promise<NttResult<O>>;
  /**
   * WHIR Reed-Solomon encoding: columns are coefficients, zero-padded to h·2^addedBits rows, then dft.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   */
  encode<O extends NttExtendOptions>(coeffs: Input, opts: O): Promise<NttResult<O>>;
}

/**
 * An NttMatrix's GPU memory: row blocks in order, each one buffer within one storage binding.
 * One block unless the matrix exceeds a binding; such a matrix came from the blocked host path
 * (kernels/ntt/blocks.ts) and, as an input, is read back to run there again.
 */
class GpuMatrix implements NttMatrix {
  private live = true;
  /** The handle's own reference plus one per stage still reading it (a Merkle tree's openings). */
  private refs = 1;
  private constructor(
    private readonly ctx: GpuContext,
    private readonly sched: Scheduler,
    private readonly parts: NttGpuResult[],
    readonly height: number,
    readonly width: number,
    readonly field: FieldName,
  ) {}

  static of(ctx: GpuContext, sched: Scheduler, result: NttGpuResult, field: FieldName): GpuMatrix {
    return new GpuMatrix(ctx, sched, [result], result.height, result.width, field);
  }

  /** Upload a height × width result of `field` values in row blocks of at most `maxWords` values. */
  static fromHost(
    ctx: GpuContext,
    sched: Scheduler,
    values: Uint32Array,
    shape: { height: number; width: number; field: FieldName },
    maxWords: number,
  ): GpuMatrix {
    const { height, width, field } = shape;
    const rows = Math.max(1, Math.floor(maxWords / width));
    const parts: NttGpuResult[] = [];
    for (let r = 0; r < height; r += rows) {
      const n = Math.min(rows, height - r);
      const buffer = ctx.upload(values.subarray(r * width, (r + n) * width), 'ntt result block');
      parts.push({ buffer, height: n, width, release: () => ctx.pool.release(buffer) });
    }
    return new GpuMatrix(ctx, sched, parts, height, width, field);
  }

  /** The matrix's one buffer, or undefined when it is held in several row blocks. */
  single(): GPUBuffer | undefined {
    this.check();
    return this.parts.length === 1 ? this.parts[0].buffer : undefined;
  }

  /** All values, block by block (inside the caller's job). */
  async readAll(): Promise<Uint32Array> {
    this.check();
    if (this.parts.length === 1) return this.ctx.readback(this.parts[0].buffer, this.height * this.width);
    const out = new Uint32Array(this.height * this.width);
    let at = 0;
    for (const p of this.parts) {
      out.set(await this.ctx.readback(p.buffer, p.height * p.width), at);
      at += p.height * p.width;
    }
    return out;
  }

  async read(job?: JobOptions): Promise<Uint32Array> {
    const jobOpts = requireJobOptions('read job options', job);
    this.check();
    return this.sched.run('NttMatrix.read', jobOpts, () => this.readAll());
  }

  /** Rows `rows` of the matrix, read through one staging buffer (a job of their own). */
  async readRows(rows: readonly number[]): Promise<Uint32Array[]> {
    this.check();
    const at = (r: number) => {
      let start = 0;
      for (const p of this.parts) {
        if (r < start + p.height) return { buffer: p.buffer, word: (r - start) * this.width, count: this.width };
        start += p.height;
      }
      throw new RangeError(`row ${r} outside 0..${this.height - 1}`);
    };
    return this.sched.run('NttMatrix rows', {}, () => this.ctx.readRanges(rows.map(at)));
  }

  /** Keep the GPU memory past destroy() until the returned function is called (once). */
  retain(): () => void {
    this.check();
    this.refs++;
    let done = false;
    return () => {
      if (!done) this.unref();
      done = true;
    };
  }

  destroy(): void {
    if (this.live) this.unref();
    this.live = false;
  }

  /** Throws unless this handle is alive and made on `ctx` (buffers of another device cannot be bound). */
  checkOwner(ctx: GpuContext): void {
    this.check();
    if (this.ctx.lost && this.ctx !== ctx) {
      throw new ProverError('DEVICE_LOST', 'this NttMatrix was on a GPU device that was lost (its memory went with it); compute it again');
    }
    if (this.ctx !== ctx) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        'this NttMatrix belongs to another prover; pass it to the prover that made it, or read() it and pass the values',
      );
    }
  }

  private unref(): void {
    if (--this.refs === 0) for (const p of this.parts) p.release();
  }

  private check(): void {
    if (!this.live) throw new ProverError('DESTROYED', 'this NttMatrix was destroyed; run the NTT again for a new one');
  }
}

/** An NttMatrix this prover's NTT methods made, as the stages that consume it in place see it (merkleCommit). */
export interface NttMatrixRows {
  height: number;
  width: number;
  /** The one buffer holding the rows, or undefined when the matrix exceeds one binding (row blocks). */
  buffer: GPUBuffer | undefined;
  /** Keep the rows past the handle's destroy() until the returned function is called. */
  retain(): () => void;
}

/**
 * `m`'s rows when it is an NttMatrix made on `ctx` (throws if destroyed or another prover's, or
 * INVALID_ARGUMENT if its values are not BabyBear's: the stages that consume one hash BabyBear);
 * undefined for anything else.
 */
export function nttMatrixRows(ctx: GpuContext, m: unknown): NttMatrixRows | undefined {
  if (!(m instanceof GpuMatrix)) return undefined;
  m.checkOwner(ctx);
  requireBabyBearMatrix(m);
  return { height: m.height, width: m.width, buffer: m.single(), retain: () => m.retain() };
}

/**
 * An NTT call's spec, checked without the device's limits (the GPU and CPU paths share it).
 * `matrix` is the input's shape when it is an NttMatrix; otherwise `values` must be whole rows.
 * The field option comes first: it decides which values are canonical and how many rows fit.
 */
export function requireNttSpec(
  op: NttOp,
  values: unknown,
  opts: Partial<NttLdeOptions>,
  matrix?: { height: number; width: number; field?: FieldName },
  gpuScans = false,
): { spec: NttJob; values?: Uint32Array; out?: Uint32Array } {
  const field = requireFieldName(`${op} options.field`, opts.field);
  const F = fieldRecord(field);
  let width: number;
  let height: number;
  let v: Uint32Array | undefined;
  if (matrix) {
    ({ width, height } = matrix);
    const held = matrix.field ?? 'babybear';
    if (held !== field) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        `${op}: this NttMatrix holds ${fieldRecord(held).label} values, not ${F.label}; pass field: '${held}' or a matrix of ${F.label} values`,
      );
    }
    if (opts.width !== undefined && opts.width !== width) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        `${op}: width ${show(opts.width)} does not match the NttMatrix's ${width} columns; leave width out`,
      );
    }
  } else {
    width = requireInt('width', opts.width, 1, NTT_MAX_WIDTH, 'the number of columns');
    v = requireFieldArray('values', values, gpuScans, F);
    if (v.length % width !== 0) {
      throw new ProverError('INVALID_LENGTH', `${op}: ${v.length} values is not a multiple of width ${width}; pass whole rows`);
    }
    height = v.length / width;
    if ((height & (height - 1)) !== 0) {
      throw new ProverError('INVALID_LENGTH', `${op}: height ${height} (= ${v.length} / ${width}) is not a power of two; pad the columns`);
    }
    if (height > 2 ** F.twoAdicity)
      throw new ProverError('TOO_LARGE', `${op}: height ${height} exceeds 2^${F.twoAdicity}; split the transform`);
  }
  optionalBoolean('gpu', opts.gpu);
  const bitReversed = optionalBoolean('bitReversedOutput', opts.bitReversedOutput) === true;
  const addedBits = op === 'lde' || op === 'encode' ? requireAddedBits(op, height, opts.addedBits, F) : undefined;
  let shift: number | undefined;
  if (op === 'lde') {
    const s = opts.shift;
    if (typeof s === 'number' && Number.isInteger(s) && s >= F.p) {
      throw new ProverError('NON_CANONICAL', `shift ${s} is not canonical (must be < p = ${F.p}); reduce it mod p`);
    }
    shift = requireInt('shift', s, 1, F.p - 1, `a nonzero canonical ${F.label} value; Plonky3 uses ${F.generator}`);
  }
  const spec: NttJob = {
    op,
    height,
    width,
    bitReversed,
    ...(addedBits === undefined ? {} : { addedBits }),
    ...(shift === undefined ? {} : { shift }),
    ...(field === 'babybear' ? {} : { field }),
  };
  const outValues = outputHeight(spec) * width;
  if (outValues > NTT_MAX_RESULT_VALUES) {
    throw new ProverError(
      'TOO_LARGE',
      `${op}: an output of ${outputHeight(spec)} x ${width} = ${outValues} values exceeds ${NTT_MAX_RESULT_VALUES}, the largest result this prover returns; use fewer columns per call`,
    );
  }
  if (opts.out !== undefined && opts.gpu)
    throw new ProverError(
      'INVALID_ARGUMENT',
      `${op}: out and gpu: true exclude each other (a result kept on the GPU is not written to an array)`,
    );
  return { spec, values: v, out: optionalOut(opts.out, outValues) };
}

/** Validate the input and options into a job spec, within this device's limits. */
function makeSpec(ctx: GpuContext, op: NttOp, values: Input, options: unknown): { spec: NttJob; input: Input; out?: Uint32Array } {
  const opts = requireOptions<NttLdeOptions>(`${op} options`, options, false);
  const matrix = values instanceof GpuMatrix ? values : undefined;
  matrix?.checkOwner(ctx); // throws if destroyed or made by another prover
  const { spec, values: v, out } = requireNttSpec(op, values, opts, matrix, true);
  // Past one binding a job runs in column blocks, or as four-step pieces per column (kernels/ntt/blocks.ts).
  const outRows = outputHeight(spec);
  if (outRows > nttMaxWords(ctx)) checkLongColumn(outRows, nttMaxWords(ctx));
  return { spec, input: matrix ?? v!, out };
}

/** Read rows `rows` of an NttMatrix this prover made (a result check's sample), or undefined for another kind of matrix. */
export async function readMatrixRows(m: NttMatrix, rows: readonly number[]): Promise<Uint32Array[] | undefined> {
  return m instanceof GpuMatrix ? m.readRows(rows) : undefined;
}

export function nttMethods({ ctx, sched, alive }: ApiEnv): NttMethods {
  async function run(op: NttOp, given: Input, opts: Partial<NttLdeOptions>): Promise<NttMatrix | Uint32Array> {
    alive();
    // A Uint32Array WebGPU cannot copy from (a resizable buffer's view) comes back copied.
    const { spec, input: values, out } = makeSpec(ctx, op, given, opts);
    const F = jobField(spec);
    const field = F.name;
    return sched.run(op, requireJobOptions(`${op} options`, opts), async () => {
      const fromGpu = values instanceof GpuMatrix;
      const gpuInput = fromGpu ? values.single() : undefined;
      const maxWords = nttMaxWords(ctx);
      if (nttSplit(outputHeight(spec), spec.width, maxWords).mode !== 'whole' || (fromGpu && !gpuInput)) {
        // Past one binding: blocks through the host, and a GPU-resident result in row blocks.
        const x = fromGpu ? await values.readAll() : (values as Uint32Array);
        if (!fromGpu) requireCanonical('values', x, F); // its blocks skip uploadField's GPU check
        const res = await runNttColumnBlocks(ctx, spec, x, maxWords);
        if (out) out.set(res);
        const shape = { height: outputHeight(spec), width: spec.width, field };
        return opts.gpu ? GpuMatrix.fromHost(ctx, sched, res, shape, maxWords) : (out ?? res);
      }
      const input = gpuInput ?? (await uploadField(ctx, values as Uint32Array, 'values', 'ntt input', field));
      let result: NttGpuResult | undefined;
      try {
        const enc = ctx.device.createCommandEncoder({ label: `ntt ${op}` });
        result = await nttToGpu(ctx, enc, spec, input);
        if (!opts.gpu) return await ctx.submitAndRead(enc, `ntt ${op}`, result.buffer, result.height * result.width, out);
        ctx.submit(enc, `ntt ${op}`);
        const m = GpuMatrix.of(ctx, sched, result, field);
        result = undefined;
        return m;
      } finally {
        result?.release();
        if (!fromGpu) ctx.pool.release(input);
      }
    });
  }
  return {
    dft: (values, opts) => run('dft', values, opts) as never,
    idft: (values, opts) => run('idft', values, opts) as never,
    lde: (values, opts) => run('lde', values, opts) as never,
    encode: (values, opts) => run('encode', values, opts) as never,
  };
}
