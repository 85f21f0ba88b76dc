// The GPU WHIR sumcheck engine (src/whir/gpu-engine.ts) equals CpuSumcheckEngine output for output
// through the prover's sequence of calls at 2^1..2^13 values (SwiftShader), with and without the
// hand-off of small tables to the CPU, and refuses tables past the binding limit with TOO_LARGE;
// WHIR's table commit keeps its upload for an engine that reads it unchanged.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('GPU sumcheck engine equals CpuSumcheckEngine (evaluate, eq/select claims, rounds, binds, evals) at 2^1..2^13', async ({ page }) => {
  const result = await autorun(page, 'whir-engine-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const ok = result.rows.filter((r) => r.status === 'ok');
  expect(ok.filter((r) => r.step.endsWith('GPU throughout')).length).toBe(6);
  expect(ok.filter((r) => r.step.includes('handing off')).length).toBe(2);
  expect(ok.filter((r) => r.step === 'whir engine past the binding limit').length).toBe(1);
  expect(ok.filter((r) => r.step === 'whir engine round commit from the GPU buffer').length).toBe(1);
  expect(ok.filter((r) => r.step.startsWith('whir table commit kept for the engine')).length).toBe(1);
});
