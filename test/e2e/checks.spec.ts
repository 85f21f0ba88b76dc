// The self-check, run-time checks and CPU fallback in headless Chromium (bench/support/checks-check.ts):
// on the GPU through the default worker, then on a browser without WebGPU with fallback: 'cpu',
// whose answers must equal the GPU path's digest for digest.
import { test, expect, chromium } from '@playwright/test';
import { autorun, failures } from './autorun.js';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

const ANSWERS = /^every family's answers are right on the (gpu|cpu) path$/;

test("self-check and run-time checks catch a family forced wrong; fallback: cpu gives the GPU path's answers", async ({
  page,
  baseURL,
}) => {
  const gpu = await autorun(page, 'checks-check');
  expect(failures(gpu)).toEqual([]);
  const ok = gpu.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  expect(ok).toContain('a family forced wrong is caught by its self-check and runs on the CPU');
  expect(ok).toContain("check 'sample' catches a family forced wrong with CHECK_FAILED; the next job is right");
  const gpuDigests = gpu.rows.find((r) => ANSWERS.test(r.step) && r.status === 'ok')?.detail;
  expect(gpuDigests).toMatch(/field=\w+ ntt=\w+ poseidon2=\w+ merkle=\w+ grind=\w+ commit=\w+ msm=\w+/);

  // A browser without WebGPU: no --enable-unsafe-webgpu, no SwiftShader adapter, the feature switched off.
  const args = chromiumArgs().filter((a) => a !== '--enable-unsafe-webgpu' && !a.startsWith('--use-webgpu'));
  const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: [...args, '--disable-features=WebGPU'] });
  try {
    const noGpu = await browser.newPage({ baseURL });
    const cpu = await autorun(noGpu, 'fallback-check', { fallback: 'cpu' });
    // Chromium keeps navigator.gpu there but grants no adapter: WebGPU is unavailable all the same.
    expect(await noGpu.evaluate(async () => !navigator.gpu || (await navigator.gpu.requestAdapter()) === null)).toBe(true);
    expect(failures(cpu)).toEqual([]);
    const cpuDigests = cpu.rows.find((r) => ANSWERS.test(r.step))?.detail;
    expect(cpuDigests).toBe(gpuDigests);
  } finally {
    await browser.close();
  }
});
