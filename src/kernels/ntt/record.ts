/**
 * Host side of wgsl/kernels/ntt_stockham.gen.wgsl: turns a dft / idft / coset LDE / encode job on a
 * row-major h×w matrix into Stockham passes (src/kernels/ntt-plan.ts), all recorded into one
 * compute pass of one command encoder (one per NTT pass when the caller times each pass:
 * NttTimestamps), ping-ponging between two pooled buffers. Zero padding is fused into the first
 * pass's loads; 1/h and the coset powers s^j into the idft's last store; bit reversal into the
 * final store. Twiddles, computed once per device: one 96 KiB table of lo/hi powers for
 * passes that compute theirs (the last), and per (Ns, R) a table for each middle pass (ntt-plan.ts
 * passTwiddleTable; with NttSpec.splitTables also a split table for last passes, passSplitTable).
 * Multiplies by table twiddles and butterfly roots are Shoup's (bb_mul_shoup), whose quotients
 * are precomputed with them; computed twiddles stay Montgomery.
 * The first pass of a transform that has more passes stores through a workgroup tile
 * (`ntt_pass_r${R}_staged`, see stagedQualifies in ./ntt-plan.ts) at widths below 8 (stagedPasses).
 * Pipelines are specialized by each pass's flags (an override, ntt-spec.ts STATIC_FLAGS), never by
 * its size: the module set is fixed (./ntt-pipelines.ts), and every pipeline a job needs is
 * requested at once before the first pass is recorded.
 * Jobs of width ≤ 8 from 2^24 rows run two-level passes (`ntt_pass2_r${R}*`: radix R·R through
 * workgroup memory, TWO_LEVEL), so 2^24 takes 3 passes over the matrix instead of 5. Which pass
 * runs which kernel is decided in ./ntt-spec.ts; this file records the passes.
 *
 * For later stages (Merkle, WHIR) that want the codeword on the GPU: `encodeToGpu` / `nttToGpu`
 * record into a caller's encoder and return the output buffer; nothing is read back.
 * @module
 */
import { ProverError } from '../../errors.js';
import type { GpuContext } from '../../gpu/context.js';
import { cachedUniform, storageUsage } from '../../gpu/context.js';
import { grid2d } from '../../gpu/dispatch.js';
import { BB_TWO_ADICITY } from '../../params/babybear.js';
import { innerTwiddleTable, passSplitTable, passTwiddleTable, passUniform, scaleTable, stageWorkgroup, twiddleTable, type NttPass } from './passes.js';
import { NTT_WG, outputHeight, SHOUP_TWIDDLES, type ScaleFold, type NttSpec } from './spec.js';
import { NTT_BINDINGS, NTT_BINDINGS_TWO, nttJobLayout } from './pipelines.js';

/**
 * nttToGpu's last argument: timestamp writes for its one compute pass, or a function giving them
 * per compute pass; with a function the Stockham path opens one compute pass per NTT pass,
 * labelled like `r32 ns=1 staged` (for per-pass timing).
 */
export type NttTimestamps = GPUComputePassTimestampWrites | ((label: string) => GPUComputePassTimestampWrites | undefined);

/** A matrix in a pooled GPU buffer: row-major, canonical values, `height·width` u32 words. */
export interface NttGpuResult {
  buffer: GPUBuffer;
  height: number;
  width: number;
  /** Give the buffer back to ctx.pool (after every command that reads it has been submitted). */
  release(): void;
}

/** Per-device state: the twiddle table, and immutable uniform / scale buffers reused across jobs. */
interface NttResources {
  tw: GPUBuffer;
  uniforms: Map<string, GPUBuffer>;
  scales: Map<string, GPUBuffer>;
  /** passTwiddleTable / passSplitTable by `${kind} ${ns},${R}`: a handful per device (≤ 8 MiB each), never evicted. */
  tables: Map<string, GPUBuffer>;
}
const RESOURCES = new WeakMap<GpuContext, NttResources>();
/** Scale tables kept per device (each ≤ 72 KiB at 2^27); beyond this the cache is cleared. */
const MAX_SCALES = 32;

