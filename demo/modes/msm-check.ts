// Autorun modes `msm-noble-check` (WGSL Fq vs bigint, edge cases and seeded inputs up to
// 2^logn vs @noble/curves with both walkers, arkworks vectors, error codes; `&logn=N`, default 6) and
// `msm-bench-gpu` (`&logn=N`: per-pass GPU time via timestamp-query where available, pool bytes;
// `&lowmem=1` forces a ring of scalar half-planes; each row gives the host-side calls' own time,
// GPU work excluded: on a CPU adapter, the host share a phone's CPU pays).
import type { ModeContext } from '../autorun.js';
import { GpuContext } from '../../src/gpu/context.js';
import {
  checkArkworks,
  checkFq,
  checkMsmCase,
  checkMsmErrors,
  msmCases,
  packScalars,
  seededPoints,
  seededScalar,
  type MsmCheckRow,
} from '../../bench/support/msm-check.js';
import { checkMsmLowMemory, checkMsmWgInv } from '../../bench/support/msm-plan-check.js';
import ark from '../../test/vectors/msm_arkworks.json' with { type: 'json' };
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { checkFq13 } from '../../bench/support/fq-layout-check.js';
import { checkMsmPaths, checkMsmSplit } from '../../bench/support/msm-paths-check.js';
import { checkBasesRing, checkOneShotParts, checkPipelinedErrors } from '../../bench/support/msm-oneshot-check.js';
import { checkColdFirstMsm, checkMsmEngines } from '../../bench/support/msm-engine-check.js';

function emit(report: ModeContext['report'], r: MsmCheckRow): void {
  report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
}

export async function msmNobleCheck({ prover, params, report }: ModeContext): Promise<void> {
  const logn = Number(params.get('logn') ?? 6);
  // The page's first MSM takes the quick engine while the walker compiles; then the walker's
  // pipelines are compiled ahead, so the rows below run on it wherever its plans are warm.
  emit(report, await checkColdFirstMsm(prover));
  await prover.warmUp(['msm']);
  const ctx = await GpuContext.create(navigator.gpu, params.get('limits') === 'default' ? { limits: 'default' } : {});
  try {
    emit(report, await checkFq(ctx, 256));
    emit(report, await checkFq13(ctx, 256));
    for (const r of await checkMsmSplit(ctx)) emit(report, r);
    // Once per spec (these compile the MSM's pipelines on this context: ~16 s on SwiftShader).
    if (params.get('limits') !== 'default') {
      emit(report, await checkBasesRing(ctx));
      for (const r of await checkOneShotParts(ctx)) emit(report, r);
    }
  } finally {
    ctx.destroy();
  }
  for (const c of msmCases(logn)) emit(report, await checkMsmCase(prover, c));
  for (const r of await checkMsmLowMemory(prover, Math.min(1 << logn, 256))) emit(report, r);
  for (const r of await checkMsmWgInv(prover, logn)) emit(report, r);
  for (const r of await checkArkworks(prover, ark.cases as never)) emit(report, r);
  for (const r of await checkMsmErrors(prover)) emit(report, r);
  for (const r of await checkMsmPaths(prover, logn)) emit(report, r);
  for (const r of await checkPipelinedErrors(prover)) emit(report, r);
  for (const r of await checkMsmEngines(prover, logn)) emit(report, r);
}

export async function msmBenchGpu({ prover, params, report }: ModeContext): Promise<void> {
  const logn = Number(params.get('logn') ?? 10);
  const n = 1 << logn;
  const rng = new SplitMix64(0xb1);
  const pts = seededPoints(rng, n);
  const ks = new Uint32Array(packScalars(Array.from({ length: n }, () => seededScalar(rng))).buffer);
  // lowmem: one window per batch and a ring of scalar half-planes, the plan 2^20 gets by default.
  const lowmem = params.get('lowmem') === '1';
  const h = await prover.msmBases(pts);
  try {
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      const r = await h.msmProfiled(ks, lowmem ? { lowMemory: true, scratchBytes: 1 } : {});
      const ms = performance.now() - t0;
      const byPass: Record<string, number> = {};
      for (const p of r.profiles[0]?.passes ?? []) byPass[p.label] = (byPass[p.label] ?? 0) + (p.ms ?? 0);
      report(`msm 2^${logn} rep ${rep}`, 'info', ms, {
        n,
        plan: r.plans[0],
        gpuMs: r.profiles[0]?.gpuMs ?? null,
        source: r.profiles[0]?.source,
        passes: byPass,
        poolBytes: r.poolBytes,
        hostMs: r.hostMs,
        detail: `host-side calls ${r.hostMs.toFixed(2)} ms (GPU work excluded); pool ${r.poolBytes} B (plan estimate ${r.plans[0].poolBytes} B), ${r.plans.length} run(s), ${r.plans[0].planes} scalar half-planes, c=${r.plans[0].c}, ${r.plans[0].batches} batches`,
      });
    }
  } finally {
    h.destroy();
  }
}
