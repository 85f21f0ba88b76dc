/**
 * `npm run bench -- whir` (Node + Dawn, on the GPU machine `node bench/dist/bench.mjs whir`):
 * WHIR commit and open over the grid n × fold × rate (p3-whir's defaults otherwise: 90 bits,
 * 16 PoW bits, CapacityBound), on the table SplitMix64(seed) makes — the oracle's `--seed` table.
 * Per configuration: one warm-up run whose proof the TS verifier must accept (and, with
 * WHIR_ORACLE, the crate's verifier), then WHIR_RUNS timed runs: medians of commit, open and
 * end to end, the per-phase breakdown from the progress events (bench/support/whir-run.ts), proof
 * size. With WHIR_ORACLE=<whir-oracle binary> the native p3-whir prover runs
 * `bench --n --fold --rate --runs --seed` on the same host in the same run and its medians go
 * beside ours (`native`, `ratio` = ours / native end to end). The oracle runs with `--phases`:
 * `native.phases` is p3-whir's own split from its tracing spans (ms, mean per run, keys named as
 * our phases where they match; bench/whir-oracle/README.md), `native.phasesPerRound` up to 4 rounds.
 *
 * Env: WHIR_N (default 16,18,20,22), WHIR_FOLD (1,2,4), WHIR_RATE (1,2), WHIR_RUNS (5), WHIR_RS
 * (rsInitialReduction, capped at the fold: whir-p3-metal's rate schedule; default p3-whir's),
 * WHIR_SEED (1), WHIR_CHECK (the prover's result checks: off | sample | full; default off),
 * WHIR_OUT (a folder: each warm-up proof's envelope as whir-n<N>-f<F>-r<R>.json, for
 * `whir-oracle verify FILE` afterwards), WHIR_ORACLE (see above), WHIR_EXACT=1 (with WHIR_ORACLE:
 * also require the proof to equal the crate's `prove --threads 1` proof byte for byte).
 * Configurations p3-whir refuses (e.g. InitialClaimsBelowTarget) print a `skipped` row.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProver, type Prover } from '../src/index.js';
import type { CheckMode } from '../src/sched/job.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { explicitRates, proofSize, timedWhir, whirEnvelope, whirOptions, type TimedWhir, type WhirCase } from './support/whir-run.js';
import type { BenchOutput } from './field.js';

type Row = Record<string, unknown>;
const r1 = (x: number) => +x.toFixed(1);
const list = (v: string | undefined, d: string) => (v ?? d).split(',').map(Number);

export async function benchWhir(gpu: GPU): Promise<BenchOutput> {
  const ns = list(process.env.WHIR_N, '16,18,20,22');
  const folds = list(process.env.WHIR_FOLD, '1,2,4');
  const rates = list(process.env.WHIR_RATE, '1,2');
  const rs = process.env.WHIR_RS ? Number(process.env.WHIR_RS) : undefined;
  const runs = Number(process.env.WHIR_RUNS ?? 5);
  const seed = Number(process.env.WHIR_SEED ?? 1);
  const check = (process.env.WHIR_CHECK ?? 'off') as CheckMode;
  const outDir = process.env.WHIR_OUT;
  const oracle = process.env.WHIR_ORACLE;
  const exact = process.env.WHIR_EXACT === '1';
  if (outDir) mkdirSync(outDir, { recursive: true });

  const rows: Row[] = [];
  let ok = true;
  const prover = await createProver({ gpu, check, worker: false });
  try {
    rows.push({ bench: 'whir-adapter', adapter: prover.info.adapter, check, runs, seed, capabilities: prover.capabilities() });
    for (const n of ns) {
      const evals = new SplitMix64(seed).fieldArray(2 ** n);
      for (const fold of folds) {
        for (const rate of rates) {
          const row = await benchOne(prover, { n, fold, rate, ...(rs ? { rs: Math.min(rs, fold) } : {}) }, evals, {
            runs,
            seed,
            outDir,
            oracle,
            exact,
          });
          console.log(JSON.stringify(row));
          rows.push(row);
          if (row.ok === false) ok = false;
        }
      }
    }
  } finally {
    prover.destroy();
  }
  // run.ts prints the rows again at the end (one JSON line each); the lines above came as they ran.
  return { rows, ok };
}

interface Opts {
  runs: number;
  seed: number;
  outDir?: string;
  oracle?: string;
  exact: boolean;
}

async function benchOne(prover: Prover, c: WhirCase, evals: Uint32Array, o: Opts): Promise<Row> {
  const base: Row = { bench: 'whir', n: c.n, fold: c.fold, rate: c.rate, ...(c.rs ? { rsInitialReduction: c.rs } : {}) };
  let rounds: number;
  try {
    rounds = prover.whir(whirOptions(c)).schedule().rounds.length;
  } catch (e) {
    return { ...base, skipped: `${(e as { code?: string }).code ?? 'error'}: ${(e as Error).message}` };
  }

  // Warm-up, and the correctness gate: the TS verifier, the crate's verifier, optionally the crate's proof.
  const warm = await timedWhir(prover, c, evals);
  const rates = explicitRates(prover, c);
  const envelope = whirEnvelope(c, warm.root, warm.opening, rates);
  const verdict = await prover.whir(whirOptions(c)).verify(warm.root, warm.opening);
  const gate: Row = { tsVerify: verdict.ok };
  let ok = verdict.ok;
  const file = join(o.outDir ?? '/tmp', `whir-n${c.n}-f${c.fold}-r${c.rate}.json`);
  if (o.outDir || o.oracle) writeFileSync(file, JSON.stringify(envelope));
  if (o.outDir) gate.envelope = file;
  const params = [
    '--n',
    String(c.n),
    '--fold',
    String(c.fold),
    '--rate',
    String(c.rate),
    '--seed',
    String(o.seed),
    ...(rates.length ? ['--rates', rates.join(',')] : []),
  ];
  if (o.oracle) {
    const v = spawnSync(o.oracle, ['verify', file], { encoding: 'utf8' });
    gate.rustVerify = v.stdout.trim() || v.stderr.trim();
    ok &&= /^VERIFY OK/.test(v.stdout);
    if (o.exact) {
      const theirs = `${file}.rust.json`;
      const p = spawnSync(o.oracle, ['prove', ...params, '--out', theirs, '--threads', '1'], { encoding: 'utf8' });
      const same = p.status === 0 && JSON.stringify(JSON.parse(readFileSync(theirs, 'utf8')).proof) === JSON.stringify(envelope.proof);
      gate.sameAsRust = same;
      ok &&= same;
    }
  }

  const timed: TimedWhir[] = [];
  for (let r = 0; r < o.runs; r++) timed.push(await timedWhir(prover, c, evals));
  const med = (f: (t: TimedWhir) => number) => r1(median(timed.map(f)));
  const phases = Object.fromEntries(Object.keys(warm.phases).map((k) => [k, med((t) => t.phases[k] ?? 0)]));
  const ours = { commitMs: med((t) => t.commitMs), openMs: med((t) => t.openMs), totalMs: med((t) => t.commitMs + t.openMs) };

  let native: Row | undefined;
  if (o.oracle) {
    const b = spawnSync(o.oracle, ['bench', ...params, '--runs', String(o.runs), '--phases'], { encoding: 'utf8', maxBuffer: 1 << 20 });
    try {
      native = JSON.parse(b.stdout.trim().split('\n').pop() ?? '') as Row;
      // `phases` (~15 keys, rounds summed) stays; the per-round split only while it is short.
      if (Array.isArray(native.phasesPerRound) && native.phasesPerRound.length > 4) delete native.phasesPerRound;
    } catch {
      native = { error: (b.stderr || b.stdout).trim().slice(0, 300) };
    }
  }
  const nativeTotal = native?.commitPlusProveMs as number | undefined;
  // The pool's high-water mark since the prover was made; the grid runs n upward, so after n's
  // rows it is n's peak (the staging ring's mapped slots, up to 128 MiB, are not pool buffers).
  const peakPoolMiB = +(prover.stats().peakBytesInUse / 2 ** 20).toFixed(1);
  return {
    ...base,
    rounds,
    runs: o.runs,
    ...ours,
    phases,
    peakPoolMiB,
    ...proofSize(envelope.proof),
    ...gate,
    ok,
    ...(native ? { native, ratio: nativeTotal ? +(ours.totalMs / nativeTotal).toFixed(3) : null } : {}),
  };
}
