/**
 * Adapter and device acquisition. By default we ask for every limit a prover job can use, up to
 * what the adapter offers (WebGPU's defaults are small: 128 MiB bindings, 16 KiB workgroup memory),
 * and for `timestamp-query` and `subgroups` when present; `limits` (limits.ts) can ask for the
 * defaults only or name limits one by one. Device loss is surfaced as a promise.
 * @module
 */
import { ProverError } from '../errors.js';
import { deviceRequest, type LimitsOption } from './limits.js';
import { detectRuntime, type Runtime } from './runtime.js';

export interface DeviceOptions {
  powerPreference?: GPUPowerPreference;
  /** Use the software fallback adapter (SwiftShader), e.g. for tests without a GPU. */
  forceFallbackAdapter?: boolean;
  /**
   * 'adapter' (the default): every limit a job can use raised to the adapter's maximum, and
   * timestamp-query / subgroups where offered. 'default': WebGPU's default limits and no optional
   * feature, what every device guarantees (the floor iOS and Android devices are held to). An
   * object: the defaults with the named limits raised, no optional feature (limits.ts).
   */
  limits?: LimitsOption;
}

/**
 * What the kernels may use, and `cpu`: the adapter is a software rasterizer (SwiftShader), where
 * barriers are coroutine switches, so workgroup-memory kernels pick small workgroups there.
 */
export interface DeviceFeatures {
  timestamps: boolean;
  subgroups: boolean;
  cpu: boolean;
}

export interface AcquiredDevice {
  /** The entry point the adapter came from (callers must keep it alive as long as the device: see GpuContext.gpu). */
  gpu: GPU;
  adapter: GPUAdapter;
  device: GPUDevice;
  features: DeviceFeatures;
  /** Adapter description for reports: vendor, architecture, device. */
  description: string;
}

/** No WebGPU entry point at all: where this runtime's WebGPU comes from. */
function noEntryPoint(rt: Runtime): string {
  if (rt.kind === 'node')
    return (
      `WebGPU is not available: ${rt.name} has no navigator.gpu. Install the 'webgpu' package (Dawn) and pass its GPU object: ` +
      "import { create, globals } from 'webgpu'; Object.assign(globalThis, globals); createProver({ gpu: create([]) })."
    );
  if (rt.kind === 'deno')
    return (
      `WebGPU is not available: ${rt.name} has no navigator.gpu. Deno's own WebGPU (wgpu) needs Deno 2.0 or later ` +
      '(Deno 1.39-1.46: run with --unstable-webgpu) and a GPU driver: Vulkan on Linux, Metal on macOS, D3D12 on Windows.'
    );
  return (
    'WebGPU is not available in this browser: use Chrome/Edge 113+, Safari 26+ or Firefox 141+, in a secure context ' +
    "(a page over https or from localhost, not file://); in Node pass { gpu: create([]) } from the 'webgpu' package."
  );
}

/**
 * What to do when the runtime gives no adapter (`reason`: the runtime's, when requestAdapter threw).
 * Node: Dawn resolves requestAdapter with null when no backend loads and prints its reason on stderr
 * (seen here: "Couldn't load Vulkan: libvulkan.so.1: cannot open shared object file"), so the message
 * points there when it has no reason itself (not "above": that warning can reach the terminal after
 * our error does). Deno: wgpu tries Vulkan, Metal, D3D12, then OpenGL (DENO_WEBGPU_BACKEND narrows
 * that); null means none loaded. A browser: its own message is the useful part.
 */
function noAdapter(rt: Runtime, reason: string | undefined): string {
  if (rt.kind === 'node') {
    const why = reason ? `Dawn's reason: ${reason}` : 'Dawn prints its reason, if it has one, on stderr';
    return (
      `No WebGPU adapter in ${rt.name}: Dawn (the 'webgpu' package) found no usable GPU driver: Vulkan on Linux, ` +
      `Metal on macOS, D3D12 on Windows (${why}). On Linux install the Vulkan loader and a Vulkan driver ` +
      "(Debian/Ubuntu: apt-get install libvulkan1 mesa-vulkan-drivers, or your GPU vendor's driver); " +
      'on macOS or Windows update the GPU driver. Or run in a browser with WebGPU.'
    );
  }
  if (rt.kind === 'deno') {
    const why = reason ? `wgpu's reason: ${reason}` : 'none of its backends loaded';
    return (
      `No WebGPU adapter in ${rt.name}: its WebGPU (wgpu) found no usable GPU driver: Vulkan on Linux, Metal on macOS, ` +
      `D3D12 on Windows (${why}; DENO_WEBGPU_BACKEND, where set, limits the backends it tries). On Linux install a Vulkan ` +
      "driver (Debian/Ubuntu: apt-get install mesa-vulkan-drivers, whose lavapipe runs Vulkan on the CPU, or your GPU vendor's " +
      'driver): without one wgpu falls back to OpenGL, many times slower; on macOS or Windows update the GPU driver.'
    );
  }
  return reason
    ? `requestAdapter failed in this browser: ${reason}`
    : 'No WebGPU adapter in this browser: the GPU may be blocklisted or WebGPU disabled; check chrome://gpu (Chrome, Edge) or about:support (Firefox), or enable WebGPU.';
}

export async function acquireDevice(gpu: GPU | undefined | null, opts: DeviceOptions = {}): Promise<AcquiredDevice> {
  const rt = detectRuntime();
  if (!gpu || typeof gpu.requestAdapter !== 'function') throw new ProverError('NO_WEBGPU', noEntryPoint(rt));
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({
      powerPreference: opts.powerPreference ?? 'high-performance',
      forceFallbackAdapter: opts.forceFallbackAdapter ?? false,
    });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ProverError('NO_WEBGPU', noAdapter(rt, reason), { cause });
  }
  if (!adapter) throw new ProverError('NO_WEBGPU', noAdapter(rt, undefined));
  const { requiredLimits, requiredFeatures } = deviceRequest(adapter, opts.limits);
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits, requiredFeatures, label: 'webgpu-prover' });
  } catch (cause) {
    throw new ProverError('NO_WEBGPU', `requestDevice failed in ${rt.name}: ${String(cause)}`, { cause });
  }
  const info = adapter.info;
  const description = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') || 'unknown adapter';
  const fallback = (info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter === true;
  const cpu = fallback || /swiftshader|llvmpipe|lavapipe|warp/i.test(description);
  return {
    gpu,
    adapter,
    device,
    features: { timestamps: device.features.has('timestamp-query'), subgroups: device.features.has('subgroups'), cpu },
    description,
  };
}
