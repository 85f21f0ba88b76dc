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
 *
 * For later stages (Merkle, WHIR) that want the codeword on the GPU: `encodeToGpu` / `nttToGpu`
 * record into a caller's encoder and return the output buffer; nothing is read back.
 * @module
 */
import { ProverError } from '../errors.js';
import type { GpuContext } from '../gpu/context.js';
import { cachedUniform, storageUsage } from '../gpu/context.js';
import { grid2d } from '../gpu/dispatch.js';
import type { BindingKind } from '../gpu/pipeline-cache.js';
import { BB_TWO_ADICITY } from '../params/babybear.js';
import { bbInv } from '../ref/babybear.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_INVERSE, NTT_FUSED_RADICES, NTT_FLAG_LAST, NTT_FLAG_SCALE, NTT_STAGE_WORDS, NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS,
  passSplitTable, passTwiddleTable, passUniform, planTransform, scaleTable, splitQualifies, stagedQualifies, stageWorkgroup, tableQualifies,
  twiddleTable, type NttPass,
} from './ntt-plan.js';
import { nttVariant, recordTilePasses, tileWordsFor, type NttVariant } from './ntt-tile.js';

/** 256 threads per workgroup: on the H100 the 2^24 -> 2^25 encode took 4.72 ms at 256, 6.03 ms at 128, 4.85 ms at 64 (bench/RESULTS.md). */
export const NTT_WG = 256;

export type NttOp = 'dft' | 'idft' | 'lde' | 'encode';

/** One job. `height` is the input height; lde/encode output height·2^addedBits rows. */
export interface NttSpec {
  op: NttOp;
  height: number;
  width: number;
  addedBits?: number;
  /** Coset shift for lde (canonical, nonzero); Plonky3's PCS uses the generator 31. */
  shift?: number;
  /** Store rows in bit-reversed order (fused into the last pass). */
  bitReversed?: boolean;
  /** Largest radix per pass (2..32; default 32): for benchmarks comparing plans. */
  maxRadix?: number;
  /** Threads per workgroup (default NTT_WG): for benchmarks comparing shapes. */
  workgroup?: number;
  /** 'stockham' (register passes, the default) or 'tiled' (workgroup-memory passes, src/kernels/ntt-tile.ts). */
  variant?: NttVariant;
  /** Tiled variant: workgroup tile in u32 words (default 4096 = 16 KiB) and target run per row group (default 8 words). */
  tileWords?: number;
  tileRun?: number;
  /** Tiled variant: threads per workgroup (default NTT_TILE_WG, NTT_TILE_WG_CPU on SwiftShader). */
  tileWg?: number;
  /**
   * Stockham: store each transform's first pass (when not also its last) through a workgroup tile
   * as contiguous blocks instead of R-word strides. Default: below width 8 (STAGE_BELOW_WIDTH),
   * where each strided store fills 4·W bytes of a 32-byte sector; true / false force it (tests,
   * benchmarks). H100, alternating A/B: 2^24 x1 encode 0.85 vs 1.31 ms, lde 1.31 vs 2.03, dft
   * 1.31 vs 1.84; at width 8 (whole sectors already) staging measured 2-6% slower.
   */
  stagedFirstPass?: boolean;
  /**
   * Stockham: middle passes (Ns·R ≤ NTT_TABLE_MAX, see tableQualifies) read their twiddles from a
   * per-(Ns, R) table cached on the device, one multiply per value, instead of computing them
   * (two). Default TABLE_TWIDDLES; false for benchmarks and tests comparing the two.
   */
  twiddleTables?: boolean;
  /**
   * Largest Ns·R with a single twiddle table (default NTT_TABLE_MAX); passes past it (and last
   * passes) compute their twiddles, or read a split table with splitTables. Tests lower it.
   */
  tableMax?: number;
  /**
   * Passes past a single table (the last) read a split table with Shoup multiplies instead of
   * computing their twiddles (Montgomery). Default SPLIT_TABLES (off): H100, alternating A/B at
   * 2^24 x1, split was 2-2.5% slower for dft, lde and encode (two table multiplies per value
   * against a running product and one multiply); kept selectable for other GPUs and for A/B runs.
   */
  splitTables?: boolean;
  /**
   * Stockham: multiply by the butterfly roots and table twiddles with Shoup's precomputed
   * quotients (bb_mul_shoup: one emulated mulhi, no Montgomery reduction) instead of Montgomery
   * multiplication. Default SHOUP_TWIDDLES; false for benchmarks and tests comparing the two.
   * Computed twiddles (passes past a single table, unless splitTables) stay Montgomery: their
   * quotients would need a division.
   */
  shoup?: boolean;
  /**
   * lde: run the idft's last pass and the dft's first as one kernel (ntt_lde_fused_rR1, see
   * fusedLdePass) where their radices allow: one pass over the matrix fewer. Default FUSE_LDE.
   */
  fuseLde?: boolean;
}

