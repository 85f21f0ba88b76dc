/**
 * Public facet: BabyBear NTTs on the columns of a row-major matrix, equal to Plonky3 p3-dft
 * 0.9.0-rc.2 (dft_batch, idft_batch, coset_lde_batch) and to WHIR's zero-padded encoding.
 * Inputs and outputs are Uint32Arrays of canonical values, or GPU-resident NttMatrix handles
 * (`{ gpu: true }`) so a following stage can consume them without a round trip. A Uint32Array job
 * whose matrix exceeds one storage binding runs in blocks of columns (src/kernels/ntt-blocks.ts).
 * @module
 */
import { ProverError } from '../errors.js';
import type { GpuContext } from '../gpu/context.js';
import { checkNttSize, nttMaxWords, nttToGpu, type NttGpuResult } from '../kernels/ntt.js';
import { needsColumnBlocks, runNttColumnBlocks } from '../kernels/ntt-blocks.js';
import { outputHeight, type NttOp, type NttSpec } from '../kernels/ntt-spec.js';
import { BB_P, BB_TWO_ADICITY } from '../params/babybear.js';
import { requireCanonical, requireUint32Array } from '../validate.js';
import type { ApiEnv } from './env.js';

/** Widest matrix accepted: 1024 columns (a WHIR folding of 2^10). */
export const NTT_MAX_WIDTH = 1024;
/** Largest Uint32Array result (2^30 values, 4 GiB): past one binding a job runs in column blocks, up to this. */
export const NTT_MAX_RESULT_VALUES = 2 ** 30;

/** A matrix kept in GPU memory: canonical values, row-major. */
export interface NttMatrix {
  readonly height: number;
  readonly width: number;
  /** Copy the values back (rows in the order they were produced). */
  read(): Promise<Uint32Array>;
  /** Give the GPU memory back; the handle cannot be used afterwards. */
  destroy(): void;
}

export interface NttOptions {
  /** Number of columns; values.length must be a multiple of it and the height a power of two. */
  width: number;
  /** Return rows in bit-reversed order (as Plonky3's PCS commits LDEs); fused into the last pass. */
  bitReversedOutput?: boolean;
  /** Return an NttMatrix handle that stays on the GPU instead of a Uint32Array. */
  gpu?: boolean;
}
export interface NttExtendOptions extends NttOptions {
  /** log2 of the blow-up: the output has height·2^addedBits rows (0 ≤ addedBits, height·2^addedBits ≤ 2^27). */
  addedBits: number;
}
export interface NttLdeOptions extends NttExtendOptions {
  /** Coset shift (nonzero, canonical); Plonky3's PCS uses the field generator 31. */
  shift: number;
}

type Input = Uint32Array | NttMatrix;
type Out<O extends NttOptions> = O extends { gpu: true } ? NttMatrix : Uint32Array;

export interface NttMethods {
  /**
   * Plonky3 dft_batch: out[i][c] = Σ_j in[j][c]·ω^(ij), ω = two_adic_generator(log2 h); natural order.
   * @throws ProverError INVALID_LENGTH, INVALID_ARGUMENT, NON_CANONICAL, TOO_LARGE, DEVICE_LOST, DESTROYED
   * @example const evals = await prover.dft(coeffs, { width: 8 });
   */
  dft<O extends NttOptions>(values: Input, opts: O): Promise<Out<O>>;
  /** Plonky3 idft_batch (the inverse of dft, scaled by 1/h). */
  idft<O extends NttOptions>(values: Input, opts: O): Promise<Out<O>>;
  /**
   * Plonky3 coset_lde_batch(evals, addedBits, shift): the columns are evaluations on the subgroup
   * of size h; output row i is the column's polynomial at shift·ω'^i, ω' of order h·2^addedBits.
   * @example const lde = await prover.lde(trace, { width: 8, addedBits: 1, shift: 31 });
   */
  lde<O extends NttLdeOptions>(values: Input, opts: O): Promise<Out<O>>;
  /** WHIR Reed-Solomon encoding: columns are coefficients, zero-padded to h·2^addedBits rows, then dft. */
  encode<O extends NttExtendOptions>(coeffs: Input, opts: O): Promise<Out<O>>;
}

class GpuMatrix implements NttMatrix {
  private live = true;
  constructor(private readonly ctx: GpuContext, readonly result: NttGpuResult) {}
  get height(): number { return this.result.height; }
  get width(): number { return this.result.width; }
  buffer(): GPUBuffer {
    if (!this.live) throw new ProverError('INVALID_ARGUMENT', 'this NttMatrix was destroyed');
    return this.result.buffer;
  }
  read(): Promise<Uint32Array> {
    const buf = this.buffer();
    return this.ctx.run(() => this.ctx.readback(buf, this.height * this.width));
  }
  destroy(): void {
    if (this.live) this.result.release();
    this.live = false;
  }
}

