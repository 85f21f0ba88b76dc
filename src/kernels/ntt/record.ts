/**
 * Records an NTT plan (./plan.ts planNtt) on the GPU: the plan's steps, in order, into one compute
 * pass of one command encoder (one per step when the caller times each: NttTimestamps),
 * ping-ponging between two pooled buffers, each step with the pipeline, tables, uniform and grid
 * its record names. Nothing is decided here: this file turns plan records into GPU objects and
 * caches the tables per device (the lo/hi powers and per-(Ns, R) twiddles kept, scaled tables
 * dropped together past MAX_SCALES). Every pipeline of a job is requested at once before the
 * first step is recorded.
 *
 * For later stages (Merkle, WHIR) that want the codeword on the GPU: `encodeToGpu` / `nttToGpu`
 * record into a caller's encoder and return the output buffer; nothing is read back.
 * @module
 */
import { ProverError } from '../../errors.js';
import type { GpuContext } from '../../gpu/context.js';
import { cachedUniform, storageUsage } from '../../gpu/context.js';
import { RING_MIN_BYTES } from '../../gpu/staging.js';
import type { NttJob } from './job.js';
import { nttLimits, planNtt, type NttPlan } from './plan.js';
import { NTT_BINDINGS, NTT_BINDINGS_TWO } from './pipelines.js';
import { tableCache, tableLabel, tableWords, type NttTable } from './tables.js';
import { withTuning, type NttTuning } from './tuning.js';
import type { FieldName } from '../../params/fields.js';

/**
 * nttToGpu's timestamps: writes for its one compute pass, or a function giving them per compute
 * pass; with a function each step gets a compute pass of its own, labelled like `r32 ns=1 staged`
 * (per-pass timing).
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

/** Per-device state: tables by label (fixed and scaled, see tableCache) and the immutable uniforms. */
interface NttResources {
  uniforms: Map<string, GPUBuffer>;
  fixed: Map<string, GPUBuffer>;
  scaled: Map<string, GPUBuffer>;
}
const RESOURCES = new WeakMap<GpuContext, NttResources>();
/** Scaled tables kept per device (a scale table is ≤ 72 KiB at 2^27); beyond this the cache is cleared. */
const MAX_SCALES = 32;

function resources(ctx: GpuContext): NttResources {
  let r = RESOURCES.get(ctx);
  if (!r) {
    r = { uniforms: new Map(), fixed: new Map(), scaled: new Map() };
    RESOURCES.set(ctx, r);
  }
  return r;
}

/** Where table `t` is cached on `ctx`, its label, and its buffer if made already. */
function cachedTable(ctx: GpuContext, t: NttTable): { cache: Map<string, GPUBuffer>; label: string; buf?: GPUBuffer } {
  const res = resources(ctx);
  const cache = tableCache(t) === 'fixed' ? res.fixed : res.scaled;
  const label = tableLabel(t);
  // Buffers dropped here may still be referenced by submitted work; destroy() defers to the
  // end of that work in WebGPU, so only the unlikely unsubmitted-encoder case could notice.
  if (!cache.has(label) && cache === res.scaled && cache.size >= MAX_SCALES) cache.clear();
  return { cache, label, buf: cache.get(label) };
}

/** The buffer holding table `t` on `ctx`, made on first use (writeBuffer) and cached per device. */
export function tableBuffer(ctx: GpuContext, t: NttTable): GPUBuffer {
  const { cache, label, buf } = cachedTable(ctx, t);
  if (buf) return buf;
  const made = ctx.constantBuffer(tableWords(t), GPUBufferUsage.STORAGE, label);
  cache.set(label, made);
  return made;
}

/**
 * Make the tables of `tables` that `ctx` lacks, those of RING_MIN_BYTES or more through the
 * staging ring where uploads take it (Node): a new size's 8 MiB twiddle table took ~10 ms by
 * writeBuffer on the H100's host, about what the ring moves 64 MiB in (bench/RESULTS.md, cold).
 * The ring's copies are submitted ahead of the encoder that reads the tables.
 */