/**
 * Whether lde fuses the idft's last pass with the dft's first by default (NttSpec.fuseLde). On:
 * H100 alternating A/B at 2^24 -> 2^25, lde x1 1.073 -> 1.040 ms, x8 7.33 -> 7.28 ms (less than
 * the pass's memory time suggested: the passes are integer-ALU bound).
 */
export const FUSE_LDE = true;

/** Whether last passes read split tables by default (NttSpec.splitTables). */
export const SPLIT_TABLES = false;

/** Whether butterfly roots and table twiddles use Shoup multiplication by default (NttSpec.shoup). */
export const SHOUP_TWIDDLES = true;

/** Whether middle passes read table twiddles by default (NttSpec.twiddleTables). */
export const TABLE_TWIDDLES = true;

/**
 * nttToGpu's last argument: timestamp writes for its one compute pass, or a function giving them
 * per compute pass; with a function the Stockham path opens one compute pass per NTT pass,
 * labelled like `r32 ns=1 staged` (for per-pass timing; the tiled path still opens one).
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

const BINDINGS: readonly BindingKind[] = ['read-only-storage', 'storage', 'read-only-storage', 'read-only-storage', 'uniform'];

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

function tableFor(ctx: GpuContext, res: NttResources, p: NttPass, kind: 'montgomery' | 'shoup' | 'split'): GPUBuffer {
  const key = `${kind} ${p.ns},${p.radix}`;
  let buf = res.tables.get(key);
  if (!buf) {
    const words = kind === 'split' ? passSplitTable(p.ns, p.radix) : passTwiddleTable(p.ns, p.radix, kind === 'shoup');
    buf = ctx.constantBuffer(words, GPUBufferUsage.STORAGE, `ntt twiddles ${key}`);
    res.tables.set(key, buf);
  }
  return buf;
}

/** Output height of a job. */
export function outputHeight(spec: NttSpec): number {
  return spec.op === 'lde' || spec.op === 'encode' ? spec.height * 2 ** (spec.addedBits ?? 0) : spec.height;
}

/**
 * Largest matrix (u32 words) one NTT buffer may hold here: one storage binding (we do not yet
 * split a matrix across bindings) and ≤ 2^32 bytes of indices.
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

/** The job's passes: for lde an inverse transform (1/h and shift^j fused) then the padded forward one. */
export function jobPasses(spec: NttSpec): { passes: NttPass[]; scale: [number, number, number] | null } {
  const h = spec.height;
  const logH = Math.round(Math.log2(h));
  const bits = spec.addedBits ?? 0;
  const br = spec.bitReversed ? NTT_FLAG_BITREV : 0;
  const mr = spec.maxRadix;
  switch (spec.op) {
    case 'dft': return { passes: planTransform(logH, h, br, mr), scale: null };
    case 'idft': return { passes: planTransform(logH, h, NTT_FLAG_INVERSE | NTT_FLAG_SCALE | br, mr), scale: [bbInv(h), 1, h] };
    case 'encode': return { passes: planTransform(logH + bits, h, br, mr), scale: null };
    case 'lde': return {
      passes: [...planTransform(logH, h, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, mr), ...planTransform(logH + bits, h, br, mr)],
      scale: [bbInv(h), spec.shift ?? 1, h],
    };
  }
}

