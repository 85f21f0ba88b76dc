/**
 * The G2 MSM's pipelines: its own kernels (check, split, accumulation, reduction, the quick MSM) and G1's
 * counting sort (msm_sort.wgsl), which works on scalars only and so serves G2 unchanged.
 * @module
 */
import type { BindingKind, PipelineCache, PipelineRequest, Speed } from '../../gpu/pipeline-cache.js';
import { SORT_B } from '../msm/pipelines.js';
import { G2_ACC_WG, G2_PREP_WG, G2_QUICK_WG, G2_RED_WG, G2_SPLIT_WG, SORT_WG } from './layout.js';

/** g2msm_check: bases, flags, params. */
export const PREP_B: readonly BindingKind[] = ['read-only-storage', 'storage', 'uniform'];
/** g2msm_split: packed scalars, half-planes, params. */
export const SPLIT_B: readonly BindingKind[] = ['read-only-storage', 'storage', 'uniform'];
/** g2msm_acc: bases, offsets, entries, slots in, slots out, buckets, params. */
export const ACC_B: readonly BindingKind[] = [
  'read-only-storage',
  'read-only-storage',
  'read-only-storage',
  'read-only-storage',
  'storage',
  'storage',
  'uniform',
];
/** g2msm_reduce: buckets, pairs in, pairs out, params. */
export const RED_B: readonly BindingKind[] = ['read-only-storage', 'read-only-storage', 'storage', 'uniform'];
export { SORT_B };

/** g2msm_quick: bases, scalars, sums in, sums out, params. */
export const QUICK_B: readonly BindingKind[] = ['read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'uniform'];

/** The bases' check (G2Bases.upload). */
export const G2_CHECK_PIPELINE: PipelineRequest = {
  kernel: 'g2msm_prep',
  entryPoint: 'g2msm_check',
  plan: { G2_PREP_WG },
  bindings: PREP_B,
};

/** The quick MSM (quick.ts): one pipeline, a key's first proofs run on it while G2_RUN_PIPELINES compile. */
export const G2_QUICK_PIPELINE: PipelineRequest = {
  kernel: 'g2msm_quick',
  entryPoint: 'g2msm_quick',
  plan: { G2_QUICK_WG },
  bindings: QUICK_B,
};

/** A bucket run's pipelines by stage. */
export interface G2Pipelines {
  split: GPUComputePipeline;
  count: GPUComputePipeline;
  scanBlocks: GPUComputePipeline;
  scanTotals: GPUComputePipeline;
  scanAdd: GPUComputePipeline;
  scatter: GPUComputePipeline;
  acc: GPUComputePipeline;
  reduceSeg: GPUComputePipeline;
  reduceLevel: GPUComputePipeline;
}

/** Every pipeline of a bucket run, in G2Pipelines' order: none depends on the plan (sizes come by uniform). */
export const G2_RUN_PIPELINES: readonly PipelineRequest[] = Object.freeze([
  { kernel: 'g2msm_split', entryPoint: 'g2msm_split', plan: { G2_SPLIT_WG }, bindings: SPLIT_B },
  ...['msm_count', 'msm_scan_blocks', 'msm_scan_totals', 'msm_scan_add', 'msm_scatter'].map((entryPoint): PipelineRequest => ({
    kernel: 'msm_sort',
    entryPoint,
    plan: { SORT_WG },
    bindings: SORT_B,
  })),
  { kernel: 'g2msm_acc', entryPoint: 'g2msm_acc', plan: { G2_ACC_WG }, bindings: ACC_B },
  { kernel: 'g2msm_reduce', entryPoint: 'g2msm_reduce_seg', plan: { G2_RED_WG }, bindings: RED_B },
  { kernel: 'g2msm_reduce', entryPoint: 'g2msm_reduce_level', plan: { G2_RED_WG }, bindings: RED_B },
]);

/** Whether g2Pipelines would resolve at once: the bucket method's or the quick MSM's pipelines are compiled. */
export function g2PipelinesReady(pipelines: PipelineCache): boolean {
  return pipelines.fastOrQuickReady(G2_RUN_PIPELINES, [G2_QUICK_PIPELINE]);
}

/**
 * A run's pipelines: the bucket method's once compiled, the quick one until then (requested
 * ahead of them); `only`: that one, waiting for its compile (checks, benches).
 */
export async function g2Pipelines(
  pipelines: PipelineCache,
  only?: Speed,
): Promise<{ speed: 'fast'; pipes: G2Pipelines } | { speed: 'quick'; quick: GPUComputePipeline }> {
  const { speed, pipelines: p } = await pipelines.fastOrQuick(G2_RUN_PIPELINES, [G2_QUICK_PIPELINE], only);
  if (speed === 'quick') return { speed, quick: p[0] };
  const [split, count, scanBlocks, scanTotals, scanAdd, scatter, acc, reduceSeg, reduceLevel] = p;
  return { speed, pipes: { split, count, scanBlocks, scanTotals, scanAdd, scatter, acc, reduceSeg, reduceLevel } };
}