function resources(ctx: GpuContext): NttResources {
  let r = RESOURCES.get(ctx);
  if (!r) {
    r = { tw: ctx.constantBuffer(twiddleTable(), GPUBufferUsage.STORAGE, 'ntt twiddles'), uniforms: new Map(), scales: new Map(), tables: new Map() };
    RESOURCES.set(ctx, r);
  }
  return r;
}

/** The scale table of (c, g, n) (ntt-plan.ts scaleTable), cached per device with the NTT's own: also ntt-twist.ts's power tables. */
export function scaleBuffer(ctx: GpuContext, c: number, g: number, n: number): GPUBuffer {
  return scaleFor(ctx, resources(ctx), c, g, n);
}

function uniformFor(ctx: GpuContext, res: NttResources, p: NttPass): GPUBuffer {
  return cachedUniform(ctx, res.uniforms, passUniform(p), 'ntt pass');
}

function scaleFor(ctx: GpuContext, res: NttResources, c: number, g: number, n: number): GPUBuffer {
  const key = `${c},${g},${n}`;
  let buf = res.scales.get(key);
  if (!buf) {
    // Buffers dropped here may still be referenced by submitted work; destroy() defers to the
    // end of that work in WebGPU, so only the unlikely unsubmitted-encoder case could notice.
    if (res.scales.size >= MAX_SCALES) res.scales.clear();
    buf = ctx.constantBuffer(scaleTable(c, g, n), GPUBufferUsage.STORAGE, `ntt scale ${key}`);
    res.scales.set(key, buf);
  }
  return buf;
}

function tableFor(ctx: GpuContext, res: NttResources, p: NttPass, kind: 'montgomery' | 'shoup' | 'split' | 'inner'): GPUBuffer {
  const key = `${kind} ${p.ns},${p.radix}`;
  let buf = res.tables.get(key);
  if (!buf) {
    const words = kind === 'split' ? passSplitTable(p.ns, p.radix) : kind === 'inner' ? innerTwiddleTable(p.radix) : passTwiddleTable(p.ns, p.radix, kind === 'shoup');
    buf = ctx.constantBuffer(words, GPUBufferUsage.STORAGE, `ntt twiddles ${key}`);
    res.tables.set(key, buf);
  }
  return buf;
}

/** An lde's or idft's tables with its scale folded in (scaleFold): per (pass, c, g), kept with the scale tables. */
function foldedTableFor(ctx: GpuContext, res: NttResources, p: NttPass, fold: ScaleFold, split: boolean): GPUBuffer {
  const key = `${split ? 'split' : 'rows'} ${p.ns},${p.radix} c${fold.split.c} g${fold.split.g}`;
  let buf = res.scales.get(key);
  if (!buf) {
    if (res.scales.size >= MAX_SCALES) res.scales.clear(); // as in scaleFor
    const words = split ? passSplitTable(p.ns, p.radix, fold.split) : passTwiddleTable(p.ns, p.radix, true, fold.rowFactor);
    buf = ctx.constantBuffer(words, GPUBufferUsage.STORAGE, `ntt folded ${key}`);
    res.scales.set(key, buf);
  }
  return buf;
}

/**
 * Largest matrix (u32 words) one NTT buffer may hold here: one storage binding and ≤ 2^32 bytes
 * of indices. Larger jobs are split by the API (ntt-blocks.ts) into jobs of this size.
 */
export function nttMaxWords(ctx: GpuContext): number {
  return Math.floor(Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize, 2 ** 32 - 4) / 4);
}

/** Throws TOO_LARGE when the job's output does not fit this device (or BabyBear's 2^27 two-adicity). */
export function checkNttSize(ctx: GpuContext, spec: NttSpec): void {
  const h = outputHeight(spec);
  if (h > 2 ** BB_TWO_ADICITY) {
    throw new ProverError('TOO_LARGE', `NTT height ${h} exceeds 2^${BB_TWO_ADICITY}, the largest power-of-two subgroup of BabyBear`);
  }
  const words = h * spec.width;
  const max = nttMaxWords(ctx);
  if (words > max) {
    throw new ProverError('TOO_LARGE', `NTT output of ${h}×${spec.width} = ${words} values exceeds this device's limit of ${max} values ` +
      `(${max * 4} bytes per storage binding); use fewer columns per call`);
  }
}

