/**
 * Recording one MSM run's command buffer: the encoder, its profiler, the params buffers it
 * uploads (held until the run is submitted) and one compute pass per stage.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import type { BindingKind } from '../../gpu/pipeline-cache.js';
import { dispatch1d } from '../../gpu/dispatch.js';
import type { Profiler } from '../../gpu/profiler.js';
import type { ParamsStruct } from './params.js';

/** A bind group of `kinds` over whole buffers, binding i = bufs[i]. */
export function bindGroup(ctx: GpuContext, kinds: readonly BindingKind[], bufs: readonly GPUBuffer[]): GPUBindGroup {
  return ctx.device.createBindGroup({
    layout: ctx.pipelines.layout(kinds),
    entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}

/** One 1-D dispatch of `threads` threads in workgroups of `wg` (2-D past 65535 groups: dispatch1d). */
export function dispatch(
  pass: GPUComputePassEncoder,
  ctx: GpuContext,
  pipe: GPUComputePipeline,
  group: GPUBindGroup,
  threads: number,
  wg: number,
): void {
  pass.setPipeline(pipe);
  pass.setBindGroup(0, group);
  dispatch1d(pass, ctx.device, threads, wg);
}

/** A params struct's words in a pooled uniform buffer (the caller releases it). */
export function uploadParams<F extends string>(ctx: GpuContext, s: ParamsStruct<F>, values: Readonly<Record<F, number>>): GPUBuffer {
  return ctx.uploadUniform(s.pack(values), 'msm params');
}

/**
 * How a stage is dispatched: `threads` through dispatch1d (2-D past 65535 groups), or exactly
 * `groups` 1-D workgroups (the walker and fix-up with riders: riders find themselves by
 * workgroup index).
 */
export type StageSize = { threads: number } | { groups: number };

export class RunRecorder {
  constructor(
    readonly ctx: GpuContext,
    readonly enc: GPUCommandEncoder,
    private readonly prof: Profiler,
    private readonly held: GPUBuffer[],
  ) {}

  /** A params buffer for this run's stages, released with the run's buffers. */
  params<F extends string>(s: ParamsStruct<F>, values: Readonly<Record<F, number>>): GPUBuffer {
    const buf = uploadParams(this.ctx, s, values);
    this.held.push(buf);
    return buf;
  }

  group(kinds: readonly BindingKind[], bufs: readonly GPUBuffer[]): GPUBindGroup {
    return bindGroup(this.ctx, kinds, bufs);
  }

  /** A bind group whose bindings may be ranges of buffers. */
  groupOf(kinds: readonly BindingKind[], resources: readonly GPUBufferBinding[]): GPUBindGroup {
    return this.ctx.device.createBindGroup({
      layout: this.ctx.pipelines.layout(kinds),
      entries: resources.map((resource, binding) => ({ binding, resource })),
    });
  }

  /** One compute pass (profiled under `label`) running `pipe` over `group`. */
  stage(label: string, pipe: GPUComputePipeline, group: GPUBindGroup, size: StageSize, wg: number): void {
    const pass = this.prof.beginPass(this.enc, label);
    if ('threads' in size) dispatch(pass, this.ctx, pipe, group, size.threads, wg);
    else {
      pass.setPipeline(pipe);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(size.groups);
    }
    pass.end();
  }
}
