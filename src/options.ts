/**
 * createProver's options and their check, apart from the prover itself: createProver in a page
 * loads only this and the worker client; the in-thread prover (src/prover.ts, every kernel's
 * WGSL) is imported only where it runs, so a page bundle does not ship it beside the worker's.
 * @module
 */
import { ProverError } from './errors.js';
import { optionalBoolean, requireOptions, show } from './validate.js';
import { requireCheckMode, type CheckMode } from './sched/job.js';
import { requireWarmUpFamilies, type WarmUpFamily } from './warm-up-families.js';
import { requireLimitsOption, type LimitsOption } from './gpu/limits.js';

/**
 * The part of WebGPU's `GPU` object that createProver calls: `navigator.gpu` and Dawn's
 * `create([])` both fit. Spelled out here instead of `GPU` so the published declarations
 * compile in a project without WebGPU typings (`@webgpu/types` stays a devDependency): the
 * public API names no other WebGPU type.
 */
export interface GpuEntryPoint {
  requestAdapter(options?: { powerPreference?: GpuPowerPreference; forceFallbackAdapter?: boolean }): Promise<unknown>;
}

/** WebGPU's GPUPowerPreference. */
export type GpuPowerPreference = 'low-power' | 'high-performance';

export interface ProverOptions {
  /**
   * The WebGPU entry point: `navigator.gpu` in browsers (the default); in Node,
   * `create([])` from the 'webgpu' package. The prover holds it (and its adapter and device)
   * for its own life, so `createProver({ gpu: create([]) })` is safe as written.
   */
  gpu?: GpuEntryPoint;
  powerPreference?: GpuPowerPreference;
  /** Use the software fallback adapter (SwiftShader), for tests on machines without a GPU. */
  forceFallbackAdapter?: boolean;
  /**
   * 'adapter' (the default): the device gets every limit the adapter offers. 'default': only
   * WebGPU's default limits and no optional feature (128 MiB bindings, 16 KiB workgroup memory,
   * 256 invocations), the floor every device guarantees: to check that your jobs fit the most
   * limited phones and browsers. An object names limits one by one on top of the defaults, each
   * a number or 'adapter' (`{ maxStorageBufferBindingSize: 'adapter' }`), with no optional
   * feature; a value below WebGPU's default, an unknown name, or a value above the adapter's
   * throws INVALID_ARGUMENT. prover.info.limits and .features say what the device was granted.
   */
  limits?: LimitsOption;
  /**
   * Where the prover runs. In a browser page the default is `true`: a module worker started
   * from this package (`new Worker(new URL('./worker.js', import.meta.url))`), so the page's
   * thread stays free. `false`: in this thread (the default in Node, in workers, and with `gpu`).
   * A `Worker` you started from `webgpu-prover/worker`, or that script's URL: for bundlers that
   * do not follow workers inside dependencies (docs/worker.md).
   */
  worker?: boolean | Worker | string | URL;
  /**
   * Run-time checks of GPU results against the CPU references (docs/checks.md): 'sample' (the
   * default), 'off' or 'full'; a call's own `check` option overrides it. A result that differs
   * throws CHECK_FAILED and moves its family to the CPU path.
   */
  check?: CheckMode;
  /**
   * Before a family's first job, run a small known-answer job of it on the GPU and compare it
   * with the CPU reference; a family that fails runs on the CPU from then on
   * (prover.capabilities()). Default true.
   */
  selfCheck?: boolean;
  /**
   * 'cpu': where WebGPU is missing or no adapter is granted, run every family on the CPU
   * references instead of failing with NO_WEBGPU (same API, same results, much slower;
   * prover.info.backend is 'cpu').
   */
  fallback?: 'cpu';
  /** Compile these kernel families' pipelines in the background from the start (`true`: all); see Prover.warmUp. */
  warmUp?: boolean | readonly WarmUpFamily[];
}

/** createProver's options, checked (the `worker` option is createProver's to read). */
export function requireProverOptions(options: unknown): ProverOptions {
  const opts = requireOptions<ProverOptions>('createProver options', options, true);
  optionalBoolean('forceFallbackAdapter', opts.forceFallbackAdapter);
  optionalBoolean('selfCheck', opts.selfCheck);
  requireCheckMode('check', opts.check);
  if (opts.fallback !== undefined && opts.fallback !== 'cpu') {
    throw new ProverError('INVALID_ARGUMENT', `fallback must be 'cpu' (or left out), got ${show(opts.fallback)}`);
  }
  requireLimitsOption(opts.limits);
  if (opts.powerPreference !== undefined && opts.powerPreference !== 'low-power' && opts.powerPreference !== 'high-performance') {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `powerPreference must be 'low-power' or 'high-performance', got ${show(opts.powerPreference)}`,
    );
  }
  if (
    opts.gpu !== undefined &&
    (typeof opts.gpu !== 'object' || opts.gpu === null || typeof (opts.gpu as GPU).requestAdapter !== 'function')
  ) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `gpu must be a WebGPU entry point (navigator.gpu, or create([]) from the 'webgpu' package in Node), got ${show(opts.gpu)}`,
    );
  }
  if (opts.warmUp !== undefined && typeof opts.warmUp !== 'boolean') requireWarmUpFamilies(opts.warmUp, 'warmUp');
  return opts;
}
