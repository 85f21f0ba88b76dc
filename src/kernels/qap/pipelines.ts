/**
 * The QAP stage's pipelines as requests, once: the stage (stage.ts), its root tables (tables.ts) and
 * its NTT passes (ntt.ts) build them from here, and a first groth16 call requests them all at once
 * with the G1 and G2 MSMs' (kernels/first-call.ts), so the driver compiles them side by side.
 * @module
 */
import type { BindingKind, PipelineRequest } from '../../gpu/pipeline-cache.js';
import { frNttPlanConsts, planFrNtt, type FrNttLimits, type FrNttPlan } from './ntt-plan.js';

/** Threads per workgroup of the root-table kernel (fr_twiddles). */
export const FR_TW_WG = 64;

const NTT_BINDINGS: readonly BindingKind[] = ['read-only-storage', 'storage', 'read-only-storage', 'uniform'];

/** Threads per workgroup of fr_qap_eval and fr_qap_h. */
export const QAP_WG = FR_TW_WG;

export const FR_QAP_EVAL_PIPELINE: PipelineRequest = { kernel: 'fr_qap', entryPoint: 'fr_qap_eval', plan: { FR_QAP_WG: QAP_WG } };
export const FR_QAP_H_PIPELINE: PipelineRequest = { kernel: 'fr_qap', entryPoint: 'fr_qap_h', plan: { FR_QAP_WG: QAP_WG } };
export const FR_TWIDDLES_PIPELINE: PipelineRequest = { kernel: 'fr_twiddles', entryPoint: 'fr_twiddles', plan: { FR_TW_WG } };

/** The pass pipeline of an NTT plan (one per tile size). */
export function frNttRequest(plan: FrNttPlan): PipelineRequest {
  return { kernel: 'fr_ntt', entryPoint: 'fr_ntt_pass', plan: frNttPlanConsts(plan), bindings: NTT_BINDINGS };
}

/** Every pipeline a QAP stage over domains of these sizes uses (sizes it cannot plan are left out: their job reports it). */
export function qapPipelineRequests(limits: FrNttLimits, domainSizes: readonly number[]): PipelineRequest[] {
  const ntt = domainSizes.flatMap((n) => {
    try {
      return [frNttRequest(planFrNtt(Math.log2(n), limits))];
    } catch {
      return [];
    }
  });
  return [FR_QAP_EVAL_PIPELINE, FR_QAP_H_PIPELINE, FR_TWIDDLES_PIPELINE, ...ntt];
}
