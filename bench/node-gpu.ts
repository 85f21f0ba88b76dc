/**
 * WebGPU in Node through Dawn (the 'webgpu' package), for benchmarks on the GPU machine.
 * The GPU object is kept on globalThis: if it were garbage-collected Dawn would tear down
 * under live devices and the process would segfault.
 * @module
 */
export async function nodeGpu(): Promise<GPU> {
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  const gpu = create([]) as GPU;
  (globalThis as { __dawnGpu?: GPU }).__dawnGpu = gpu;
  return gpu;
}

/** gpu-kit's roofline.mjs (copy bandwidth and Montgomery rate) from .gpu-kit/, measured in the same run. */
export async function roofline(device: GPUDevice): Promise<{ copyGBs: number; montGmuls: number; copyLogN: number }> {
  const { pathToFileURL } = await import('node:url');
  const path = `${process.cwd()}/.gpu-kit/roofline.mjs`;
  const mod = await import(pathToFileURL(path).href);
  // Twice, best of each: the first call can run at idle clocks (an NTT run measured 196 G mul/s
  // first, against ~1080 warm), which would flatter every ratio to the limit.
  const a = await mod.measureRoofline(device);
  const b = await mod.measureRoofline(device);
  return { ...b, copyGBs: Math.max(a.copyGBs, b.copyGBs), montGmuls: Math.max(a.montGmuls, b.montGmuls) };
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