async function uploadTables(ctx: GpuContext, tables: readonly NttTable[]): Promise<void> {
  if (!ctx.ringUploads) return;
  for (const t of tables) {
    const { cache, label, buf } = cachedTable(ctx, t);
    if (buf) continue;
    const words = tableWords(t);
    if (words.byteLength < RING_MIN_BYTES) {
      cache.set(label, ctx.constantBuffer(words, GPUBufferUsage.STORAGE, label));
      continue;
    }
    const made = ctx.device.createBuffer({ size: words.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, label });
    try {
      await ctx.uploadAsync(words, label, undefined, made);
    } catch (e) {
      made.destroy();
      throw e;
    }
    cache.set(label, made);
  }
}

/** The scale table of (c, g, n) over `field` (tables.ts scaleTable), cached with the NTT's own: also twist.ts's power tables. */
export function scaleBuffer(ctx: GpuContext, c: number, g: number, n: number, field: FieldName = 'babybear'): GPUBuffer {
  return tableBuffer(ctx, field === 'babybear' ? { kind: 'scale', c, g, n } : { kind: 'scale', c, g, n, field });
}

/** Largest matrix (u32 words) one NTT buffer may hold here; larger jobs are split by the API (./blocks.ts). */
export function nttMaxWords(ctx: GpuContext): number {
  return nttLimits(ctx).maxWords;
}

/** Plans made on each device, by job and tuning overrides (plans are frozen data, safe to share). */
const PLANS = new WeakMap<GpuContext, Map<string, NttPlan>>();
/** Distinct jobs a device keeps plans for; past it the cache starts over. */
const PLANS_KEPT = 256;

/**
 * The plan of `job` on this device, with `tuning` overrides (bench A/Bs, checks), made once per
 * job shape: planning costs ~0.05-0.09 ms of CPU, which showed in the end-to-end time of jobs of
 * 2^12-2^16 rows (bench/RESULTS.md, host arrays).
 */
export function planOn(ctx: GpuContext, job: NttJob, tuning?: Partial<NttTuning>): NttPlan {
  let plans = PLANS.get(ctx);
  if (!plans) PLANS.set(ctx, (plans = new Map()));
  const key = JSON.stringify([
    job.op,
    job.height,
    job.width,
    job.addedBits ?? 0,
    job.shift ?? 1,
    job.bitReversed === true,
    job.field ?? 'babybear',
    tuning ?? null,
  ]);
  let plan = plans.get(key);
  if (!plan) {
    if (plans.size >= PLANS_KEPT) plans.clear();
    plan = planNtt(job, withTuning(tuning), nttLimits(ctx));
    plans.set(key, plan);
  }
  return plan;
}

/**
 * Record `plan` on `input` (a buffer holding height·width canonical values) into `encoder`.
 * The result lives in a pooled buffer that the caller releases; the encoder is not submitted.
 * @throws ProverError TOO_LARGE when the plan's output does not fit one binding (plan.split)
 */