function intOption(name: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ProverError('INVALID_ARGUMENT', `${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}

/** Whether a job reads and returns Uint32Arrays, so that past one binding it can run in column blocks (ntt-blocks.ts). */
function hostJob(values: Input, opts: Partial<NttOptions>): boolean {
  return !(values instanceof GpuMatrix) && !opts.gpu;
}

/** Validate the input and options into a job spec. */
function makeSpec(ctx: GpuContext, op: NttOp, values: Input, opts: Partial<NttLdeOptions> | undefined): NttSpec {
  if (typeof opts !== 'object' || opts === null) throw new ProverError('INVALID_ARGUMENT', `${op}: pass options, e.g. { width: 1 }`);
  let width: number;
  let height: number;
  if (values instanceof GpuMatrix) {
    values.buffer(); // throws if destroyed
    width = values.width;
    height = values.height;
    if (opts.width !== undefined && opts.width !== width) {
      throw new ProverError('INVALID_ARGUMENT', `${op}: width ${opts.width} does not match the NttMatrix's ${width} columns`);
    }
  } else {
    requireUint32Array('values', values);
    width = intOption('width', opts.width, 1, NTT_MAX_WIDTH);
    const v = values as Uint32Array;
    if (v.length === 0 || v.length % width !== 0) {
      throw new ProverError('INVALID_LENGTH', `${op}: ${v.length} values is not a nonzero multiple of width ${width}`);
    }
    height = v.length / width;
    if ((height & (height - 1)) !== 0) {
      throw new ProverError('INVALID_LENGTH', `${op}: height ${height} (= ${v.length} / ${width}) is not a power of two; pad the columns`);
    }
    if (height > 2 ** BB_TWO_ADICITY) throw new ProverError('TOO_LARGE', `${op}: height ${height} exceeds 2^${BB_TWO_ADICITY}`);
    requireCanonical('values', v);
  }
  const spec: NttSpec = { op, height, width, bitReversed: opts.bitReversedOutput === true };
  if (op === 'lde' || op === 'encode') {
    const logH = Math.round(Math.log2(height));
    spec.addedBits = intOption('addedBits', opts.addedBits, 0, BB_TWO_ADICITY - logH);
  }
  if (op === 'lde') {
    const s = opts.shift;
    if (typeof s !== 'number' || !Number.isInteger(s) || s <= 0) {
      throw new ProverError('INVALID_ARGUMENT', `shift must be a nonzero canonical BabyBear value (Plonky3 uses 31), got ${String(s)}`);
    }
    if (s >= BB_P) throw new ProverError('NON_CANONICAL', `shift ${s} is not canonical (must be < p = ${BB_P})`);
    spec.shift = s;
  }
  // A Uint32Array job larger than one binding runs in column blocks (ntt-blocks.ts): one column must fit.
  const blocks = hostJob(values, opts);
  checkNttSize(ctx, blocks ? { ...spec, width: 1 } : spec);
  const outValues = outputHeight(spec) * width;
  if (blocks && outValues > NTT_MAX_RESULT_VALUES) {
    throw new ProverError('TOO_LARGE', `${op}: an output of ${outputHeight(spec)} x ${width} = ${outValues} values exceeds ${NTT_MAX_RESULT_VALUES}, the largest result returned as a Uint32Array; use fewer columns per call`);
  }
  return spec;
}

export function nttMethods({ ctx, alive }: ApiEnv): NttMethods {
  async function run(op: NttOp, values: Input, opts: Partial<NttLdeOptions>): Promise<NttMatrix | Uint32Array> {
    alive();
    const spec = makeSpec(ctx, op, values, opts);
    return ctx.run(async () => {
      const fromGpu = values instanceof GpuMatrix;
      if (hostJob(values, opts) && needsColumnBlocks(spec, nttMaxWords(ctx))) return runNttColumnBlocks(ctx, spec, values as Uint32Array);
      const input = fromGpu ? values.buffer() : ctx.upload(values as Uint32Array, 'ntt input');
      let result: NttGpuResult | undefined;
      try {
        const enc = ctx.device.createCommandEncoder({ label: `ntt ${op}` });
        result = await nttToGpu(ctx, enc, spec, input);
        ctx.device.queue.submit([enc.finish()]);
        if (opts.gpu) {
          const m = new GpuMatrix(ctx, result);
          result = undefined;
          return m;
        }
        return await ctx.readback(result.buffer, result.height * result.width);
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