/**
 * Record `spec` on `input` (a buffer holding height·width canonical values) into `encoder`.
 * The result lives in a pooled buffer that the caller releases; the encoder is not submitted.
 */
export async function nttToGpu(ctx: GpuContext, encoder: GPUCommandEncoder, spec: NttSpec, input: GPUBuffer,
  timestampWrites?: NttTimestamps): Promise<NttGpuResult> {
  checkNttSize(ctx, spec);
  const res = resources(ctx);
  const w = spec.width;
  const outRows = outputHeight(spec);
  const bytes = outRows * w * 4;
  const { passes, scale, fold, fused, staged, sources, groups, pipelineOf, requests } = nttJobLayout(ctx, spec);
  const wg = spec.workgroup ?? NTT_WG;
  const kind = (i: number) => (sources[i] === 'running' || (passes[i].sub > 0 && sources[i] === 'staged') ? '' : `_${sources[i]}`);
  const shoup = spec.shoup ?? SHOUP_TWIDDLES;
  // Every pipeline of the job at once: the driver compiles them side by side.
  const pipelines = await ctx.pipelines.all(requests);
  // A folded scale (scaleFold) leaves no pass reading the scale table (folding needs two-level passes, fusing register ones).
  const scaleBuf = scale && !fold ? scaleFor(ctx, res, scale[0], scale[1], scale[2]) : res.tw;
  const bufs = [ctx.pool.acquire(bytes, storageUsage(), 'ntt a'), ctx.pool.acquire(bytes, storageUsage(), 'ntt b')];
  const label = `ntt ${spec.op} ${spec.height}x${w}`;
  const perPass = typeof timestampWrites === 'function' ? timestampWrites : null;
  // One compute pass for the whole job, unless the caller times each NTT pass.
  const pass = perPass ? null : encoder.beginComputePass({ label, timestampWrites: timestampWrites as GPUComputePassTimestampWrites | undefined });
  let src = input;
  let srcBytes = spec.height * w * 4;
  let out = bufs[0];
  passes.forEach((p, i) => {
    if (fused >= 0 && i === fused + 1) return; // ran inside the fused pass
    if (spec.passLimit !== undefined && i >= spec.passLimit) return; // bench: time a prefix of the job (output not the job's)
    const dst = bufs[(fused >= 0 && i > fused ? i - 1 : i) % 2];
    // The fused pass writes the dft's first-pass output: its rows, its staged grid.
    const isFused = i === fused;
    const dstBytes = (isFused ? passes[i + 1].n : p.n) * w * 4;
    const two = p.sub > 0;
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(two ? NTT_BINDINGS_TWO : NTT_BINDINGS),
      entries: [
        // A two-level pass's second half multiplies by ω_T^(j''·r) from the (Ns = R, R) pass table, as vec4s.
        ...(two ? [{ binding: 5, resource: { buffer: tableFor(ctx, res, { ...p, ns: p.sub, radix: p.sub }, 'inner') } }] : []),
        { binding: 0, resource: { buffer: src, size: srcBytes } },
        { binding: 1, resource: { buffer: dst, size: dstBytes } },
        // A split pass reads no lo/hi powers, so `tw` is free for its split table; a table pass is
        // never the last, so `sc` is free for its table (tableQualifies).
        // An lde (idft) with its scale folded (scaleFold) reads its own tables in these two passes (this pass).
        { binding: 2, resource: { buffer: sources[i] !== 'split' ? res.tw : i === fold?.index ? foldedTableFor(ctx, res, p, fold, true) : tableFor(ctx, res, p, 'split') } },
        { binding: 3, resource: { buffer: sources[i] !== 'table' ? scaleBuf
          : fold && i === fold.index + 1 ? foldedTableFor(ctx, res, p, fold, false) : tableFor(ctx, res, p, shoup ? 'shoup' : 'montgomery') } },
        { binding: 4, resource: { buffer: uniformFor(ctx, res, p) } },
      ],
    });
    const passLabel = isFused ? `r${p.radix}+r32 lde fused` : `r${two ? `${p.sub}x${p.sub}` : p.radix} ns=${p.ns}${kind(i).replace('_', ' ')}`;
    const cp = pass ?? encoder.beginComputePass({ label: passLabel, timestampWrites: perPass!(passLabel) });
    cp.setPipeline(pipelines[pipelineOf[i]]);
    cp.setBindGroup(0, group);
    // A staged workgroup is one tile (NTT_STAGE_WORDS / R threads); the kernel rebuilds t with that size.
    // A two-level workgroup is G groups of R threads per lane; the kernel counts workgroups.
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
    const [x, y] = isFused ? grid2d((p.n / p.radix) * w, stageWorkgroup(32), maxDim)
      : two ? grid2d(p.n / p.radix / groups[i], 1, maxDim)
      : grid2d((p.n / p.radix) * w, staged[i] ? stageWorkgroup(p.radix) : wg, maxDim);
    cp.dispatchWorkgroups(x, y);
    if (!pass) cp.end();
    src = dst;
    srcBytes = dstBytes;
    out = dst;
  });
  pass?.end();
  // The spare buffer is held until release(): if it went back to the pool now, an upload made
  // before this encoder is submitted (queue.writeBuffer runs first) would be overwritten by it.
  const spare = out === bufs[0] ? bufs[1] : bufs[0];
  let released = false;
  return {
    buffer: out, height: outRows, width: w,
    release() {
      if (released) return;
      released = true;
      ctx.pool.release(out);
      ctx.pool.release(spare);
    },
  };
}

