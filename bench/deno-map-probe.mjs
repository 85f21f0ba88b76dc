// The two Deno behaviours docs/portability.md ("Deno on a GPU") describes, in plain WebGPU, for an
// upstream report: (1) a mapAsync with nothing in flight takes >= 11 ms under Deno (0.01 ms under
// Dawn); (2) getMappedRange on a write-mapped buffer reads it back into JavaScript first, over PCIe
// on a discrete GPU (16 MiB: ~0.5 s under Deno, 0.01 ms under Dawn).
//   deno run --allow-env bench/deno-map-probe.mjs      node bench/deno-map-probe.mjs ('webgpu' installed)

async function gpuOf() {
  if (globalThis.navigator?.gpu) return navigator.gpu;
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  return (globalThis.__gpu = create([]));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function time(reps, f) {
  const ms = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return +median(ms).toFixed(3);
}

const adapter = await (await gpuOf()).requestAdapter();
const device = await adapter.requestDevice();
const MiB = 1 << 20;

const read = device.createBuffer({ size: MiB, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const idleMapMs = await time(10, async () => {
  await read.mapAsync(GPUMapMode.READ);
  read.unmap();
});

const write = device.createBuffer({ size: 16 * MiB, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC });
let rangeMs = 0;
const writeMapMs = await time(3, async () => {
  await write.mapAsync(GPUMapMode.WRITE);
  const t0 = performance.now();
  new Uint8Array(write.getMappedRange()).fill(1);
  rangeMs = performance.now() - t0;
  write.unmap();
});

const runtime = globalThis.Deno ? `deno ${Deno.version.deno}` : `node ${process.version}`;
console.log(JSON.stringify({ runtime, idleMapMs, writeMapMs, getMappedRangeAndFill16MiBMs: +rangeMs.toFixed(3) }));
device.destroy();
if (globalThis.Deno) Deno.exit(0);
else process.exit(0);
