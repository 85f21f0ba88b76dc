// Autorun mode `fq-bench` (not in all-check): the BN254 Fq multiply microbenchmark for the limb
// layouts, 8x32 (emulated mulhi), 20x13 (no-carry) and 8x32 values multiplied on 13-bit limbs
// (fq_mul13), on the same job, after the 20x13 check against bigint. `&threads=N&iters=K&reps=R` (defaults 4096, 16, 3: SwiftShader-sized).
import type { ModeContext } from '../autorun.js';
import { GpuContext } from '../../src/gpu/context.js';
import { benchFqLayouts, checkFq13 } from '../../bench/support/fq-layout-check.js';

export async function fqBench({ params, report }: ModeContext): Promise<void> {
  const threads = Number(params.get('threads') ?? 4096);
  const iters = Number(params.get('iters') ?? 16);
  const reps = Number(params.get('reps') ?? 3);
  const ctx = await GpuContext.create(navigator.gpu);
  try {
    const c = await checkFq13(ctx, 256);
    report(c.step, c.ok ? 'ok' : 'fail', c.ms, { n: c.n, detail: c.detail });
    for (const r of await benchFqLayouts(ctx, threads, iters, reps)) {
      const rate = `${(r.gmulsPerS * 1e3).toFixed(3)} M mul/s (${r.threads} threads x ${r.mulsPerThread}, median of ${reps})`;
      report(`fq mul ${r.layout}`, r.ok ? 'ok' : 'fail', r.ms, { ...r, adapter: ctx.description, detail: `${rate}; ${r.detail}` });
    }
  } finally {
    ctx.destroy();
  }
}
