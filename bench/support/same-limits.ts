/**
 * The limits option that gives a second prover (or context) the device its page's prover has: a
 * check that builds one of its own under `--limits default` must not test the adapter's limits.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { OPTIONAL_FEATURES, SPEC_DEFAULT_LIMITS, type LimitName } from '../../src/gpu/limits.js';

/** { limits: 'default' } when `prover` holds a device with WebGPU's default limits and no optional feature; else {}. */
export function sameLimits(prover: Prover): { limits?: 'default' } {
  const { limits, features, backend } = prover.info;
  if (backend !== 'webgpu') return {};
  const defaults = Object.entries(SPEC_DEFAULT_LIMITS).every(([k, v]) => limits[k as LimitName] === v);
  const optional = features.some((f) => (OPTIONAL_FEATURES as readonly string[]).includes(f));
  return defaults && !optional ? { limits: 'default' } : {};
}
