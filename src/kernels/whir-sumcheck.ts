/**
 * Host side of wgsl/kernels/whir_sumcheck.wgsl: the pipelines, the uniform record, grid sizes,
 * and `WsBatch`, which records any number of the kernel's passes into one command encoder and
 * submits them once, with an optional small readback copied in the same submission (a round
 * message or an evaluation is one submission and one map). Tables are Montgomery form on the GPU;
 * the engine (src/whir/gpu-engine.ts) converts at its edges.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { PipelineRequest } from '../gpu/pipeline-cache.js';
import { fromMonty, toMonty, type Ext4 } from '../field/babybear.js';

/** Threads per workgroup: WebGPU's default maxComputeInvocationsPerWorkgroup; 2 x 256 x 16 B = 8 KiB of workgroup memory for the tree sums. */
export const WS_WG = 256;
/**
 * Workgroups of a reduction's grid-stride loop: 1024 x 256 threads fill an H100 (132 SMs x 8
 * resident groups of 256) while ws_reduce sums at most 4 partial pairs per thread.
 */
export const WS_REDUCE_GROUPS = 1024;
/** Workgroups of an element-wise grid-stride pass (from Montgomery, claims). */
const WS_MAP_GROUPS = 4096;

export type WsEntry =
  | 'ws_from_monty'
  | 'ws_round_base'
  | 'ws_round_ext'
  | 'ws_bind_base'
  | 'ws_bind_ext'
  | 'ws_reduce'
  | 'ws_eq_tabs'
  | 'ws_add_claims'
  | 'ws_eval_base'
  | 'ws_eval_ext';

export const WS_ENTRIES: readonly WsEntry[] = [
  'ws_from_monty',
  'ws_round_base',
  'ws_round_ext',
  'ws_bind_base',
  'ws_bind_ext',
  'ws_reduce',
  'ws_eq_tabs',
  'ws_add_claims',
  'ws_eval_base',
  'ws_eval_ext',
];

/** The buffers a pass binds, by the kernel's binding numbers (1..6; 0 is the uniform). */
export interface WsBuffers {
  eIn?: GPUBuffer;
  wIn?: GPUBuffer;
  eOut?: GPUBuffer;
  wOut?: GPUBuffer;
  parts?: GPUBuffer;
  tabs?: GPUBuffer;
}
const SLOTS: ReadonlyArray<[keyof WsBuffers, number]> = [
  ['eIn', 1],
  ['wIn', 2],
  ['eOut', 3],
  ['wOut', 4],
  ['parts', 5],
  ['tabs', 6],
];

/** Which buffers each entry point reads or writes (its 'auto' layout holds exactly these). */
const USES: Record<WsEntry, ReadonlyArray<keyof WsBuffers>> = {
  ws_from_monty: ['eIn', 'eOut'],
  ws_round_base: ['eIn', 'wIn', 'parts'],
  ws_round_ext: ['eIn', 'wIn', 'parts'],
  ws_bind_base: ['eIn', 'wIn', 'eOut', 'wOut', 'parts'],
  ws_bind_ext: ['eIn', 'wIn', 'eOut', 'wOut', 'parts'],
  ws_reduce: ['parts'],
  ws_eq_tabs: ['tabs', 'eOut'],
  ws_add_claims: ['wOut', 'tabs'],
  ws_eval_base: ['eIn', 'tabs', 'parts'],
  ws_eval_ext: ['eIn', 'tabs', 'parts'],
};

/** Entry points that end in per-workgroup partial sums (ws_reduce follows them). */
const REDUCING = new Set<WsEntry>(['ws_round_base', 'ws_round_ext', 'ws_bind_base', 'ws_bind_ext', 'ws_eval_base', 'ws_eval_ext']);

export const wsPipelineRequests = (): PipelineRequest[] =>
  WS_ENTRIES.map((entryPoint) => ({ kernel: 'whir_sumcheck', entryPoint, plan: { WS_WG } }));

export type WsPipelines = Record<WsEntry, GPUComputePipeline>;

/** Every pipeline of the kernel, compiled side by side (cached per device by ctx.pipelines). */
export async function wsPipelines(ctx: GpuContext): Promise<WsPipelines> {
  const list = await ctx.pipelines.all(wsPipelineRequests());
  return Object.fromEntries(WS_ENTRIES.map((e, i) => [e, list[i]])) as WsPipelines;
}

/** The uniform WsParams (64 bytes), every field but `n` optional. */
export interface WsParams {
  n: number;
  /** the bind's challenge, canonical */
  r?: Ext4;
  loBits?: number;
  nEq?: number;
  nSel?: number;
  eqStride?: number;
  selCoeff?: number;
  selBase?: number;
  selStride?: number;
  /** the claims' variables (ws_eq_tabs) */
  vars?: number;
}

