/**
 * Host side of wgsl/kernels/canonical.wgsl: large field arrays are checked for canonical values
 * on the GPU as their upload lands, instead of by a CPU pass before it (at 2^24 values that pass
 * cost ~15-65 ms on the hosts measured, more than the upload). Each upload chunk's check runs in
 * that chunk's copy submission and writes a flag the job reads back with its result
 * (`uploadChecked`), or at once (`uploadField`). Arrays up to HOST_SCAN_MAX_BYTES are scanned on
 * the host while validating (validate.ts).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { HOST_SCAN_MAX_BYTES, nonCanonicalError } from '../validate.js';
import { MONTY31_FIELDS, type FieldName } from '../params/fields.js';
import type { AfterChunk } from '../gpu/staging.js';
import type { PipelineRequest } from '../gpu/pipeline-cache.js';

const CANON_WG = 256;
/** Workgroups of the grid-stride loop: enough to fill a large GPU, few enough to dispatch in x. */
const CANON_GROUPS = 4096;
const BINDINGS = ['read-only-storage', 'storage'] as const;

/**
 * The check's one small pipeline (BabyBear's): requested with the first call of every family that
 * takes field arrays (kernels/first-call.ts), since a large input of any of them may need it and a
 * family's second size must not add a pipeline. Not at prover creation: an MSM's first call
 * compiled it beside its own, on the driver's few compile threads.
 */
export const CANONICAL_PIPELINE: PipelineRequest = {
  kernel: 'canonical',
  entryPoint: 'canonical_first',
  plan: { CANON_WG },
  bindings: BINDINGS,
};

const pipelineOf = async (ctx: GpuContext, field: FieldName = 'babybear') =>
  (await ctx.pipelines.all([{ ...CANONICAL_PIPELINE, field }]))[0];

/** No value >= p: the flag's initial value, which atomicMin only lowers. */
const NONE = 0xffffffff;
/** Bytes between two chunks' flag words: a storage binding's offset must be a multiple of 256. */
const FLAG_STRIDE = 256;

/** A large field array on the GPU whose range check ran with its upload; its flags are read with the job's result. */
export interface CheckedUpload {
  buffer: GPUBuffer;
  /** The flag words to read back with the result (null: the host scanned the values). */
  flags: { buffer: GPUBuffer; word: number; count: number } | null;
  /** Throws NON_CANONICAL naming the first value >= p, given the flags as read back. */
  check(flagWords: Uint32Array): void;
  /** Free the flags (the caller keeps or releases `buffer`). */
  releaseFlags(): void;
}

/**
 * Upload `data` (validated except, past HOST_SCAN_MAX_BYTES, for its values' range) with a range
 * check of each chunk recorded into that chunk's copy submission, before `afterChunk`'s own work
 * on it. The job reads the flags with its result instead of waiting for them before it starts
 * (one round trip fewer; with `afterChunk`, its first passes run while later chunks upload). A
 * job whose flags name a bad value drops its result and calls `check`, which throws. `into`: as
 * for ctx.uploadAsync. `field`: whose p bounds the values (BabyBear by default).
 */
export async function uploadChecked(
  ctx: GpuContext,
  data: Uint32Array,
  name: string,
  label: string,
  afterChunk?: AfterChunk,
  into?: GPUBuffer,
  field: FieldName = 'babybear',
): Promise<CheckedUpload> {
  if (data.byteLength <= HOST_SCAN_MAX_BYTES) {
    const buffer = await ctx.uploadAsync(data, label, afterChunk, into);
    return { buffer, flags: null, check: () => {}, releaseFlags: () => {} };
  }
  const pipeline = await pipelineOf(ctx, field);
  const chunkWords = ctx.staging.chunkWords;
  const chunks = Math.ceil(data.length / chunkWords);
  const stride = FLAG_STRIDE / 4;
  const flags = ctx.upload(new Uint32Array(chunks * stride).fill(NONE), 'canonical flags');
  const checkChunk: AfterChunk = (enc, dst, at, count) => {
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(BINDINGS),
      entries: [
        { binding: 0, resource: { buffer: dst, offset: at * 4, size: count * 4 } },
        { binding: 1, resource: { buffer: flags, offset: (at / chunkWords) * FLAG_STRIDE, size: 4 } },
      ],
    });
    const pass = enc.beginComputePass({ label: 'canonical check' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.min(CANON_GROUPS, Math.ceil(count / CANON_WG)));
    pass.end();
    // After the check: afterChunk's work may overwrite the chunk (poseidon2 permutes in place).
    afterChunk?.(enc, dst, at, count);
  };
  let buffer: GPUBuffer;
  try {
    buffer = await ctx.uploadAsync(data, label, checkChunk, into);
  } catch (e) {
    ctx.pool.release(flags);
    throw e;
  }
  let held = true;
  return {
    buffer,
    flags: { buffer: flags, word: 0, count: chunks * stride },
    check(words) {
      for (let k = 0; k < chunks; k++) {
        const first = words[k * stride];
        if (first !== NONE) throw nonCanonicalError(name, k * chunkWords + first, data[k * chunkWords + first], MONTY31_FIELDS[field]);
      }
    },
    releaseFlags() {
      if (held) ctx.pool.release(flags);
      held = false;
    },
  };
}

/**
 * Upload `data` and check its range before returning (uploadChecked, then its flags read back at
 * once): for jobs that do not read the flags with their result.
 */
export async function uploadField(
  ctx: GpuContext,
  data: Uint32Array,
  name: string,
  label: string,
  field: FieldName = 'babybear',
): Promise<GPUBuffer> {
  const up = await uploadChecked(ctx, data, name, label, undefined, undefined, field);
  try {
    if (up.flags) up.check((await ctx.readRanges([up.flags]))[0]);
    return up.buffer;
  } catch (e) {
    ctx.pool.release(up.buffer);
    throw e;
  } finally {
    up.releaseFlags();
  }
}
