// Autorun mode `whir-engine-check`: the GPU WHIR sumcheck engine against CpuSumcheckEngine on a
// GpuContext of its own (bench/support/whir-engine-check.ts). `?sizes=1,2,5` picks the table sizes
// (log2; default 1, 2, 5, 8, 11, 13).
import type { ModeContext } from '../autorun.js';
import { GpuContext } from '../../src/gpu/context.js';
import { checkWhirEngine, ENGINE_SIZES } from '../../bench/support/whir-engine-check.js';

export async function whirEngineCheck({ params, report }: ModeContext): Promise<void> {
  const sizes = params.get('sizes')?.split(',').map(Number) ?? ENGINE_SIZES;
  const ctx = await GpuContext.create(navigator.gpu, params.get('limits') === 'default' ? { limits: 'default' } : {});
  try {
    for (const r of await checkWhirEngine(ctx, sizes)) report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
  } finally {
    ctx.destroy();
  }
}
