/**
 * The QAP stage's pipelines as requests, once: the stage (stage.ts), its root tables (tables.ts) and
 * its NTT passes (ntt.ts) build them from here, and a first groth16 call requests them all at once
 * with the G1 and G2 MSMs' (kernels/first-call.ts), so the driver compiles them side by side.
 * @module
 */
import type { BindingKind, PipelineCache, PipelineRequest, Speed } from '../../gpu/pipeline-cache.js';
import { frNttPlanConsts, planFrNtt, type FrNttLimits, type FrNttPlan } from './ntt-plan.js';

/** Threads per workgroup of the root-table kernel (fr_twiddles). */
export const FR_TW_WG = 64;

/** fr_ntt_pass: src, dst, root table, params. */
export const FR_NTT_BINDINGS: readonly BindingKind[] = ['read-only-storage', 'storage', 'read-only-storage', 'uniform'];

/**
 * fr_qap: row offsets, signals, values, witness, A, B, C, params. Explicit, so one layout serves
 * the fast and the quick pipelines alike.
 */
export const QAP_BINDINGS: readonly BindingKind[] = [
  'read-only-storage',
  'read-only-storage',
  'read-only-storage',
  'read-only-storage',
  'storage',
  'storage',
  'storage',
  'uniform',
];

/** Threads per workgroup of fr_qap. */
export const QAP_WG = FR_TW_WG;

/** The root table's kernel (its product's rows in a loop always: it runs once per domain size). */
export const FR_TWIDDLES_PIPELINE: PipelineRequest = { kernel: 'fr_twiddles', entryPoint: 'fr_twiddles', plan: { FR_TW_WG } };

/**
 * The pass pipeline of an NTT plan (one per tile size). `quick`: its products' rows in a loop
 * (FR_QUICK = 1), a fraction of the compile: a first proof runs on it while the fast one compiles.
 */
export function frNttRequest(plan: FrNttPlan, quick = false): PipelineRequest {
  return {
    kernel: 'fr_ntt',
    entryPoint: 'fr_ntt_pass',
    plan: { ...frNttPlanConsts(plan), FR_QUICK: quick ? 1 : 0 },
    bindings: FR_NTT_BINDINGS,
  };
}

/** A QAP stage's pipelines over one NTT plan: evaluations and h (one entry point), NTT pass (fast, or quick as frNttRequest). */
export function qapStageRequests(plan: FrNttPlan, quick: boolean): PipelineRequest[] {
  const plan0 = { FR_QAP_WG: QAP_WG, FR_QUICK: quick ? 1 : 0 };
  return [{ kernel: 'fr_qap', entryPoint: 'fr_qap', plan: plan0, bindings: QAP_BINDINGS }, frNttRequest(plan, quick)];
}

/** A stage's pipelines (evaluations and h, NTT pass): `only` that set, or the fast ones once compiled and the quick ones until then. */
export function qapStagePipelines(
  pipelines: PipelineCache,
  plan: FrNttPlan,
  only?: Speed,
): Promise<{ speed: Speed; pipelines: GPUComputePipeline[] }> {
  return pipelines.fastOrQuick(qapStageRequests(plan, false), qapStageRequests(plan, true), only);
}

/** Whether a run would start at once: the stage's fast or quick pipelines are compiled. */
export function qapStageReady(pipelines: PipelineCache, plan: FrNttPlan): boolean {
  return pipelines.fastOrQuickReady(qapStageRequests(plan, false), qapStageRequests(plan, true));
}

/** Every pipeline a QAP stage over domains of these sizes uses, fast or quick (sizes it cannot plan are left out: their job reports it). */
export function qapPipelineRequests(limits: FrNttLimits, domainSizes: readonly number[], quick: boolean): PipelineRequest[] {
  const stages = domainSizes.flatMap((n) => {
    try {
      return qapStageRequests(planFrNtt(Math.log2(n), limits), quick);
    } catch {
      return [];
    }
  });
  return [FR_TWIDDLES_PIPELINE, ...stages];
}
