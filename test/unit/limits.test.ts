// createProver's `limits` option (src/gpu/limits.ts): its shape checked before any adapter exists,
// and the device request it makes on an adapter (a fake one: the request is plain data).
import { describe, expect, it } from 'vitest';
import { deviceRequest, grantedLimits, LIMIT_NAMES, requireLimitsOption, SPEC_DEFAULT_LIMITS } from '../../src/gpu/limits.js';
import { requireProverOptions } from '../../src/options.js';
import { isProverError } from '../../src/errors.js';

/** An adapter like a laptop GPU's: every limit above the default, both optional features. */
const adapter = {
  limits: { ...Object.fromEntries(LIMIT_NAMES.map((n) => [n, SPEC_DEFAULT_LIMITS[n] * 4])), minStorageBufferOffsetAlignment: 256 },
  features: new Set(['timestamp-query', 'subgroups', 'shader-f16']),
} as unknown as GPUAdapter;

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return isProverError(e) ? `${e.code}: ${e.message}` : `not a ProverError: ${String(e)}`;
  }
  return 'no error';
};

describe('limits option', () => {
  it("'adapter' raises every limit a job reads to the adapter's and asks for the optional features it has", () => {
    const r = deviceRequest(adapter, 'adapter');
    expect(r.requiredLimits).toEqual(Object.fromEntries(LIMIT_NAMES.map((n) => [n, SPEC_DEFAULT_LIMITS[n] * 4])));
    expect([...r.requiredFeatures].sort()).toEqual(['subgroups', 'timestamp-query']); // never shader-f16: no kernel uses it
    expect(deviceRequest(adapter)).toEqual(r);
  });

  it("'default' asks for nothing: WebGPU's defaults, no optional feature", () => {
    expect(deviceRequest(adapter, 'default')).toEqual({ requiredLimits: {}, requiredFeatures: [] });
  });

  it('an object raises the named limits only, with no optional feature', () => {
    const o = requireLimitsOption({ maxStorageBufferBindingSize: 2 ** 28, maxComputeWorkgroupStorageSize: 'adapter' })!;
    expect(deviceRequest(adapter, o)).toEqual({
      requiredLimits: { maxStorageBufferBindingSize: 2 ** 28, maxComputeWorkgroupStorageSize: 4 * 16384 },
      requiredFeatures: [],
    });
    expect(deviceRequest(adapter, {})).toEqual({ requiredLimits: {}, requiredFeatures: [] });
  });

  it("a limit above the adapter's is INVALID_ARGUMENT naming the adapter's value", () => {
    const over = SPEC_DEFAULT_LIMITS.maxBufferSize * 4 + 1;
    expect(code(() => deviceRequest(adapter, { maxBufferSize: over }))).toBe(
      `INVALID_ARGUMENT: limits.maxBufferSize is ${over}, above this adapter's ${over - 1}; ask for at most ${over - 1}, or 'adapter'`,
    );
  });

  it('unknown names, bad values and wrong types are INVALID_ARGUMENT, checked by createProver before any adapter', () => {
    const bad: unknown[] = [
      'max',
      0,
      null,
      [],
      { maxBufferSize: 2 ** 28, maxBindGroups: 8 },
      { maxbuffersize: 2 ** 28 },
      { maxBufferSize: SPEC_DEFAULT_LIMITS.maxBufferSize - 1 },
      { maxBufferSize: 2.5e8 + 0.5 },
      { maxBufferSize: '268435456' },
      { maxBufferSize: Number.NaN },
      { maxBufferSize: 2 ** 60 },
      { maxComputeInvocationsPerWorkgroup: -1 },
      { [Symbol('x')]: 1 },
    ];
    for (const v of bad) {
      expect(
        code(() => requireLimitsOption(v)),
        String(JSON.stringify(v)),
      ).toMatch(/^INVALID_ARGUMENT: limits/);
      expect(code(() => requireProverOptions({ limits: v }))).toMatch(/^INVALID_ARGUMENT: limits/);
    }
    expect(code(() => requireLimitsOption({ maxBindGroups: 8 }))).toContain('known fields: maxBufferSize, maxStorageBufferBindingSize');
    for (const ok of [
      undefined,
      'adapter',
      'default',
      {},
      { maxBufferSize: SPEC_DEFAULT_LIMITS.maxBufferSize },
      { maxComputeWorkgroupSizeX: 'adapter' },
    ]) {
      expect(code(() => requireProverOptions({ limits: ok }))).toBe('no error');
    }
  });

  it('prover.info.limits lists every limit a job reads, as granted', () => {
    const device = { limits: { ...SPEC_DEFAULT_LIMITS, maxBindGroups: 4 } } as unknown as GPUDevice;
    expect(grantedLimits(device)).toEqual(SPEC_DEFAULT_LIMITS);
  });
});
