// The GPU checks a second time on a device that has only WebGPU's default limits and no optional
// feature (createProver({ limits: 'default' })): what a conformant browser on any phone must give.
// Each run's device is checked first (its 'adapter' row carries prover.info.limits and .features),
// so a default-limits run that silently got the adapter's limits fails. runtime-check and
// msm-noble-check run at 'default' in their own specs (runtime.spec.ts, msm.spec.ts).
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';
import { SPEC_DEFAULT_LIMITS } from '../../src/gpu/limits.js';
import type { AutorunResult } from '../../bench/support/autorun-result.js';

/** WebGPU core itself, which Chrome lists among a core device's features. */
const CORE = ['core-features-and-limits'];

function device(result: AutorunResult): { limits: Record<string, number>; features: string[] } {
  const row = result.rows.find((r) => r.step === 'adapter');
  expect(row, 'the run reports its device').toBeDefined();
  return { limits: row!.limits as Record<string, number>, features: row!.features as string[] };
}

function expectDefaultDevice(result: AutorunResult): void {
  const { limits, features } = device(result);
  expect(limits).toEqual(SPEC_DEFAULT_LIMITS);
  expect(features.filter((f) => !CORE.includes(f))).toEqual([]);
}

test("limits: 'default' gets exactly WebGPU's default limits and no optional feature; the adapter's are larger", async ({ page }) => {
  expectDefaultDevice(await autorun(page, 'device-info', { limits: 'default', worker: '0' }));
  // The same check on the default device (adapter limits) must fail: SwiftShader offers more.
  const raised = device(await autorun(page, 'device-info', { worker: '0' }));
  expect(raised.limits).not.toEqual(SPEC_DEFAULT_LIMITS);
  expect(Object.entries(raised.limits).some(([k, v]) => v > SPEC_DEFAULT_LIMITS[k as keyof typeof SPEC_DEFAULT_LIMITS])).toBe(true);
});

// CI-sized inputs, as in the adapter-limits specs: 32 s in all on this 2-core machine when quiet,
// 107 s while other test runs shared it, most of it commit-check's compiles. The NTT and the Merkle
// tree run at these limits inside commit-check (24 encode + commit cases: the plans pick tiles for
// 16 KiB of workgroup memory and 256 threads). ntt-check (4.3 min at these limits on SwiftShader,
// passing) and merkle-check (~20 s) would put CI past its budget:
// `npm start -- --mode ntt-check --limits default` runs them by hand.
for (const mode of ['field-check', 'poseidon2-check', 'grind-check', 'commit-check']) {
  test(`${mode} at WebGPU's default limits`, async ({ page }) => {
    const result = await autorun(page, mode, { limits: 'default' });
    expectDefaultDevice(result);
    expect(failures(result)).toEqual([]);
    expect(result.status).toBe('ok');
    expect(result.rows.filter((r) => r.status === 'ok').length).toBeGreaterThan(0);
  });
}
