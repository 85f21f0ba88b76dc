/**
 * Every WebGPU call one warm `prover.dft` of 2^k x 1 makes, from and to a Uint32Array, through
 * the public API with the host-arrays suite's options (check 'off', no self-check, in-thread):
 * issue 31's "no job slower at 2^12-2^16" is about the waits such a call adds. Prints the calls
 * of the last of GPU_CALLS_REPS calls (default 4), a count per method, and the first call's
 * pipeline requests with when each was ready (compiles still running after it share the host). Copied beside an
 * earlier commit's sources (with bench/support/gpu-call-log.ts), it logs that version the same
 * way: diff the two outputs.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json GPU_CALLS_FALLBACK=1 node --import tsx bench/gpu-calls.ts
 *   (on a GPU: node bench/dist/gpu-calls.mjs after npm run bench:bundle)
 *
 * GPU_CALLS_LOG=k (default 12) sets the height; GPU_CALLS_OUT=1 passes `out`. GPU_CALLS_HOST=n also
 * times n more calls' host-side phases (medians, ms): from the call to its first submit, from there
 * to its readback's mapAsync, and from mapAsync's resolution to the call's return: the parts of
 * a small call that do not wait for the GPU, comparable between versions on any device.
 * @module
 */
import { createProver } from '../src/index.js';
import { nodeGpu } from './node-gpu.js';
import { formatCalls, gpuCallLog, type GpuCall } from './support/gpu-call-log.js';

const log = Number(process.env.GPU_CALLS_LOG ?? 12);
const reps = Number(process.env.GPU_CALLS_REPS ?? 4);
const gpu = await nodeGpu();
const spy = gpuCallLog();
const prover = await createProver({
  gpu,
  check: 'off',
  selfCheck: false,
  worker: false,
  forceFallbackAdapter: process.env.GPU_CALLS_FALLBACK === '1',
});
const x = new Uint32Array(1 << log).map((_, i) => (i * 2654435761) % 2013265921);
const out = process.env.GPU_CALLS_OUT === '1' ? new Uint32Array(x.length) : undefined;
let first = 0;
let firstCall: GpuCall[] = [];
let firstEnd = 0;
for (let i = 0; i < reps; i++) {
  if (i === 0 || i === reps - 1) spy.start();
  const r = await prover.dft(x, { width: 1, ...(out ? { out } : {}) });
  if (i === 0) {
    first = r[0];
    firstEnd = spy.now();
    firstCall = spy.stop();
  }
}
const calls = spy.stop();
// What the first call left compiling: pipelines still being created when it returned run on the
// driver's threads while the later calls are timed.
const compiling = firstCall.filter((c) => c.call.includes('createComputePipeline'));
const late = compiling.filter((c) => !(c.resolvedAt! <= firstEnd));
const hostRuns = Number(process.env.GPU_CALLS_HOST ?? 0);
const phases: number[][] = [[], [], [], []];
for (let i = 0; i < hostRuns; i++) {
  spy.start();
  const t0 = spy.now();
  await prover.dft(x, { width: 1, ...(out ? { out } : {}) });
  const end = spy.now();
  const log = spy.stop();
  const submit = log.find((c) => c.call.startsWith('Queue.submit'))!;
  const map = log.find((c) => c.call.includes('.mapAsync('))!;
  phases[0].push(submit.at - t0);
  phases[1].push(map.at - submit.at);
  phases[2].push(end - map.resolvedAt!);
  phases[3].push(end - t0);
}
spy.restore();
prover.destroy();
console.log(`dft 2^${log} x 1${out ? ' into out' : ''}, call ${reps} of ${reps} (result[0] = ${first}): ${calls.length} WebGPU calls`);
for (const line of formatCalls(calls)) console.log(line);
const countCalls = (log: readonly GpuCall[]) => {
  const counts = new Map<string, number>();
  for (const c of log) {
    const method = c.call.replace(/ '[^']*'/, '').replace(/\(.*$/, '');
    counts.set(method, (counts.get(method) ?? 0) + 1);
  }
  return [...counts].map(([m, n]) => `${m} x${n}`).join(', ');
};
console.log(countCalls(calls));
console.log(
  `first call (returned at ${firstEnd.toFixed(1)} ms): ${firstCall.length} WebGPU calls, ${compiling.length} pipelines requested, ` +
    `${late.length} not ready when it returned: ${countCalls(firstCall)}`,
);
for (const c of compiling) console.log(`  ready at ${c.resolvedAt?.toFixed(1) ?? 'never'} ms: ${c.call.slice(0, 120)}`);
if (hostRuns) {
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1].toFixed(3);
  const [toSubmit, toMap, afterMap, total] = phases.map(median);
  console.log(
    `host phases over ${hostRuns} calls (medians, ms): call -> first submit ${toSubmit}, -> mapAsync ${toMap}, mapAsync resolved -> return ${afterMap}; whole call ${total}`,
  );
}
process.exit(0);