/**
 * WHIR Reed-Solomon encoding straight into a GPU buffer, for the Merkle / WHIR stages: zero-pad
 * each of `width` coefficient columns to height·2^addedBits rows and dft_batch them (natural
 * order, or bit-reversed rows with `bitReversed`). With `encoder` the passes are recorded into
 * it and nothing is submitted (record the Merkle passes after them, then submit once); without
 * it they are submitted at once. `coeffs` is a Uint32Array (uploaded; must be canonical) or a
 * GPU buffer holding height·width canonical values. Release the result when done.
 */
export async function encodeToGpu(ctx: GpuContext, coeffs: Uint32Array | GPUBuffer, width: number, addedBits: number,
  opts: { height?: number; encoder?: GPUCommandEncoder; bitReversed?: boolean } = {}): Promise<NttGpuResult> {
  const isArray = coeffs instanceof Uint32Array;
  const height = opts.height ?? (isArray ? coeffs.length / width : NaN);
  if (!Number.isInteger(height) || height < 1 || (height & (height - 1)) !== 0) {
    throw new ProverError('INVALID_LENGTH', `encodeToGpu: height ${height} is not a power of two (pass opts.height with a GPU buffer)`);
  }
  const input = isArray ? ctx.upload(coeffs, 'ntt input') : coeffs;
  const enc = opts.encoder ?? ctx.device.createCommandEncoder({ label: 'ntt encode' });
  let out: NttGpuResult;
  try {
    out = await nttToGpu(ctx, enc, { op: 'encode', height, width, addedBits, bitReversed: opts.bitReversed }, input);
  } catch (e) {
    if (isArray) ctx.pool.release(input);
    throw e;
  }
  if (!opts.encoder) ctx.submit(enc, 'encode');
  if (!isArray) return out;
  // The uploaded copy is held with the result for the same reason as the spare buffer.
  let held = true;
  return {
    ...out,
    release() {
      out.release();
      if (held) ctx.pool.release(input);
      held = false;
    },
  };
}

/** Run a job from a Uint32Array to a Uint32Array (validated input); `timestamps` as in nttToGpu. */
export async function runNtt(ctx: GpuContext, spec: NttSpec, values: Uint32Array, timestamps?: NttTimestamps): Promise<Uint32Array> {
  const input = ctx.upload(values, 'ntt input');
  try {
    const enc = ctx.device.createCommandEncoder({ label: `ntt ${spec.op}` });
    const out = await nttToGpu(ctx, enc, spec, input, timestamps);
    ctx.submit(enc, `ntt ${spec.op}`);
    try {
      return await ctx.readback(out.buffer, out.height * out.width);
    } finally {
      out.release();
    }
  } finally {
    ctx.pool.release(input);
  }
}
