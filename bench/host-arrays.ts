/**
 * Host arrays in and out (`node bench/dist/host-arrays.mjs`, after `npm run bench:bundle`): what
 * a caller waits for when it hands the prover a Uint32Array and wants one back, next to what the
 * copies alone cost through the same GPUDevice. Public API only, so the same file bundled against
 * an earlier commit's sources measures the previous version in the same device command.
 * Rows: bare 4 / 16 / 64 MB uploads (writeBuffer; the staging ring where this version has one)
 * and readbacks (a fresh array; into a reused array), GB/s, medians of 7; then dft 2^24 x 1,
 * lde 2^24 -> 2^25 x 1, poseidon2 over 2^20 width-16 states and merkleCommit of 2^20 x 16, end to
 * end with a fresh result and with `out`, medians of 5, each over the transfer bound (its input
 * up and output down at this run's ring / reused-array rates). Every result is checked once
 * against src/ref (the NTTs' first rows, Poseidon2's first states) before timing.
 * @module
 */
import { create, globals } from 'webgpu';
import { createProver } from '../src/index.js';
import { GpuContext } from '../src/gpu/context.js';
import { nttEntry } from '../src/checks/ntt-entry.js';
import type { NttSpec } from '../src/kernels/ntt-spec.js';
import { poseidon2 } from '../src/ref/poseidon2.js';
import { BB_P } from '../src/params/babybear.js';
import { median } from '../test/support/stats.js';

Object.assign(globalThis, globals);
const gpu = create([]) as GPU;
const rows: Record<string, unknown>[] = [];
const emit = (r: Record<string, unknown>) => { rows.push(r); console.log(JSON.stringify(r)); };
const values = (n: number) => { const v = new Uint32Array(n); let x = 12345; for (let i = 0; i < n; i++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; v[i] = x % BB_P; } return v; };

async function timeIt(f: () => Promise<unknown>, reps: number): Promise<number> {
  await f();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    t.push(performance.now() - t0);
  }
  return median(t);
}

// HOST_ARRAYS_ONLY=dft: the bare transfers and the dft row alone (for a CPU profile).
const only = process.env.HOST_ARRAYS_ONLY;

// ---- bare transfers through one GpuContext ----
const ctx = await GpuContext.create(gpu);
const ring = typeof (ctx as { uploadAsync?: unknown }).uploadAsync === 'function';
const rate: Record<string, number> = {};
for (const mb of [4, 16, 64]) {
  const data = values(mb << 18);
  const bytes = data.byteLength;
  const gbs = (ms: number) => +(bytes / ms / 1e6).toFixed(2);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const up = (buf: GPUBuffer) => ctx.pool.release(buf);
  const wb = await timeIt(async () => { up(ctx.upload(data)); await ctx.device.queue.onSubmittedWorkDone(); }, 7);
  const rg = ring ? await timeIt(async () => { up(await (ctx as unknown as { uploadAsync(d: Uint32Array): Promise<GPUBuffer> }).uploadAsync(data)); await ctx.device.queue.onSubmittedWorkDone(); }, 7) : NaN;
  const src = ctx.pool.acquire(bytes, usage, 'probe');
  ctx.device.queue.writeBuffer(src, 0, data);
  const fresh = await timeIt(() => ctx.readback(src, data.length), 7);
  const reused = new Uint32Array(data.length);
  const into = ring ? await timeIt(() => (ctx as unknown as { readback(b: GPUBuffer, n: number, o: Uint32Array): Promise<Uint32Array> }).readback(src, data.length, reused), 7) : NaN;
  const back = await ctx.readback(src, data.length);
  if (!back.every((v, i) => v === data[i])) throw new Error(`readback of ${mb} MB differs`);
  ctx.pool.release(src);
  emit({ row: 'transfer', MB: mb, uploadWriteBufferGBs: gbs(wb), uploadRingGBs: ring ? gbs(rg) : null, readbackFreshGBs: gbs(fresh), readbackIntoOutGBs: ring ? gbs(into) : null });
  if (mb === 64) Object.assign(rate, { up: ring ? bytes / rg : bytes / wb, down: ring ? bytes / into : bytes / fresh });
}
ctx.destroy();

// ---- jobs from and to host arrays ----
const prover = await createProver({ gpu, check: 'off', selfCheck: false } as never);
const bound = (inBytes: number, outBytes: number) => inBytes / rate.up + outBytes / rate.down;
const job = async (name: string, inBytes: number, outLen: number, run: (out?: Uint32Array) => Promise<Uint32Array>, right: (r: Uint32Array) => boolean) => {
  if (!right(await run())) throw new Error(`${name}: wrong result`);
  const fresh = await timeIt(() => run(), 5);
  const out = new Uint32Array(outLen);
  const withOut = ring ? await timeIt(() => run(out), 5) : NaN;
  const b = bound(inBytes, outLen * 4);
  emit({ row: 'job', job: name, freshMs: +fresh.toFixed(1), outMs: ring ? +withOut.toFixed(1) : null, transferBoundMs: +b.toFixed(1), freshOverBound: +(fresh / b).toFixed(2), outOverBound: ring ? +(withOut / b).toFixed(2) : null });
};
const n24 = values(1 << 24);
// Rows checked from their definition (src/checks/ntt-entry.ts): a 2^24 reference transform in JS takes seconds.
const rowsRight = (r: Uint32Array, spec: NttSpec) => [0, 1, 12345, r.length - 1].every((row) => r[row] === nttEntry(spec, n24, row, 0));
await job('dft 2^24 x 1', n24.byteLength, 1 << 24, (out) => prover.dft(n24, { width: 1, ...(out ? { out } : {}) }), (r) => rowsRight(r, { op: 'dft', height: 1 << 24, width: 1, bitReversed: false }));
if (only === 'dft') process.exit(0);
await job('lde 2^24 -> 2^25 x 1', n24.byteLength, 1 << 25, (out) => prover.lde(n24, { width: 1, addedBits: 1, shift: 31, ...(out ? { out } : {}) }),
  (r) => rowsRight(r, { op: 'lde', height: 1 << 24, width: 1, bitReversed: false, addedBits: 1, shift: 31 }));
const states = n24.subarray(0, 16 << 20);
await job('poseidon2 2^20 x 16', states.byteLength, 16 << 20, (out) => prover.poseidon2(states, { width: 16, ...(out ? { out } : {}) }),
  (r) => [0, 1, 2, (1 << 20) - 1].every((s) => poseidon2(states.subarray(16 * s, 16 * s + 16)).every((v, i) => v === r[16 * s + i])));
const t0 = performance.now();
let root: Uint32Array | undefined;
const commitMs = await timeIt(async () => { const c = await prover.merkleCommit(n24, { width: 16 }); root = c.root; c.tree.dispose(); }, 5);
const b = bound(n24.byteLength, 32);
emit({ row: 'job', job: 'merkleCommit 2^20 x 16', freshMs: +commitMs.toFixed(1), outMs: null, transferBoundMs: +b.toFixed(1), freshOverBound: +(commitMs / b).toFixed(2), root: Array.from(root!).join(','), wallS: +((performance.now() - t0) / 1000).toFixed(1) });
prover.destroy();
if (process.argv[2]) (await import('node:fs')).writeFileSync(process.argv[2], JSON.stringify(rows, null, 1));
process.exit(0);