export async function recordNtt(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  plan: NttPlan,
  input: GPUBuffer,
  timestampWrites?: NttTimestamps,
): Promise<NttGpuResult> {
  const { job, outRows } = plan;
  const w = job.width;
  if (plan.split.mode !== 'whole') {
    const max = plan.limits.maxWords;
    throw new ProverError(
      'TOO_LARGE',
      `NTT output of ${outRows}×${w} = ${outRows * w} values exceeds this device's limit of ${max} values ` +
        `(${max * 4} bytes per storage binding); use fewer columns per call`,
    );
  }
  const res = resources(ctx);
  // Every pipeline of the job at once: the driver compiles them side by side.
  const pipelines = await ctx.pipelines.all([...plan.requests]);
  await uploadTables(
    ctx,
    plan.steps.flatMap((s) => (s.inner ? [s.inner, s.tw, s.sc] : [s.tw, s.sc])),
  );
  const bytes = outRows * w * 4;
  const bufs = [ctx.pool.acquire(bytes, storageUsage(), 'ntt a'), ctx.pool.acquire(bytes, storageUsage(), 'ntt b')];
  const perPass = typeof timestampWrites === 'function' ? timestampWrites : null;
  // One compute pass for the whole job, unless the caller times each step.
  const pass = perPass
    ? null
    : encoder.beginComputePass({
        label: `ntt ${job.op} ${job.height}x${w}`,
        timestampWrites: timestampWrites as GPUComputePassTimestampWrites | undefined,
      });
  let src = input;
  let out = bufs[0];
  for (const s of plan.steps) {
    const dst = bufs[s.dst];
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(s.inner ? NTT_BINDINGS_TWO : NTT_BINDINGS),
      entries: [
        ...(s.inner ? [{ binding: 5, resource: { buffer: tableBuffer(ctx, s.inner) } }] : []),
        { binding: 0, resource: { buffer: src, size: s.srcRows * w * 4 } },
        { binding: 1, resource: { buffer: dst, size: s.dstRows * w * 4 } },
        { binding: 2, resource: { buffer: tableBuffer(ctx, s.tw) } },
        { binding: 3, resource: { buffer: tableBuffer(ctx, s.sc) } },
        { binding: 4, resource: { buffer: cachedUniform(ctx, res.uniforms, Uint32Array.from(s.uniform), 'ntt pass') } },
      ],
    });
    const cp = pass ?? encoder.beginComputePass({ label: s.label, timestampWrites: perPass!(s.label) });
    cp.setPipeline(pipelines[s.pipeline]);
    cp.setBindGroup(0, group);
    cp.dispatchWorkgroups(s.grid[0], s.grid[1]);
    if (!pass) cp.end();
    src = dst;
    out = dst;
  }
  pass?.end();
  // The spare buffer is held until release(): if it went back to the pool now, an upload made
  // before this encoder is submitted (queue.writeBuffer runs first) would be overwritten by it.
  const spare = out === bufs[0] ? bufs[1] : bufs[0];
  let released = false;
  return {
    buffer: out,
    height: outRows,
    width: w,
    release() {
      if (released) return;
      released = true;
      ctx.pool.release(out);
      ctx.pool.release(spare);
    },
  };
}

/**
 * Plan `job` on this device (with `tuning` overrides) and record it on `input` into `encoder`:
 * planOn then recordNtt. The result lives in a pooled buffer that the caller releases.
 */
export async function nttToGpu(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  job: NttJob,
  input: GPUBuffer,
  timestampWrites?: NttTimestamps,
  tuning?: Partial<NttTuning>,
): Promise<NttGpuResult> {
  return recordNtt(ctx, encoder, planOn(ctx, job, tuning), input, timestampWrites);
}

/**
 * WHIR Reed-Solomon encoding straight into a GPU buffer, for the Merkle / WHIR stages: zero-pad
 * each of `width` coefficient columns to height·2^addedBits rows and dft_batch them (natural
 * order, or bit-reversed rows with `bitReversed`). With `encoder` the passes are recorded into
 * it and nothing is submitted (record the Merkle passes after them, then submit once); without
 * it they are submitted at once. `coeffs` is a Uint32Array (uploaded; must be canonical) or a
 * GPU buffer holding height·width canonical values. Release the result when done.
 */
export async function encodeToGpu(
  ctx: GpuContext,
  coeffs: Uint32Array | GPUBuffer,
  width: number,
  addedBits: number,
  opts: { height?: number; encoder?: GPUCommandEncoder; bitReversed?: boolean } = {},
): Promise<NttGpuResult> {
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

/** Run a job from a Uint32Array to a Uint32Array (validated input); `timestamps` and `tuning` as in nttToGpu. */
export async function runNtt(
  ctx: GpuContext,
  job: NttJob,
  values: Uint32Array,
  timestamps?: NttTimestamps,
  tuning?: Partial<NttTuning>,
): Promise<Uint32Array> {
  const input = ctx.upload(values, 'ntt input');
  try {
    const enc = ctx.device.createCommandEncoder({ label: `ntt ${job.op}` });
    const out = await nttToGpu(ctx, enc, job, input, timestamps, tuning);
    ctx.submit(enc, `ntt ${job.op}`);
    try {
      return await ctx.readback(out.buffer, out.height * out.width);
    } finally {
      out.release();
    }
  } finally {
    ctx.pool.release(input);
  }
}
