/**
 * `npm start -- --limits default` (what `npm test` runs) must have run on a device with only
 * WebGPU's default limits and no optional feature: a device that silently got the adapter's limits
 * would pass every check while testing nothing new. Unit-tested in test/unit/default-device.test.ts.
 * @module
 */
import { SPEC_DEFAULT_LIMITS } from '../src/gpu/limits.js';
import type { AutorunResult } from '../demo/autorun.js';

/** WebGPU core itself, which Chrome lists among a core device's features. */
export const CORE_FEATURES = ['core-features-and-limits'];

/**
 * With `--limits default`: why the run's device is not one with only WebGPU's default limits and no
 * optional feature (its 'adapter' row carries prover.info.limits and .features), or undefined.
 */
export function notDefaultDevice(result: AutorunResult): string | undefined {
  const row = result.rows.find((r) => r.step === 'adapter');
  if (!row) return 'the run reported no device';
  const limits = row.limits as Record<string, number>;
  const features = (row.features as string[]).filter((f) => !CORE_FEATURES.includes(f));
  const off = Object.entries(SPEC_DEFAULT_LIMITS)
    .filter(([k, v]) => limits[k] !== v)
    .map(([k, v]) => `${k} ${limits[k]} (default ${v})`);
  if (off.length || Object.keys(limits).length !== Object.keys(SPEC_DEFAULT_LIMITS).length)
    return `limits not WebGPU's defaults: ${off.join(', ') || JSON.stringify(limits)}`;
  return features.length ? `optional features granted: ${features.join(', ')}` : undefined;
}
