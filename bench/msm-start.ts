/**
 * `node bench/dist/bench.mjs msm-start`: a fresh prover's first seconds of large MSMs. In a fresh
 * process (run it alone: the first thing it compiles), createProver at the defaults, then
 * MSM_START_CALLS one-shot `prover.msm(points, scalars)` calls of 2^MSM_START_LOGN points (default
 * 8 of 2^20) back to back, each timed end to end with the engines its runs took, every result
 * checked against its known answer. While the walker's pipelines compile, runs take the quick
 * engine (src/kernels/msm/engines.ts): what the calls of those seconds cost against warm ones.
 * @module
 */
import { createProver } from '../src/index.js';
import type { BenchOutput } from './field.js';
import { scalarsAndExpected, tiledBases } from './msm.js';

const LOGN = Number(process.env.MSM_START_LOGN ?? 20);
const CALLS = Number(process.env.MSM_START_CALLS ?? 8);

export async function benchMsmStart(gpu: GPU): Promise<BenchOutput> {
  const n = 1 << LOGN;
  const { bytes, dlog } = tiledBases(n);
  const { bytes: scalars, expected } = scalarsAndExpected(n, dlog, 77 + LOGN);
  const t0 = performance.now();
  const prover = await createProver({ gpu });
  const createMs = performance.now() - t0;
  const calls: { ms: number; atMs: number; engines: Record<string, number>; equal: boolean }[] = [];
  try {
    for (let i = 0; i < CALLS; i++) {
      const before = { ...prover.stats().engineRuns };
      const start = performance.now();
      const got = await prover.msm(bytes, scalars);
      const ms = performance.now() - start;
      const after = prover.stats().engineRuns;
      const engines = Object.fromEntries(
        Object.entries(after)
          .filter(([k, v]) => k.startsWith('msm') && v !== (before[k] ?? 0))
          .map(([k, v]) => [k, v - (before[k] ?? 0)]),
      );
      calls.push({ ms, atMs: start - t0, engines, equal: got.equals(expected) });
      console.error(JSON.stringify({ call: i, ...calls[i] }));
    }
  } finally {
    prover.destroy();
  }
  const ms = calls.map((c) => c.ms);
  const row = {
    suite: 'msm-start',
    case: `${CALLS} one-shot msm() calls of 2^${LOGN} points from createProver`,
    createProverMs: createMs,
    callsMs: ms,
    callsAtMs: calls.map((c) => c.atMs),
    engines: calls.map((c) => c.engines),
    firstMs: ms[0],
    slowestAfterFirstMs: Math.max(...ms.slice(1)),
    noneSlowerThanFirst: ms.slice(1).every((m) => m <= ms[0]),
    allEqual: calls.every((c) => c.equal),
  };
  return { rows: [row], ok: row.allEqual };
}
