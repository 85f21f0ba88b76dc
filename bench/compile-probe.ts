/**
 * Which pipelines a first call waits on, and what a change to their text does to it: each named
 * pipeline compiled alone on a fresh device (primed as GpuContext primes one), and each family's
 * first-call set requested together, REPS times alternating. Run it with the driver's disk cache
 * off (`__GL_SHADER_DISK_CACHE=0`, as bench/cold.ts does); bundled against the previous version's
 * src (bench/dist-prev) it times that version's texts. Prints JSON lines. Issue 29.
 *
 *   __GL_SHADER_DISK_CACHE=0 CP_REPS=2 node bench/dist/compile-probe.mjs
 * @module
 */
import { PipelineCache, type PipelineRequest } from '../src/gpu/pipeline-cache.js';
import { kernelSource, loadKernel } from '../src/gpu/wgsl.js';
import { merklePipelineRequests } from '../src/kernels/merkle.js';
import { MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE } from '../src/kernels/msm/pipelines.js';
import { nttLimits, planNtt } from '../src/kernels/ntt/plan.js';
import { NTT_TUNING } from '../src/kernels/ntt/tuning.js';
import { poseidon2PipelineRequest } from '../src/kernels/poseidon2.js';
import { firstCallRequests } from '../src/kernels/first-call.js';
import type { GpuContext } from '../src/gpu/context.js';
import { nodeGpu } from './node-gpu.js';

const REPS = Number(process.env.CP_REPS ?? 2);
const gpu = await nodeGpu();

async function freshDevice(): Promise<{ cache: PipelineCache; device: GPUDevice }> {
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no adapter');
  const l = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    },
  });
  const cache = new PipelineCache(device);
  cache.prime();
  await new Promise((r) => setTimeout(r, 150)); // the trivial compiles done, as on a device the prover made a while ago
  return { cache, device };
}

const probe = await freshDevice();
const ctx = {
  workgroup: {
    threads: Math.min(probe.device.limits.maxComputeInvocationsPerWorkgroup, probe.device.limits.maxComputeWorkgroupSizeX),
    tileBytes: probe.device.limits.maxComputeWorkgroupStorageSize,
  },
  limits: probe.device.limits,
};
probe.device.destroy();

const lde = (maxRadix: number) =>
  planNtt({ op: 'lde', height: 1 << 17, width: 8, addedBits: 1, shift: 31 }, { ...NTT_TUNING, maxRadix }, nttLimits(ctx)).requests;

const groth16First = await firstCallRequests({ ...ctx, pipelines: { allReady: () => false } } as unknown as GpuContext, 'groth16', {
  ntt: [],
  msmPoints: [],
  groth16: [{ nVars: 2 ** 16 - 53, domainSize: 2 ** 16 }],
});

/** Each family's first-call set (what bench/cold.ts's first calls compile but the range check's small pipeline). */
const SETS: Record<string, PipelineRequest[]> = {
  'lde 2^17 x 8': [...lde(32)],
  'lde 2^17 x 8, radix <= 16': [...lde(16)],
  merkle: merklePipelineRequests(),
  poseidon2: [poseidon2PipelineRequest(16)],
  msm: [MSM_QUICK_PIPELINE, MSM_BASES_PIPELINE],
  // A first proof of a 2^16-constraint key: what groth16's first call requests (nothing compiled
  // yet): the quick pipelines it runs on, and the fast ones requested behind them.
  'groth16 2^16 quick': groth16First.filter((r) => r.first),
  'groth16 2^16 fast': groth16First.filter((r) => !r.first),
};
const only = process.env.CP_SETS?.split(',');

function label(r: PipelineRequest): string {
  const flags = r.overrides ? ` ${JSON.stringify(r.overrides)}` : '';
  return `${r.kernel}#${r.entryPoint}${flags}`;
}

for (let rep = 0; rep < REPS; rep++) {
  for (const [name, set] of Object.entries(SETS)) {
    if (only && !only.includes(name)) continue;
    await Promise.all([...new Set(set.map((r) => r.kernel))].map(loadKernel));
    const unique = [...new Map(set.map((r) => [JSON.stringify(r), r])).values()];
    const alone: Record<string, number> = {};
    for (const r of unique) {
      const { cache, device } = await freshDevice();
      const t0 = performance.now();
      await cache.all([r]);
      alone[label(r)] = Math.round(performance.now() - t0);
      device.destroy();
    }
    const { cache, device } = await freshDevice();
    const t0 = performance.now();
    const ready = await Promise.all(unique.map((r) => cache.all([r]).then(() => Math.round(performance.now() - t0))));
    device.destroy();
    const chars = unique.map((r) => kernelSource(r.kernel, r.plan ?? {}, r.entryPoint, r.field ?? 'babybear').length);
    console.log(JSON.stringify({ suite: 'compile', rep, set: name, alone, together: Math.max(...ready), readyEach: ready, chars }));
  }
}

