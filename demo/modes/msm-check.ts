// Autorun modes `msm-noble-check` (WGSL Fq vs bigint, edge cases and seeded inputs up to
// 2^logn vs @noble/curves, arkworks vectors, error codes; `&logn=N`, default 6) and
// `msm-bench-gpu` (`&logn=N`: per-pass GPU time via timestamp-query where available, pool bytes).
import type { ModeContext } from '../autorun.js';
import { GpuContext } from '../../src/gpu/context.js';
import { checkArkworks, checkFq, checkMsmCase, checkMsmErrors, msmCases, seededPoints, seededScalar, type MsmCheckRow } from '../../test/gpu/msm-check.js';
import ark from '../../test/vectors/msm_arkworks.json' with { type: 'json' };
import { SplitMix64 } from '../../test/support/splitmix.js';

function emit(report: ModeContext['report'], r: MsmCheckRow): void {
  report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
}

export async function msmNobleCheck({ prover, params, report }: ModeContext): Promise<void> {
  const logn = Number(params.get('logn') ?? 6);
  const ctx = await GpuContext.create(navigator.gpu);
  try {
    emit(report, await checkFq(ctx, 256));
  } finally {
    ctx.destroy();
  }
  for (const c of msmCases(logn)) emit(report, await checkMsmCase(prover, c));
  for (const r of await checkArkworks(prover, ark.cases as never)) emit(report, r);
  for (const r of await checkMsmErrors(prover)) emit(report, r);
}

export async function msmBenchGpu({ prover, params, report }: ModeContext): Promise<void> {
  const logn = Number(params.get('logn') ?? 10);
  const n = 1 << logn;
  const rng = new SplitMix64(0xb1);
  const pts = seededPoints(rng, n);
  const ks = Array.from({ length: n }, () => seededScalar(rng));
  const h = await prover.msmBases(pts);
  try {
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      const r = await h.msmProfiled(ks);
      const ms = performance.now() - t0;
      const byPass: Record<string, number> = {};
      for (const p of r.profiles[0]?.passes ?? []) byPass[p.label] = (byPass[p.label] ?? 0) + (p.ms ?? 0);
      report(`msm 2^${logn} rep ${rep}`, 'info', ms, {
        n, plan: r.plans[0], gpuMs: r.profiles[0]?.gpuMs ?? null, source: r.profiles[0]?.source, passes: byPass, poolBytes: r.poolBytes,
      });
    }
  } finally {
    h.destroy();
  }
}
