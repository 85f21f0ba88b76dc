/**
 * One family's cold start in this fresh process (bench/cold.ts runs one per family and version):
 * createProver, the first call, the second, and a first call at another size, each with what it
 * compiled. Compilation is counted on Dawn's GPUDevice itself (createShaderModule: modules and
 * WGSL characters; createComputePipeline(Async): pipelines and ms from request to ready, summed),
 * so the same file bundled against the previous version's src (bench/dist-prev) counts the same way.
 * Uses only the public API. Prints one JSON line.
 *
 *   node bench/dist/cold-probe.mjs <lde|merkle|poseidon2|msm|all|warm>
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { createProver, type Prover } from '../src/index.js';
import { nodeGpu } from './node-gpu.js';

const count = { modules: 0, wgslChars: 0, pipelines: 0, pipelineMs: 0, moduleMs: 0 };
/** Each pipeline's request and ready times (ms since process start) and its label: whether the driver compiles side by side or one after another shows here. */
const timeline: Array<{ label: string; requested: number; ready: number }> = [];

/** Count every module and pipeline the process creates, whichever version creates them. */
function instrument(): void {
  const proto = (globalThis as unknown as { GPUDevice: { prototype: GPUDevice } }).GPUDevice.prototype;
  const createModule = proto.createShaderModule;
  proto.createShaderModule = function (this: GPUDevice, d: GPUShaderModuleDescriptor) {
    count.modules++;
    count.wgslChars += d.code.length;
    const t0 = performance.now();
    try {
      return createModule.call(this, d);
    } finally {
      count.moduleMs += performance.now() - t0;
    }
  };
  const createAsync = proto.createComputePipelineAsync;
  proto.createComputePipelineAsync = function (this: GPUDevice, d: GPUComputePipelineDescriptor) {
    count.pipelines++;
    const t0 = performance.now();
    const p = createAsync.call(this, d);
    const event = { label: `${d.label ?? ''}`.slice(0, 60) + ` ${d.compute.entryPoint ?? ''}`, requested: t0, ready: -1 };
    timeline.push(event);
    p.then(
      () => {
        event.ready = performance.now();
        count.pipelineMs += event.ready - t0;
      },
      () => {},
    );
    return p;
  };
  const createSync = proto.createComputePipeline;
  proto.createComputePipeline = function (this: GPUDevice, d: GPUComputePipelineDescriptor) {
    count.pipelines++;
    const t0 = performance.now();
    try {
      return createSync.call(this, d);
    } finally {
      count.pipelineMs += performance.now() - t0;
    }
  };
}

const P = 0x78000001;
function field(n: number, seed: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x % P;
  }
  return out;
}

/** n points (1024 distinct multiples of G, repeated) and n scalars < r. */
function msmInput(n: number): { points: InstanceType<typeof bn254.G1.Point>[]; scalars: bigint[] } {
  const G = bn254.G1.Point.BASE;
  const distinct: InstanceType<typeof bn254.G1.Point>[] = [];
  for (let i = 0, q = G; i < 1024; i++, q = q.add(G)) distinct.push(q);
  const r = bn254.fields.Fr.ORDER;
  let s = 0x1234567n;
  const scalars = Array.from({ length: n }, () => (s = (s * 6364136223846793005n + 1442695040888963407n) % r));
  return { points: Array.from({ length: n }, (_, i) => distinct[i % 1024]), scalars };
}

type Call = () => Promise<unknown>;
/** first = second (the same job twice); other: another size of the same variants; variant: a job that needs another variant (width, MSM segment) */
interface Family {
  first: Call;
  second: Call;
  other: Call;
  variant: Call;
  label: [string, string, string];
}

/** Each family's job at a size, its input made now (outside the timing). */
const JOBS = {
  lde: (prover: Prover, log: number, width: number): Call => {
    const x = field(2 ** log * width, log * 31 + width);
    return () => prover.lde(x, { width, addedBits: 1, shift: 31 });
  },
  merkle: (prover: Prover, log: number): Call => {
    const x = field(2 ** log * 8, log);
    return async () => (await prover.merkleCommit(x, { width: 8 })).tree.dispose();
  },
  perm: (prover: Prover, log: number): Call => {
    const x = field(2 ** log * 16, log + 7);
    return () => prover.poseidon2(x, { width: 16 });
  },
  msm: (prover: Prover, log: number): Call => {
    const { points, scalars } = msmInput(2 ** log);
    return () => prover.msm(points, scalars);
  },
};

/**
 * The four families' first calls (as families() below has them) and only their inputs: the other
 * sizes' (a 128 MiB lde 2^22 x 8 among them) would be garbage collected inside the timed calls.
 */
