/**
 * The MSM's pipelines: each kernel's bindings (explicit layouts: the entry points of one kernel
 * use different subsets of its bindings) and the requests a run makes, shared by the run and
 * the warm-up.
 * @module
 */
import type { BindingKind, PipelineRequest } from '../../gpu/pipeline-cache.js';
import { PREP_WG, QUICK_WG, RED_WG, SORT_WG, SPLIT_WG } from './layout.js';
import type { MsmPlan } from './plan.js';

/** msm_sort: half-plane slots, counts, offsets, block sums, entries, params. */
export const SORT_B: readonly BindingKind[] = ['read-only-storage', 'storage', 'storage', 'storage', 'storage', 'uniform'];
/**
 * msm_walk (walker and fix-up): bases, offsets, entries, bucket sums, partials, params, then the
 * riders' input and output pair lists (bound to something distinct even without riders).
 */
export const WALK_B: readonly BindingKind[] = [
  'read-only-storage',
  'read-only-storage',
  'read-only-storage',
  'storage',
  'storage',
  'uniform',
  'read-only-storage',
  'storage',
];
/** msm_reduce: buckets or pairs in, pairs out, params. */
export const RED_B: readonly BindingKind[] = ['read-only-storage', 'storage', 'uniform'];
/** msm_prep: points (converted in place), the check's flags, params, projective points' Z. */
export const PREP_B: readonly BindingKind[] = ['storage', 'storage', 'uniform', 'read-only-storage'];
/** msm_split: packed scalars, bases, half-plane slots, the range check's flag, params. */
export const SPLIT_B: readonly BindingKind[] = ['read-only-storage', 'read-only-storage', 'storage', 'storage', 'uniform'];

/** msm_quick (the quick engine): bases, packed scalars, points in, points out, the range check's flag, params. */
export const QUICK_B: readonly BindingKind[] = [
  'read-only-storage',
  'read-only-storage',
  'read-only-storage',
  'storage',
  'storage',
  'uniform',
];

/** Plan constants of an entry with msm_prep's bindings. */
export const PREP_CONSTS = { PREP_WG };

/** The caller's scalars into half-planes (msm_split.wgsl). */
export const MSM_SPLIT_PIPELINE: PipelineRequest = { kernel: 'msm_split', entryPoint: 'msm_split', plan: { SPLIT_WG }, bindings: SPLIT_B };

/**
 * The pipeline uploadBases runs (Montgomery form and the on-curve check): every MSM engine waits
 * on it, so it compiles first.
 */
export const MSM_BASES_PIPELINE: PipelineRequest = {
  kernel: 'msm_prep',
  entryPoint: 'msm_to_mont',
  plan: PREP_CONSTS,
  bindings: PREP_B,
  first: true,
};

/** msm_quick's pipeline: compiled before the walker's (a first call waits on it: engines.ts). */
export const MSM_QUICK_PIPELINE: PipelineRequest = {
  kernel: 'msm_quick',
  entryPoint: 'msm_quick',
  plan: { QUICK_WG },
  bindings: QUICK_B,
  first: true,
};

/** A run's pipelines by stage, in msmPipelineRequests' order. */
export interface MsmPipelines {
  split: GPUComputePipeline;
  count: GPUComputePipeline;
  scanBlocks: GPUComputePipeline;
  scanTotals: GPUComputePipeline;
  scanAdd: GPUComputePipeline;
  scatter: GPUComputePipeline;
  walk: GPUComputePipeline;
  fixup: GPUComputePipeline;
  reduceSeg: GPUComputePipeline;
  reduceLevel: GPUComputePipeline;
}

/**
 * The pipelines of one MSM run, in MsmPipelines' order (split, count, 3 scans, scatter, walk,
 * fix-up, reduce segment, reduce level): requested together by the run and by the warm-up. The
 * window size (c, M buckets) reaches the kernels through their uniforms, so the constants here
 * come from a few variants (slots S: 4, 8, 16; walker and fix-up workgroups; riders on or off),
 * never from n, c or the reduction's segment lengths.
 */
export function msmPipelineRequests(plan: MsmPlan): readonly PipelineRequest[] {
  let requests = REQUESTS.get(plan);
  if (!requests) REQUESTS.set(plan, (requests = Object.freeze(runRequests(plan))));
  return requests;
}

/** msmPipelineRequests' lists by plan (plans are frozen records, cached by msmRuns): an engine choice reads them every run. */
const REQUESTS = new WeakMap<MsmPlan, readonly PipelineRequest[]>();

function runRequests(plan: MsmPlan): PipelineRequest[] {
  const sortP = { SORT_WG };
  const redP = { RED_WG };
  const walkP = {
    WALK_S: plan.S,
    WALK_WG: plan.walkWg,
    FIX_WG: plan.fixWg,
    WALK_MUL13: plan.mul13 ? 1 : 0,
    WALK_RIDERS: plan.riders ? 1 : 0,
  };
  const sort = (entryPoint: string): PipelineRequest => ({ kernel: 'msm_sort', entryPoint, plan: sortP, bindings: SORT_B });
  return [
    MSM_SPLIT_PIPELINE,
    sort('msm_count'),
    sort('msm_scan_blocks'),
    sort('msm_scan_totals'),
    sort('msm_scan_add'),
    sort('msm_scatter'),
    // msm_walk_wg: one inversion per workgroup and step (plan.wgInv); same bindings and outputs.
    { kernel: 'msm_walk', entryPoint: plan.wgInv ? 'msm_walk_wg' : 'msm_walk', plan: walkP, bindings: WALK_B },
    { kernel: 'msm_walk', entryPoint: 'msm_fixup', plan: walkP, bindings: WALK_B },
    { kernel: 'msm_reduce', entryPoint: 'msm_reduce_seg', plan: redP, bindings: RED_B },
    { kernel: 'msm_reduce', entryPoint: 'msm_reduce_level', plan: redP, bindings: RED_B },
  ];
}

/** A run's pipelines, compiled (or from the cache), by stage. */
export async function msmPipelines(
  pipelines: { all(r: readonly PipelineRequest[]): Promise<GPUComputePipeline[]> },
  plan: MsmPlan,
): Promise<MsmPipelines> {
  const [split, count, scanBlocks, scanTotals, scanAdd, scatter, walk, fixup, reduceSeg, reduceLevel] = await pipelines.all(
    msmPipelineRequests(plan),
  );
  return { split, count, scanBlocks, scanTotals, scanAdd, scatter, walk, fixup, reduceSeg, reduceLevel };
}
