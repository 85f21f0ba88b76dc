/**
 * Compute pipelines cached by (kernel, entry point, plan constants): the same job shape
 * compiles once per device. Compilation is async so a page stays responsive while Tint and
 * the driver work (hundreds of ms for the larger kernels on mobile GPUs).
 * @module
 */
import type { KernelName } from '../wgsl.gen.js';
import { kernelSource, type PlanConsts } from './wgsl.js';

/** Binding kinds in binding order (0, 1, 2, ...) of bind group 0. */
export type BindingKind = 'read-only-storage' | 'storage' | 'uniform';

export class PipelineCache {
  private pipelines = new Map<string, Promise<GPUComputePipeline>>();
  private modules = new Map<string, GPUShaderModule>();
  private layouts = new Map<string, GPUBindGroupLayout>();

  constructor(private readonly device: GPUDevice) {}

  static key(kernel: string, entryPoint: string, plan: PlanConsts): string {
    const consts = Object.keys(plan).sort().map((k) => `${k}=${plan[k]}`).join(',');
    return `${kernel}#${entryPoint}{${consts}}`;
  }

  /**
   * An explicit bind group layout. Kernels whose entry points use different subsets of the
   * module's bindings need one: 'auto' layouts drop bindings an entry point does not touch.
   */
  layout(bindings: readonly BindingKind[]): GPUBindGroupLayout {
    const key = bindings.join(',');
    let layout = this.layouts.get(key);
    if (!layout) {
      layout = this.device.createBindGroupLayout({
        label: key,
        entries: bindings.map((type, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } })),
      });
      this.layouts.set(key, layout);
    }
    return layout;
  }

  /** The pipeline for `entryPoint` of `kernel`; with `bindings`, its group 0 uses layout(bindings). */
  get(kernel: KernelName, entryPoint: string, plan: PlanConsts = {}, bindings?: readonly BindingKind[]): Promise<GPUComputePipeline> {
    const key = PipelineCache.key(kernel, entryPoint, plan) + (bindings ? `[${bindings.join(',')}]` : '');
    let p = this.pipelines.get(key);
    if (!p) {
      const moduleKey = PipelineCache.key(kernel, '', plan);
      let module = this.modules.get(moduleKey);
      if (!module) {
        module = this.device.createShaderModule({ code: kernelSource(kernel, plan), label: moduleKey });
        this.modules.set(moduleKey, module);
      }
      const layout = bindings ? this.device.createPipelineLayout({ bindGroupLayouts: [this.layout(bindings)] }) : 'auto';
      p = this.device.createComputePipelineAsync({ layout, compute: { module, entryPoint }, label: key });
      // A failed compile must not poison the cache: drop it so the next call retries and reports.
      p.catch(() => this.pipelines.delete(key));
      this.pipelines.set(key, p);
    }
    return p;
  }

  get size(): number {
    return this.pipelines.size;
  }
}
