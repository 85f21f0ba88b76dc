/**
 * How long the MSM's pipelines take to compile, each alone and a plan's all together, on a fresh
 * device per measurement (the driver's disk cache off: bench/cold.ts sets the same environment).
 * Tells which walker variant a first call can afford (issue 29). Prints JSON lines.
 *
 *   __GL_SHADER_DISK_CACHE=0 node bench/dist/msm-compile.mjs
 *   MSMC_VARIANTS='[{"n":65536},{"n":65536,"tuning":{"mul13":false}}]' node bench/dist/msm-compile.mjs
 * @module
 */
import { PipelineCache, type PipelineRequest } from '../src/gpu/pipeline-cache.js';
import { kernelSource, loadKernel } from '../src/gpu/wgsl.js';
import { msmPlan, type MsmTuning } from '../src/kernels/msm/plan.js';
import { MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE, msmPipelineRequests } from '../src/kernels/msm/pipelines.js';
import { nodeGpu } from './node-gpu.js';

interface Variant {
  n: number;
  tuning?: MsmTuning;
  /** 'alone': each pipeline on its own fresh device, one after another; 'together': one plan's all at once */
  mode?: 'alone' | 'together';
}

const DEFAULT: Variant[] = [
  { n: 1 << 16, mode: 'alone' },
  { n: 1 << 16, mode: 'together' },
  { n: 1 << 16, tuning: { mul13: false }, mode: 'alone' },
  { n: 1 << 16, tuning: { wgInv: false }, mode: 'alone' },
  { n: 1 << 20, mode: 'alone' },
];

const gpu = await nodeGpu();
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) throw new Error('no adapter');
const limits = {
  threads: Math.min(adapter.limits.maxComputeInvocationsPerWorkgroup, adapter.limits.maxComputeWorkgroupSizeX),
  tileBytes: adapter.limits.maxComputeWorkgroupStorageSize,
};

async function freshCache(): Promise<{ cache: PipelineCache; device: GPUDevice }> {
  // An adapter makes one device: a fresh one each time.
  const fresh = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!fresh) throw new Error('no adapter');
  const {
    maxStorageBufferBindingSize,
    maxBufferSize,
    maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX,
    maxComputeWorkgroupStorageSize,
  } = fresh.limits;
  const device = await fresh.requestDevice({
    requiredLimits: {
      maxStorageBufferBindingSize,
      maxBufferSize,
      maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize,
    },
  });
  return { cache: new PipelineCache(device), device };
}

function label(r: PipelineRequest): string {
  return PipelineCache.key(r.kernel, r.entryPoint, r.plan ?? {});
}

/** `code` with function `name`'s body replaced (a top-level `fn name(...) {` through its closing line). */
function replaceFn(code: string, name: string, body: string): string {
  const start = code.indexOf(`fn ${name}(`);
  if (start < 0) return code;
  const open = code.indexOf('{', start);
  const end = code.indexOf('\n}\n', open);
  return `${code.slice(0, open)}{ ${body} }${code.slice(end + 2)}`;
}

