// createProver({ limits: 'default' }) gets a device with only WebGPU's default limits and no
// optional feature (what a conformant browser on any phone must give), and SwiftShader's adapter
// offers more, so the second pass of the GPU checks in CI really is a different device: `npm test`
// ends with `npm start -- --limits default`, every all-check mode at these limits (the Playwright
// specs run them at the adapter's), and that run fails unless each mode's device had exactly the
// defaults (scripts/default-device.ts). The four modes this spec used to run at 'default' here
// (field, Poseidon2, grind, commit) are in that pass; runtime-check in the page's thread and
// msm-noble-check run at 'default' in their own specs too (runtime.spec.ts, msm.spec.ts).
// Cost: `npm start` and `npm start -- --limits default` run side by side on the shared 2-core
// machine took 1038 and 1034 s (ntt-check alone 461 and 470 s), so the pass at the defaults costs
// what the adapter-limits pass it replaces did, and the four modes dropped here save 32 s (quiet)
// to 107 s (shared machine).
import { test, expect } from '@playwright/test';
import { autorun } from './autorun.js';
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
