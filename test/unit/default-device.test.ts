// npm test's second pass of the GPU checks (`npm start -- --limits default`) fails unless its
// device had exactly WebGPU's default limits and no optional feature (scripts/default-device.ts).
// The rows here have the shape demo/autorun.ts emits; the raised limits are SwiftShader's adapter
// limits as headless Chromium reported them (test/e2e/default-limits.spec.ts checks that live).
import { describe, expect, it } from 'vitest';
import { notDefaultDevice } from '../../scripts/default-device.js';
import { SPEC_DEFAULT_LIMITS } from '../../src/gpu/limits.js';
import type { AutorunResult } from '../../bench/support/autorun-result.js';

function run(limits: Record<string, number>, features: string[]): AutorunResult {
  return {
    finished: true,
    status: 'ok',
    runId: 'r',
    mode: 'all-check',
    adapter: 'SwiftShader',
    rows: [
      { mode: 'all-check', step: 'adapter', status: 'info', ms: 1, limits, features },
      { mode: 'all-check', step: 'field mul', status: 'ok', ms: 1 },
    ],
  };
}

describe('notDefaultDevice', () => {
  it("accepts WebGPU's default limits with WebGPU core as the only feature", () => {
    expect(notDefaultDevice(run({ ...SPEC_DEFAULT_LIMITS }, ['core-features-and-limits']))).toBeUndefined();
    expect(notDefaultDevice(run({ ...SPEC_DEFAULT_LIMITS }, []))).toBeUndefined();
  });

  it("refuses a device with the adapter's limits, any raised limit, a missing limit or an optional feature", () => {
    expect(
      notDefaultDevice(
        run({ ...SPEC_DEFAULT_LIMITS, maxStorageBufferBindingSize: 2 ** 31 - 1, maxComputeWorkgroupStorageSize: 32768 }, []),
      ),
    ).toMatch(/maxStorageBufferBindingSize 2147483647 \(default 134217728\), maxComputeWorkgroupStorageSize 32768/);
    expect(notDefaultDevice(run({ ...SPEC_DEFAULT_LIMITS, maxComputeInvocationsPerWorkgroup: 1024 }, []))).toMatch(
      /maxComputeInvocationsPerWorkgroup 1024/,
    );
    const { maxBufferSize: _, ...missing } = SPEC_DEFAULT_LIMITS;
    expect(notDefaultDevice(run(missing, []))).toMatch(/maxBufferSize undefined/);
    expect(notDefaultDevice(run({ ...SPEC_DEFAULT_LIMITS }, ['core-features-and-limits', 'subgroups']))).toBe(
      'optional features granted: subgroups',
    );
    expect(notDefaultDevice(run({ ...SPEC_DEFAULT_LIMITS }, ['timestamp-query']))).toBe('optional features granted: timestamp-query');
  });

  it('refuses a run that reported no device', () => {
    expect(notDefaultDevice({ ...run({}, []), rows: [] })).toBe('the run reported no device');
  });
});