function firstCalls(prover: Prover): Call[] {
  return [JOBS.lde(prover, 17, 8), JOBS.merkle(prover, 17), JOBS.perm(prover, 16), JOBS.msm(prover, 16)];
}

function families(prover: Prover): Record<string, () => Family> {
  const lde = (log: number, width: number) => JOBS.lde(prover, log, width);
  const merkle = (log: number) => JOBS.merkle(prover, log);
  const perm = (log: number) => JOBS.perm(prover, log);
  const msm = (log: number) => JOBS.msm(prover, log);
  return {
    // 2^22 has 2^17's pass kinds (the same remainder radices); 2^20 x 1 is another width
    lde: () => ({
      first: lde(17, 8),
      second: lde(17, 8),
      other: lde(22, 8),
      variant: lde(20, 1),
      label: ['lde 2^17 x 8', 'lde 2^22 x 8', 'lde 2^20 x 1'],
    }),
    merkle: () => ({
      first: merkle(17),
      second: merkle(17),
      other: merkle(19),
      variant: merkle(12),
      label: ['merkleCommit 2^17 x 8', 'merkleCommit 2^19 x 8', 'merkleCommit 2^12 x 8'],
    }),
    poseidon2: () => ({
      first: perm(16),
      second: perm(16),
      other: perm(18),
      variant: perm(12),
      label: ['poseidon2 2^16 x 16', 'poseidon2 2^18 x 16', 'poseidon2 2^12 x 16'],
    }),
    // 2^17 shares 2^16's plan variants; 2^12 takes 8-bit windows and a first segment of 1
    msm: () => ({ first: msm(16), second: msm(16), other: msm(17), variant: msm(12), label: ['msm 2^16', 'msm 2^17', 'msm 2^12'] }),
  };
}

async function timed(call: Call): Promise<Record<string, unknown>> {
  const before = { ...count };
  const events = timeline.length;
  const t0 = performance.now();
  await call();
  const ms = performance.now() - t0;
  const at = (t: number) => Math.round(t - t0);
  return {
    ms: Math.round(ms * 10) / 10,
    modules: count.modules - before.modules,
    wgslChars: count.wgslChars - before.wgslChars,
    pipelines: count.pipelines - before.pipelines,
    pipelineMs: Math.round(count.pipelineMs - before.pipelineMs),
    moduleMs: Math.round(count.moduleMs - before.moduleMs),
    ...(timeline.length > events
      ? { timeline: timeline.slice(events).map((e) => `${e.label} @${at(e.requested)}->${e.ready < 0 ? '?' : at(e.ready)}`) }
      : {}),
  };
}

const which = process.argv[2] ?? 'lde';
const gpu = await nodeGpu();
instrument();
const t0 = performance.now();
// COLD_FALLBACK=1: the software adapter, to try this file where there is no GPU.
// COLD_OPTS: more createProver options as JSON (e.g. '{"check":"off"}': what the first result's check costs).
const extra = JSON.parse(process.env.COLD_OPTS ?? '{}') as Record<string, unknown>;
const prover = await createProver({ gpu: gpu as never, worker: false, forceFallbackAdapter: process.env.COLD_FALLBACK === '1', ...extra });
const createMs = Math.round(performance.now() - t0);
const row: Record<string, unknown> = { family: which, createProver: createMs };
if (which === 'all' || which === 'warm') {
  // From nothing to every family warm: first calls one after another ('all'), or warmUp() then
  // the same calls ('warm', this version only).
  // Only the first calls' inputs: the families' other sizes (a 128 MiB lde 2^22 x 8 among them)
  // would be garbage to collect inside the timed calls.
  const calls = firstCalls(prover);
  if (which === 'warm') row.warmUp = await timed(() => (prover as unknown as { warmUp(): Promise<void> }).warmUp());
  row.calls = await timed(async () => {
    for (const c of calls) await c();
  });
  row.total = Math.round(performance.now() - t0);
} else {
  const f = families(prover)[which]();
  row.first = { call: f.label[0], ...(await timed(f.first)) };
  row.second = { call: f.label[0], ...(await timed(f.second)) };
  row.other = { call: f.label[1], ...(await timed(f.other)) };
  row.otherAgain = { call: f.label[1], ...(await timed(f.other)) };
  row.variant = { call: f.label[2], ...(await timed(f.variant)) };
  row.variantAgain = { call: f.label[2], ...(await timed(f.variant)) };
}
// Runs by engine (the MSM's quick engine serves runs while the walker compiles); absent before it existed.
row.engineRuns = (prover.stats() as { engineRuns?: unknown }).engineRuns;
console.log(JSON.stringify(row));
prover.destroy();
process.exit(0);