/** `fn name(...)`'s body replaced: what compiling its code costs (compile only: the result is wrong). */
const withBody = (name: string, body: string) => (c: string) => {
  const at = c.indexOf(`fn ${name}(`);
  if (at < 0) return c;
  const open = c.indexOf('{', c.indexOf(')', at));
  let depth = 0;
  for (let i = open; i < c.length; i++) {
    if (c[i] === '{') depth++;
    else if (c[i] === '}' && --depth === 0) return `${c.slice(0, open)}{ ${body} }${c.slice(i + 1)}`;
  }
  return c;
};
const apply =
  (...fs: Array<(c: string) => string>) =>
  (c: string) =>
    fs.reduce((x, f) => f(x), c);

/**
 * Text variants, each alone on a fresh device against its base text. The Poseidon2 permutation's
 * round loops with a trip count the compiler cannot see (equal at run time; p2_rc[0].x is a round
 * constant, never 2^32 - 1): does unrolling them cost the compile? The quick G2 and Fr pipelines:
 * what their dead fast code (folded by a plan constant), their multiply and their addition cost.
 */
const opaqueRounds = (c: string) =>
  c
    .replace('r < 8u; r++', 'r < 8u + select(0u, 1u, p2_rc[0].x == 0xffffffffu); r++')
    .replace('q < 13u; q++', 'q < 13u + select(0u, 1u, p2_rc[0].x == 0xffffffffu); q++');
const deadStripped = apply(withBody('ntt_mul', 'return fr_mul_rows(a, b);'), withBody('qap_mul', 'return fr_mul_rows(a, b);'));
const QUICK_VARIANTS: Record<string, (c: string) => string> = {
  'dead fast code stripped': deadStripped,
  'rows multiply gutted': apply(deadStripped, withBody('fq_mul_rows', 'return a;'), withBody('fr_mul_rows', 'return a;')),
  'g2_add_small gutted': withBody('g2_add_small', 'return p;'),
};
const quickOf = (entry: string) => groth16First.find((r) => r.first && r.entryPoint === entry)!;
const TEXT_VARIANTS: Array<[string, PipelineRequest, Record<string, (c: string) => string>]> = [
  ['poseidon2 width 16', poseidon2PipelineRequest(16), { 'rounds opaque': opaqueRounds }],
  ['merkle mk_leaves', merklePipelineRequests()[0], { 'rounds opaque': opaqueRounds }],
  ...['g2msm_quick', 'g2msm_check', 'fr_ntt_pass', 'fr_qap'].map((e): [string, PipelineRequest, Record<string, (c: string) => string>] => [
    `${e} quick`,
    quickOf(e),
    QUICK_VARIANTS,
  ]),
];
const textOnly = process.env.CP_TEXT?.split(',');
for (let rep = 0; rep < REPS && (!only || textOnly); rep++) {
  for (const [name, r, changes] of TEXT_VARIANTS) {
    if (textOnly && !textOnly.some((t) => name.startsWith(t))) continue;
    await loadKernel(r.kernel);
    const base = kernelSource(r.kernel, r.plan ?? {}, r.entryPoint, r.field ?? 'babybear');
    const ms: Record<string, number> = {};
    const chars: Record<string, number> = {};
    for (const [v, code] of [['base', base] as const, ...Object.entries(changes).map(([k, f]) => [k, f(base)] as const)]) {
      const { cache, device } = await freshDevice();
      const module = device.createShaderModule({ code });
      const layout = r.bindings ? device.createPipelineLayout({ bindGroupLayouts: [cache.layout(r.bindings)] }) : 'auto';
      const t0 = performance.now();
      await device.createComputePipelineAsync({ layout, compute: { module, entryPoint: r.entryPoint } });
      ms[v] = Math.round(performance.now() - t0);
      chars[v] = code.length;
      device.destroy();
    }
    console.log(JSON.stringify({ suite: 'compile-text', rep, variant: name, ms, chars }));
  }
}
process.exit(0);