/** The staged first pass is the default below this width (see NttSpec.stagedFirstPass). */
export const STAGE_BELOW_WIDTH = 8;

/**
 * Which passes run the staged kernel: wanted (NttSpec.stagedFirstPass, else the width default),
 * stagedQualifies (./ntt-plan.ts) and the adapter's limits (wg threads and a NTT_STAGE_WORDS-word
 * tile; radix 4 needs 1024 threads, past WebGPU's default 256).
 */
export function stagedPasses(ctx: GpuContext, spec: NttSpec, passes: NttPass[]): boolean[] {
  const lim = ctx.limits;
  const want = spec.stagedFirstPass ?? spec.width < STAGE_BELOW_WIDTH;
  return passes.map((p) => {
    if (!want || !stagedQualifies(p, spec.width)) return false;
    const wg = stageWorkgroup(p.radix);
    return wg <= lim.maxComputeInvocationsPerWorkgroup && wg <= lim.maxComputeWorkgroupSizeX && NTT_STAGE_WORDS * 4 <= lim.maxComputeWorkgroupStorageSize;
  });
}

/**
 * How each Stockham pass gets its twiddles: 'staged' (first pass, none), 'table' (tableQualifies),
 * 'split' (splitQualifies, Shoup only), or 'running' (computed: lo/hi power, running product).
 */
export type TwiddleSource = 'staged' | 'table' | 'split' | 'running';
export function twiddleSources(spec: NttSpec, passes: NttPass[], staged: boolean[]): TwiddleSource[] {
  const tables = spec.twiddleTables ?? TABLE_TWIDDLES;
  const max = spec.tableMax;
  return passes.map((p, i) => {
    if (staged[i]) return 'staged';
    if (tables && tableQualifies(p, max)) return 'table';
    if (tables && (spec.shoup ?? SHOUP_TWIDDLES) && (spec.splitTables ?? SPLIT_TABLES) && splitQualifies(p, max)) return 'split';
    return 'running';
  });
}

/**
 * Index of the lde idft's last pass when it fuses with the next (the dft's first) pass: wanted
 * (NttSpec.fuseLde), the dft's first pass is radix 32 and can store through the tile (at any
 * width: the fused kernel always does), and its row stride n'/32 equals the idft's last stride
 * n/R1 (R1 = 32 / 2^addedBits, one of NTT_FUSED_RADICES); else -1.
 */
