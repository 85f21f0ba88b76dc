/**
 * `node bench/dist/bench.mjs whir-commit` (GPU machine): where WHIR's table commit spends its
 * time, step by step, at WHIR_N (default 22,24), fold 4, rate 1. Rows, medians of WHIR_RUNS (5):
 * the host copy of the table (`evals.slice()`), `prover.commit` of the same table as 16 columns
 * (the encode + Merkle job whirCommit runs, with each GPU submission's time from
 * `stats().jobs.last`), `prover.whirCommit` end to end, and whirCommit + prove end to end; each
 * with the SM clock over its runs. The whir suite times the protocol phases; this one splits the
 * first of them.
 * @module
 */
import { createProver, type Prover } from '../src/index.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { withClock, type ClockSampler } from './gpu-clock.js';
import type { BenchOutput } from './field.js';

type Row = Record<string, unknown>;
const r2 = (x: number) => +x.toFixed(2);

async function timed(runs: number, clock: ClockSampler, body: () => Promise<void>): Promise<{ ms: number; mhz: number | null }> {
  await body();
  const ms: number[] = [];
  const spans: [number, number][] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = Date.now();
    const p0 = performance.now();
    await body();
    ms.push(performance.now() - p0);
    spans.push([t0, Date.now()]);
  }
  return { ms: r2(median(ms)), mhz: clock.median(spans) };
}

async function probe(prover: Prover, n: number, runs: number, clock: ClockSampler): Promise<Row[]> {
  const evals = new SplitMix64(1).fieldArray(2 ** n);
  const rows: Row[] = [];
  const options = { numVariables: n, foldingFactor: 4, startingLogInvRate: 1, ...(n >= 24 ? { rsInitialReduction: 3 } : {}) };
  let sink = 0;
  rows.push({
    bench: 'whir-commit',
    n,
    step: 'evals.slice()',
    ...(await timed(runs, clock, async () => {
      sink += evals.slice()[1];
    })),
  });
  let submissions: unknown = null;
  const commit = await timed(runs, clock, async () => {
    const { tree } = await prover.commit(evals, { width: 16, addedBits: 1 });
    submissions = prover.stats().jobs.last?.submissions;
    tree.dispose();
  });
  rows.push({ bench: 'whir-commit', n, step: 'prover.commit (16 columns, blow-up 2)', ...commit, submissions });
  rows.push({
    bench: 'whir-commit',
    n,
    step: 'whirCommit',
    ...(await timed(runs, clock, async () => {
      (await prover.whirCommit(options, evals)).handle.dispose();
    })),
  });
  rows.push({
    bench: 'whir-commit',
    n,
    step: 'whirCommit + prove',
    ...(await timed(runs, clock, async () => {
      await (await prover.whirCommit(options, evals)).handle.prove();
    })),
  });
  if (sink < 0) console.log(sink);
  return rows;
}

export async function benchWhirCommit(gpu: GPU): Promise<BenchOutput> {
  const ns = (process.env.WHIR_N ?? '22,24').split(',').map(Number);
  const runs = Number(process.env.WHIR_RUNS ?? 5);
  const prover = await createProver({ gpu, worker: false, check: 'off' });
  try {
    const rows = await withClock(async (clock) => {
      const out: Row[] = [];
      for (const n of ns)
        for (const r of await probe(prover, n, runs, clock)) {
          console.log(JSON.stringify(r));
          out.push(r);
        }
      return out;
    });
    return { rows, ok: true };
  } finally {
    prover.destroy();
  }
}
