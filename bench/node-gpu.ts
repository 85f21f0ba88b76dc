/**
 * WebGPU in Node through Dawn (the 'webgpu' package), for benchmarks on the GPU machine; under
 * Deno its own navigator.gpu (wgpu), so the same bundle runs there (`deno run -A bench/dist/bench.mjs`).
 * The GPU object is kept on globalThis: if it were garbage-collected Dawn would tear down
 * under live devices and the process would segfault.
 * @module
 */
export async function nodeGpu(): Promise<GPU> {
  if ('Deno' in globalThis && globalThis.navigator?.gpu) return navigator.gpu;
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  // DAWN_FLAGS='enable-dawn-features=a,b;disable-dawn-features=c': Dawn's own flags, ';'-separated
  // (compile-time experiments: bench/msm-compile.ts).
  const flags = (process.env.DAWN_FLAGS ?? '').split(';').filter((f) => f.length > 0);
  const gpu = create(flags) as GPU;
  (globalThis as { __dawnGpu?: GPU }).__dawnGpu = gpu;
  return gpu;
}

/** A device's roofline: copy bandwidth (GB/s), BabyBear Montgomery rate (G mul/s), log2 of the copy's words; null without a probe. */
export interface Roofline {
  copyGBs: number | null;
  montGmuls: number | null;
  copyLogN: number | null;
}

/**
 * The roofline probe that ROOFLINE_PROBE names (a path to an ES module exporting
 * `measureRoofline(device)`: copy bandwidth and Montgomery rate), measured in the same run: repeated
 * for >= 1.5 s (it times each kernel by wall clock, a few ms in all, so a single call at idle
 * clocks read 196-255 G mul/s against ~1080 warm) and the best of each figure kept. With `gpu`,
 * on a device of its own (the NTT bench's read low on its context's device even when warm).
 * Without ROOFLINE_PROBE every figure is null, and so is every ratio a row takes from it.
 */
export async function roofline(device: GPUDevice, gpu?: GPU): Promise<Roofline> {
  const probe = process.env.ROOFLINE_PROBE;
  if (!probe) return { copyGBs: null, montGmuls: null, copyLogN: null };
  const { pathToFileURL } = await import('node:url');
  const { resolve } = await import('node:path');
  const mod = await import(pathToFileURL(resolve(probe)).href);
  let dev = device;
  if (gpu) {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter) {
      const { maxStorageBufferBindingSize, maxBufferSize } = adapter.limits;
      dev = await adapter.requestDevice({ requiredLimits: { maxStorageBufferBindingSize, maxBufferSize } });
    }
  }
  try {
    let best = await mod.measureRoofline(dev);
    const t0 = performance.now();
    for (let i = 0; i < 2 || performance.now() - t0 < 1500; i++) {
      const r = await mod.measureRoofline(dev);
      best = { ...r, copyGBs: Math.max(best.copyGBs, r.copyGBs), montGmuls: Math.max(best.montGmuls, r.montGmuls) };
    }
    return best;
  } finally {
    if (dev !== device) dev.destroy();
  }
}

/**
 * Run `once` until `minMs` of wall time has passed (at least twice). The H100 idles at ~345 MHz
 * and ramps its clock only under sustained load: a single untimed rep left the first timed
 * configuration of each group up to 5x slower than the same kernel timed later in the run.
 */
export async function warmUp(once: () => Promise<unknown>, minMs = 300): Promise<void> {
  const t0 = performance.now();
  for (let i = 0; i < 2 || performance.now() - t0 < minMs; i++) await once();
}

/**
 * Run each of `runs` with the next one already started: a prover job's CPU part before its
 * GPU job (input encoding) overlaps the run ahead, whose GPU job it queues behind, so the GPU
 * idles only for a readback between runs. The H100 holds a low clock under loads that leave
 * it idle between submits (an MSM run at a time: 495-780 MHz at 2^20); see gpu-clock.ts.
 */
export async function backToBack(runs: (() => Promise<unknown>)[]): Promise<void> {
  let ahead: Promise<unknown> | null = null;
  for (const run of runs) {
    const started = run();
    if (ahead) await ahead;
    ahead = started;
  }
  await ahead;
}