/** A bound the compiler cannot see: 0 at run time (nb is never 2^32 - 1). */
function opaque(code: string): string {
  return `${code}\nfn opq() -> u32 { return select(0u, 1u, prm.nb == 0xffffffffu); }\n`;
}
/** msm_walk_wg's product-tree loops (log2 WALK_WG levels, a multiply each). */
function treeOpaque(code: string): string {
  return code
    .replace('for (var h = WALK_WG / 2u; h > 0u; h >>= 1u)', 'for (var h = (WALK_WG / 2u) >> opq(); h > 0u; h >>= 1u)')
    .replace('for (var h = 1u; h < WALK_WG; h <<= 1u)', 'for (var h = 1u; h < (WALK_WG >> opq()); h <<= 1u)');
}
/** Every loop over the thread's WALK_S slots. */
function slotsOpaque(code: string): string {
  return code.replace(/(for \(var (\w+) = 0u; \2 < )WALK_S;/g, '$1(WALK_S - opq());');
}
/** The inversion's batch loop and its final corrections. */
function invOpaque(code: string): string {
  return code
    .replace('batch < 64u;', 'batch < 64u - opq();')
    .replace('for (var k = 0u; k < 2u; k++) {', 'for (var k = 0u; k < 2u - opq(); k++) {');
}

/**
 * MSMC_TEXT=1: which part of a kernel's text its compile time comes from. Each variant drops one
 * part (the 13-bit multiply or the inversion replaced by a stub), compiled alone
 * on a fresh device, REPS times alternating. The stubs compute wrong results: compile timing only.
 */
if (process.env.MSMC_TEXT === '1') {
  const plan = msmPlan(1 << 16, {}, limits);
  await loadKernel('msm_walk');
  await loadKernel('msm_reduce');
  const reqs = msmPipelineRequests(plan).filter((r) => ['msm_walk', 'msm_reduce'].includes(r.kernel));
  const cuts: Record<string, (c: string) => string> = {
    base: (c) => c,
    // the multiply's body gone (its callers and its text)
    nomul: (c) => replaceFn(c, 'fq13_mul', 'return a;'),
    // fq_mul13 no longer calls fq13_mul, whose text stays in the module: does dead text cost?
    deadmul: (c) => replaceFn(c, 'fq_mul13', 'return a;'),
    noinv: (c) => replaceFn(c, 'fq_inv', 'return a;'),
    nomul_noinv: (c) => replaceFn(replaceFn(c, 'fq13_mul', 'return a;'), 'fq_inv', 'return a;'),
    // the riders' reduction bodies gone (they sit behind WALK_RIDERS = 0 in a plan without riders)
    noriders: (c) => replaceFn(replaceFn(c, 'red_seg', ''), 'red_level', ''),
    // w_*: loops of the walker whose trip count the compiler knows, made opaque (a bound it cannot
    // see, equal at run time): does unrolling them (and inlining the multiply per copy) cost the
    // compile? Walker entry only.
    w_tree: (c) => opaque(treeOpaque(c)),
    w_slots: (c) => opaque(slotsOpaque(c)),
    w_inv: (c) => opaque(invOpaque(c)),
    w_tree_slots: (c) => opaque(slotsOpaque(treeOpaque(c))),
    w_all: (c) => opaque(invOpaque(slotsOpaque(treeOpaque(c)))),
  };
  for (let rep = 0; rep < Number(process.env.MSMC_REPS ?? 2); rep++) {
    for (const r of reqs) {
      const code0 = kernelSource(r.kernel, r.plan ?? {}, r.entryPoint);
      const row: Record<string, number> = {};
      for (const [name, cut] of Object.entries(cuts)) {
        const code = cut(code0);
        if (name !== 'base' && code === code0) continue;
        if (name.startsWith('w_') && !r.entryPoint.startsWith('msm_walk')) continue;
        const { cache, device } = await freshCache();
        const module = device.createShaderModule({ code });
        const layout = device.createPipelineLayout({ bindGroupLayouts: [cache.layout(r.bindings!)] });
        const t0 = performance.now();
        try {
          await device.createComputePipelineAsync({ layout, compute: { module, entryPoint: r.entryPoint } });
          row[name] = +(performance.now() - t0).toFixed(1);
        } catch (e) {
          console.log(JSON.stringify({ entry: r.entryPoint, variant: name, error: String(e).slice(0, 400) }));
          row[name] = -1;
        }
        device.destroy();
      }
      console.log(JSON.stringify({ rep, entry: r.entryPoint, chars: code0.length, ms: row }));
    }
  }
  process.exit(0);
}

/**
 * MSMC_QUICK=1: what a cold first call waits on, the bases' conversion and the quick engine
 * (kernels/msm/engines.ts): each alone on a fresh device, then both together, REPS times.
 */
if (process.env.MSMC_QUICK === '1') {
  const pair = [MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE];
  for (let rep = 0; rep < Number(process.env.MSMC_REPS ?? 2); rep++) {
    const alone: number[] = [];
    for (const r of pair) {
      const { cache, device } = await freshCache();
      const t0 = performance.now();
      await cache.all([r]);
      alone.push(+(performance.now() - t0).toFixed(1));
      device.destroy();
    }
    const { cache, device } = await freshCache();
    const t0 = performance.now();
    const together = await Promise.all(pair.map((r) => cache.all([r]).then(() => +(performance.now() - t0).toFixed(1))));
    device.destroy();
    // The quick kernel with g1_add's multiply on 8x32 limbs (fq_mul) instead of 13-bit ones.
    await loadKernel('msm_quick');
    const code = kernelSource('msm_quick', MSM_QUICK_PIPELINE.plan ?? {}).replace(
      'fq_mul13(a[k % 6u], b[k % 6u])',
      'fq_mul(a[k % 6u], b[k % 6u])',
    );
    const fresh = await freshCache();
    const module = fresh.device.createShaderModule({ code });
    const layout = fresh.device.createPipelineLayout({ bindGroupLayouts: [fresh.cache.layout(MSM_QUICK_PIPELINE.bindings!)] });
    const t1 = performance.now();
    await fresh.device.createComputePipelineAsync({ layout, compute: { module, entryPoint: 'msm_quick' } });
    const quick8x32 = +(performance.now() - t1).toFixed(1);
    fresh.device.destroy();
    console.log(JSON.stringify({ rep, pipelines: pair.map(label), alone, together, quick8x32 }));
  }
  process.exit(0);
}

const variants: Variant[] = process.env.MSMC_VARIANTS ? JSON.parse(process.env.MSMC_VARIANTS) : DEFAULT;
for (const v of variants) {
  const plan = msmPlan(v.n, v.tuning ?? {}, limits);
  const requests = [MSM_BASES_PIPELINE, ...msmPipelineRequests(plan)];
  const planInfo = { S: plan.S, walkWg: plan.walkWg, wgInv: plan.wgInv, mul13: plan.mul13, riders: plan.riders, seg1: plan.seg1 };
  if ((v.mode ?? 'alone') === 'together') {
    const { cache, device } = await freshCache();
    const t0 = performance.now();
    const each = requests.map((r) => cache.all([r]).then(() => performance.now() - t0));
    const ms = await Promise.all(each);
    const total = performance.now() - t0;
    console.log(
      JSON.stringify({
        n: v.n,
        tuning: v.tuning ?? {},
        plan: planInfo,
        mode: 'together',
        totalMs: +total.toFixed(1),
        each: requests.map((r, i) => [label(r), +ms[i].toFixed(1)]),
      }),
    );
    device.destroy();
    continue;
  }
  const rows: Array<[string, number, number]> = [];
  for (const r of requests) {
    const { cache, device } = await freshCache();
    const t0 = performance.now();
    await cache.all([r]);
    rows.push([label(r), +(performance.now() - t0).toFixed(1), cache.stats().wgslChars]);
    device.destroy();
  }
  console.log(JSON.stringify({ n: v.n, tuning: v.tuning ?? {}, plan: planInfo, mode: 'alone', each: rows }));
}
process.exit(0);
