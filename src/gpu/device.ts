/**
 * Adapter and device acquisition. We ask for every limit a prover job can use, up to what the
 * adapter offers (WebGPU's defaults are small: 128 MiB bindings, 16 KiB workgroup memory), and
 * for `timestamp-query` and `subgroups` when present. Device loss is surfaced as a promise.
 * @module
 */
import { ProverError } from '../errors.js';

/** Limits raised to the adapter's maximum. */
const RAISED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupsPerDimension',
] as const;

const OPTIONAL_FEATURES = ['timestamp-query', 'subgroups'] as const;

export interface DeviceOptions {
  powerPreference?: GPUPowerPreference;
  /** Use the software fallback adapter (SwiftShader), e.g. for tests without a GPU. */
  forceFallbackAdapter?: boolean;
}

/**
 * What the kernels may use, and `cpu`: the adapter is a software rasterizer (SwiftShader), where
 * barriers are coroutine switches, so workgroup-memory kernels pick small workgroups there.
 */
export interface DeviceFeatures { timestamps: boolean; subgroups: boolean; cpu: boolean }

export interface AcquiredDevice {
  /** The entry point the adapter came from (callers must keep it alive as long as the device: see GpuContext.gpu). */
  gpu: GPU;
  adapter: GPUAdapter;
  device: GPUDevice;
  features: DeviceFeatures;
  /** Adapter description for reports: vendor, architecture, device. */
  description: string;
}

export async function acquireDevice(gpu: GPU | undefined | null, opts: DeviceOptions = {}): Promise<AcquiredDevice> {
  if (!gpu || typeof gpu.requestAdapter !== 'function') {
    throw new ProverError('NO_WEBGPU',
      'WebGPU is not available: in a browser use Chrome/Edge 113+, Safari 26+ or Firefox 141+ over https or localhost; ' +
      "in Node pass { gpu: create([]) } from the 'webgpu' package.");
  }
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({
      powerPreference: opts.powerPreference ?? 'high-performance',
      forceFallbackAdapter: opts.forceFallbackAdapter ?? false,
    });
  } catch (cause) {
    throw new ProverError('NO_WEBGPU', `requestAdapter failed: ${String(cause)}`, { cause });
  }
  if (!adapter) {
    throw new ProverError('NO_WEBGPU', 'No WebGPU adapter: the GPU may be blocklisted or disabled; check chrome://gpu or enable WebGPU.');
  }
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) {
    const v = (adapter.limits as unknown as Record<string, number>)[name];
    if (typeof v === 'number') requiredLimits[name] = v;
  }
  const requiredFeatures = OPTIONAL_FEATURES.filter((f) => adapter!.features.has(f)) as GPUFeatureName[];
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits, requiredFeatures, label: 'webgpu-prover' });
  } catch (cause) {
    throw new ProverError('NO_WEBGPU', `requestDevice failed: ${String(cause)}`, { cause });
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
