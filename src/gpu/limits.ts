/**
 * Which device limits and optional features a prover asks for (createProver's `limits` option):
 * 'adapter' (every limit a job can use, at the adapter's maximum, plus timestamp-query and
 * subgroups where offered), 'default' (WebGPU's default limits and no optional feature: what
 * every conformant device grants, the floor phones are held to), or an object of per-limit
 * overrides on top of the defaults. Checked here without an adapter (option shape) and against
 * the adapter once it exists (a value it cannot grant).
 * @module
 */
import { ProverError } from '../errors.js';
import { requireOptions, show } from '../validate.js';

/**
 * WebGPU's default for each limit a prover job reads (gpuweb spec, "Limits" table): what a device
 * gets when it asks for nothing. Every plan must fit these.
 */
export const SPEC_DEFAULT_LIMITS = {
  maxBufferSize: 268_435_456,
  maxStorageBufferBindingSize: 134_217_728,
  maxStorageBuffersPerShaderStage: 8,
  maxComputeWorkgroupStorageSize: 16_384,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupsPerDimension: 65_535,
} as const;

export type LimitName = keyof typeof SPEC_DEFAULT_LIMITS;
export const LIMIT_NAMES = Object.keys(SPEC_DEFAULT_LIMITS) as LimitName[];

/** Per-limit requests: a number (at least WebGPU's default), or 'adapter' for the adapter's maximum. */
export type LimitOverrides = Partial<Record<LimitName, number | 'adapter'>>;

/** createProver's `limits` option. */
export type LimitsOption = 'adapter' | 'default' | LimitOverrides;

/** Optional features the kernels use when the device has them (profiling; subgroup reductions). */
export const OPTIONAL_FEATURES = ['timestamp-query', 'subgroups'] as const;

/** The `limits` option, checked for shape: a known mode, or known limit names with sane values. */
export function requireLimitsOption(v: unknown): LimitsOption | undefined {
  if (v === undefined || v === 'adapter' || v === 'default') return v;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `limits must be 'adapter', 'default' or an object of limits ({ maxStorageBufferBindingSize: 268435456 }), got ${show(v)}`,
    );
  }
  const o = requireOptions<LimitOverrides>('limits', v, false, LIMIT_NAMES) as Record<string, unknown>;
  for (const name of LIMIT_NAMES) {
    const x = o[name];
    if (x === undefined || x === 'adapter') continue;
    const floor = SPEC_DEFAULT_LIMITS[name];
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < floor) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        `limits.${name} must be 'adapter' or an integer of at least WebGPU's default ${floor} (every device grants that), got ${show(x)}`,
      );
    }
  }
  return o as LimitOverrides;
}

/** What requestDevice is asked for. */
export interface DeviceRequest {
  requiredLimits: Record<string, number>;
  requiredFeatures: GPUFeatureName[];
}

/**
 * The request for `option` on `adapter`. An override above what the adapter offers is refused
 * here with the adapter's value, rather than as requestDevice's OperationError.
 */
export function deviceRequest(adapter: Pick<GPUAdapter, 'limits' | 'features'>, option: LimitsOption = 'adapter'): DeviceRequest {
  const offered = adapter.limits as unknown as Record<string, number>;
  const requiredLimits: Record<string, number> = {};
  if (option === 'default') return { requiredLimits, requiredFeatures: [] };
  if (option === 'adapter') {
    for (const name of LIMIT_NAMES) if (typeof offered[name] === 'number') requiredLimits[name] = offered[name];
    return { requiredLimits, requiredFeatures: OPTIONAL_FEATURES.filter((f) => adapter.features.has(f)) as GPUFeatureName[] };
  }
  for (const name of LIMIT_NAMES) {
    const want = option[name];
    if (want === undefined) continue;
    const max = offered[name];
    if (want !== 'adapter' && typeof max === 'number' && want > max) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        `limits.${name} is ${want}, above this adapter's ${max}; ask for at most ${max}, or 'adapter'`,
      );
    }
    requiredLimits[name] = want === 'adapter' ? max : want;
  }
  // Overrides name limits only: optional features stay off, as with 'default'.
  return { requiredLimits, requiredFeatures: [] };
}

/** The granted values of every limit a job reads (prover.info.limits). */
export function grantedLimits(device: Pick<GPUDevice, 'limits'>): Record<LimitName, number> {
  const granted = device.limits as unknown as Record<string, number>;
  return Object.fromEntries(LIMIT_NAMES.map((n) => [n, granted[n]])) as Record<LimitName, number>;
}