export function fusedLdePass(ctx: GpuContext, spec: NttSpec, passes: NttPass[]): number {
  if (spec.op !== 'lde' || !(spec.fuseLde ?? FUSE_LDE)) return -1;
  const staged = stagedPasses(ctx, { ...spec, stagedFirstPass: true }, passes);
  const i = passes.findIndex((p) => (p.flags & NTT_FLAG_INVERSE) !== 0);
  const p = passes[i], q = passes[i + 1];
  if (!p || !q || !staged[i + 1] || q.radix !== 32 || q.ns !== 1 || q.n / q.radix !== p.n / p.radix || !NTT_FUSED_RADICES.includes(p.radix)) return -1;
  return i;
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
  const { passes, scale } = jobPasses(spec);
  const tiled = nttVariant(ctx, spec.variant) === 'tiled';
  if (tiled) tileWordsFor(ctx, spec); // INVALID_ARGUMENT before any buffer is taken
  const wg = spec.workgroup ?? NTT_WG;
  const staged = tiled ? [] : stagedPasses(ctx, spec, passes);
  const sources = tiled ? [] : twiddleSources(spec, passes, staged);
  const kind = (i: number) => (sources[i] === 'running' ? '' : `_${sources[i]}`);
  const fused = tiled ? -1 : fusedLdePass(ctx, spec, passes);
  const entry = (p: NttPass, i: number) => (i === fused ? `ntt_lde_fused_r${p.radix}` : `ntt_pass_r${p.radix}${kind(i)}`);
  const shoup = spec.shoup ?? SHOUP_TWIDDLES;
  const pipelines = new Map<string, GPUComputePipeline>();
  for (const e of new Set(tiled ? [] : passes.map(entry).filter((_, i) => i !== fused + 1 || fused < 0))) {
    pipelines.set(e, await ctx.pipelines.get('ntt_stockham', e, {
      NTT_W: w, NTT_WG: wg, NTT_STAGE_WORDS, NTT_TW_LO, NTT_TW_HI, NTT_LO_BITS: NTT_TW_LO_BITS,
      NTT_FLAG_LAST, NTT_FLAG_INVERSE, NTT_FLAG_SCALE, NTT_FLAG_BITREV, NTT_SHOUP: shoup ? 1 : 0,
    }, BINDINGS));
  }
  const scaleBuf = scale ? scaleFor(ctx, res, scale[0], scale[1], scale[2]) : res.tw;
  const bufs = [ctx.pool.acquire(bytes, storageUsage(), 'ntt a'), ctx.pool.acquire(bytes, storageUsage(), 'ntt b')];
  const label = `ntt ${spec.op} ${spec.height}x${w}`;
  const perPass = typeof timestampWrites === 'function' ? timestampWrites : null;
  // One compute pass for the whole job, unless the caller times each NTT pass.
  const pass = perPass && !tiled ? null
    : encoder.beginComputePass({ label, timestampWrites: perPass ? perPass(`${label} tiled`) : timestampWrites as GPUComputePassTimestampWrites | undefined });
  let src = input;
  let srcBytes = spec.height * w * 4;
  let out = bufs[0];
  if (tiled) out = await recordTilePasses(ctx, pass!, spec, { input, bufs, tw: res.tw, scale: scaleBuf });
  else passes.forEach((p, i) => {
    if (fused >= 0 && i === fused + 1) return; // ran inside the fused pass
    const dst = bufs[(fused >= 0 && i > fused ? i - 1 : i) % 2];
    // The fused pass writes the dft's first-pass output: its rows, its staged grid.
    const isFused = i === fused;
    const dstBytes = (isFused ? passes[i + 1].n : p.n) * w * 4;
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(BINDINGS),
      entries: [
        { binding: 0, resource: { buffer: src, size: srcBytes } },
        { binding: 1, resource: { buffer: dst, size: dstBytes } },
        // A split pass reads no lo/hi powers, so `tw` is free for its split table; a table pass is
        // never the last, so `sc` is free for its table (tableQualifies).
        { binding: 2, resource: { buffer: sources[i] === 'split' ? tableFor(ctx, res, p, 'split') : res.tw } },
        { binding: 3, resource: { buffer: sources[i] === 'table' ? tableFor(ctx, res, p, shoup ? 'shoup' : 'montgomery') : scaleBuf } },
        { binding: 4, resource: { buffer: uniformFor(ctx, res, p) } },
      ],
    });
    const passLabel = isFused ? `r${p.radix}+r32 lde fused` : `r${p.radix} ns=${p.ns}${kind(i).replace('_', ' ')}`;
    const cp = pass ?? encoder.beginComputePass({ label: passLabel, timestampWrites: perPass!(passLabel) });
    cp.setPipeline(pipelines.get(entry(p, i))!);
    cp.setBindGroup(0, group);
    // A staged workgroup is one tile (NTT_STAGE_WORDS / R threads); the kernel rebuilds t with that size.
    const [x, y] = isFused ? grid2d((p.n / p.radix) * w, stageWorkgroup(32), ctx.limits.maxComputeWorkgroupsPerDimension)
      : grid2d((p.n / p.radix) * w, staged[i] ? stageWorkgroup(p.radix) : wg, ctx.limits.maxComputeWorkgroupsPerDimension);
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
  if (!opts.encoder) ctx.device.queue.submit([enc.finish()]);
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
    ctx.device.queue.submit([enc.finish()]);
    try {
      return await ctx.readback(out.buffer, out.height * out.width);
    } finally {
      out.release();
    }
  } finally {
    ctx.pool.release(input);
  }
}