/** WsParams' size: a vec4 and 9 u32, rounded up to the struct's 16-byte alignment. */
const WS_PARAM_BYTES = 64;

export function wsParamWords(p: WsParams): Uint32Array {
  const w = new Uint32Array(WS_PARAM_BYTES / 4);
  if (p.r) p.r.forEach((c, i) => (w[i] = toMonty(c)));
  w.set([p.n, p.loBits ?? 0, p.nEq ?? 0, p.nSel ?? 0, p.eqStride ?? 0, p.selCoeff ?? 0, p.selBase ?? 0, p.selStride ?? 0, p.vars ?? 0], 4);
  return w;
}

/** Workgroups of a pass over `items`: reductions at most WS_REDUCE_GROUPS (the partial pairs ws_reduce sums), others at most WS_MAP_GROUPS. */
export function wsGroups(entry: WsEntry, items: number): number {
  if (entry === 'ws_reduce') return 1;
  const cap = REDUCING.has(entry) ? WS_REDUCE_GROUPS : WS_MAP_GROUPS;
  return Math.max(1, Math.min(cap, Math.ceil(items / WS_WG)));
}

/** Bytes of a partials buffer: two extension elements per workgroup of the widest reduction. */
export const WS_PARTS_BYTES = 2 * 16 * WS_REDUCE_GROUPS;

/** Canonical Ext4 values from Montgomery words (4 per element). */
export function extFromMontyWords(words: Uint32Array): Ext4[] {
  const out: Ext4[] = [];
  for (let i = 0; i + 3 < words.length; i += 4)
    out.push([fromMonty(words[i]), fromMonty(words[i + 1]), fromMonty(words[i + 2]), fromMonty(words[i + 3])]);
  return out;
}

/**
 * The passes of one engine call: recorded into one encoder, submitted once. Uniforms are pooled
 * per pass (each pass needs its own: writeBuffer lands before the whole submission) and released
 * after the submit, which is safe because later writes queue behind it.
 */
export class WsBatch {
  private readonly enc: GPUCommandEncoder;
  private readonly uniforms: GPUBuffer[] = [];

  /** With `encoder`, passes are recorded into the caller's encoder (submit it, then call `done`). */
  constructor(
    private readonly ctx: GpuContext,
    private readonly pipes: WsPipelines,
    private readonly label: string,
    encoder?: GPUCommandEncoder,
  ) {
    this.enc = encoder ?? ctx.device.createCommandEncoder({ label });
  }

  /** Release the passes' uniforms after the caller submitted its own encoder. */
  done(): void {
    for (const u of this.uniforms) this.ctx.pool.release(u);
    this.uniforms.length = 0;
  }

  get encoder(): GPUCommandEncoder {
    return this.enc;
  }

  /** One pass of `entry` over `params.n` items; a reducing entry is followed by ws_reduce of its partials. */
  pass(entry: WsEntry, params: WsParams, bufs: WsBuffers): void {
    const groups = wsGroups(entry, params.n);
    this.dispatch(entry, params, bufs, groups);
    if (REDUCING.has(entry)) this.dispatch('ws_reduce', { n: groups }, { parts: bufs.parts }, 1);
  }

  private dispatch(entry: WsEntry, params: WsParams, bufs: WsBuffers, groups: number): void {
    const pipeline = this.pipes[entry];
    const uniform = this.ctx.uploadUniform(wsParamWords(params), `${entry} params`);
    this.uniforms.push(uniform);
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: uniform, size: WS_PARAM_BYTES } }];
    for (const [name, binding] of SLOTS) {
      if (!USES[entry].includes(name)) continue;
      const buffer = bufs[name];
      if (!buffer) throw new Error(`whir_sumcheck ${entry}: buffer ${name} not given`);
      entries.push({ binding, resource: { buffer } });
    }
    const group = this.ctx.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries, label: entry });
    const pass = this.enc.beginComputePass({ label: entry });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(groups);
    pass.end();
  }

  /** Submit; with `read`, copy its first `words` words in the same submission and return them. */
  async submit(read?: { buffer: GPUBuffer; words: number }): Promise<Uint32Array | null> {
    const ctx = this.ctx;
    let staging: GPUBuffer | null = null;
    try {
      if (read) {
        staging = ctx.pool.acquire(read.words * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, `${this.label} readback`);
        this.enc.copyBufferToBuffer(read.buffer, 0, staging, 0, read.words * 4);
      }
      ctx.submit(this.enc, this.label);
      if (!staging) return null;
      await staging.mapAsync(GPUMapMode.READ, 0, read!.words * 4);
      const out = new Uint32Array(staging.getMappedRange(0, read!.words * 4).slice(0));
      staging.unmap();
      return out;
    } finally {
      for (const u of this.uniforms) ctx.pool.release(u);
      this.uniforms.length = 0;
      if (staging) ctx.pool.release(staging);
    }
  }
}
