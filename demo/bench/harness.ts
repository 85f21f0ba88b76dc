/**
 * The shape every bench mode shares: check the GPU result at the bench's size first, then time
 * the GPU (the page's prover, as a dApp calls it) and the library's CPU path (cpuProver(): src/ref
 * and @noble/curves, what createProver({ fallback: 'cpu' }) runs) in the same browser, and post
 * one summary row a table, the chart and the device driver read.
 *
 * Reps time `iters` calls each; the row gives the median rep, the per-call time (median / iters)
 * and elements/s. The GPU's first call is reported apart (it compiles pipelines and runs the
 * family's self-check). Calls pass `check: 'off'`: the prover's sampled run-time check re-runs
 * part of each job on the CPU, which would blur the comparison; this harness checks instead.
 * @module
 */
import type { Prover } from '../../src/index.js';
import type { Backend } from '../../src/prover.js';
import type { Family } from '../../src/methods.js';
import type { ProfileReport } from '../../src/gpu/profiler.js';
import { median } from '../../bench/support/stats.js';
import type { ModeContext } from '../autorun.js';
import { fmtRate } from './table.js';

/** A check's verdict: `full` when every output value was compared, else what was sampled. */
export interface Verdict {
  ok: boolean;
  detail: string;
  full: boolean;
}

/** One kernel at one size: how to make its input, run it on either path and check it. */
export interface BenchCase<I, O> {
  kernel: string;
  /** The family whose path (prover.capabilities()) must be the GPU's for the GPU column to mean it. */
  family: Family;
  /** e.g. "2^12 x 8" */
  size: string;
  logn: number;
  /** What elements/s counts (rows·width values, states, leaves, expected hashes, points). */
  elements: number;
  input(): I;
  gpu(prover: Prover, input: I): Promise<O>;
  cpu(cpu: Backend, input: I): Promise<O>;
  /** The CPU path runs (and is timed) only up to this log size: past it, `sampled` checks the GPU. */
  cpuMaxLogn: number;
  /** Compare with the CPU path's output (src/ref / noble), all of it. */
  equal(gpu: O, cpu: O): Verdict;
  /** Where the CPU path is too slow: a check of the GPU output alone (direct evaluation of sampled rows, openings). */
  sampled(gpu: O, input: I): Promise<Verdict>;
  /** Per-pass GPU time of one run (timestamp-query, else wall clock), where a kernel has it. */
  profile?(prover: Prover, input: I): Promise<ProfileReport | null>;
  /** The bench/native JSON line that times the same work natively (its fields to match), where there is one. */
  nativeKey?: Record<string, string | number>;
  /** Free what an output holds (Merkle trees keep GPU buffers). */
  release?(out: O): void;
}

export interface PathTiming {
  reps: number;
  iters: number;
  medianMs: number;
  minMs: number;
  perIterMs: number;
  elementsPerS: number;
}

/** The summary row's payload (what bench/device reads from `bench` rows). */
export interface BenchSummary {
  kernel: string;
  size: string;
  logn: number;
  elements: number;
  check: Verdict;
  firstCallMs: number;
  gpu: PathTiming;
  cpu: PathTiming | null;
  /** cpu.perIterMs / gpu.perIterMs: above 1 the GPU wins. */
  gpuSpeedup: number | null;
  passes: { label: string; ms: number | null }[];
  passSource: ProfileReport['source'] | null;
  nativeKey: Record<string, string | number> | null;
}

export interface BenchOptions {
  reps: number;
  iters: number;
  /** Overrides each case's cpuMaxLogn (`&cpuMax=`; -1 never runs the CPU path). */
  cpuMaxLogn?: number;
  profile: boolean;
}

export function benchOptions(params: URLSearchParams, defaults: { reps: number }): BenchOptions {
  const num = (k: string) => (params.has(k) ? Number(params.get(k)) : undefined);
  return { reps: num('reps') ?? defaults.reps, iters: num('iters') ?? 1, cpuMaxLogn: num('cpuMax'), profile: params.get('passes') !== '0' };
}

async function time<O>(
  run: () => Promise<O>,
  release: ((o: O) => void) | undefined,
  o: BenchOptions,
  elements: number,
): Promise<PathTiming> {
  const reps: number[] = [];
  for (let r = 0; r < o.reps; r++) {
    const t0 = performance.now();
    const outs: O[] = [];
    for (let i = 0; i < o.iters; i++) outs.push(await run());
    reps.push(performance.now() - t0);
    for (const out of outs) release?.(out);
  }
  const medianMs = median(reps);
  const perIterMs = medianMs / o.iters;
  return { reps: o.reps, iters: o.iters, medianMs, minMs: Math.min(...reps), perIterMs, elementsPerS: elements / (perIterMs / 1e3) };
}

/** Check, then time GPU and CPU; posts a 'check' row and a summary row named after the case. */
export async function runBench<I, O>(
  c: BenchCase<I, O>,
  cpu: Backend,
  { prover, report }: ModeContext,
  o: BenchOptions,
): Promise<BenchSummary | null> {
  const name = `${c.kernel} ${c.size}`;
  const input = c.input();
  let t0 = performance.now();
  const first = await c.gpu(prover, input);
  const firstCallMs = performance.now() - t0;
  report(`${name}: first GPU call`, 'info', firstCallMs, { detail: 'compiles pipelines and runs the family self-check' });
  // A family whose self-check failed runs on the CPU path: its "GPU" times would be the CPU's.
  const path = prover.capabilities()[c.family];
  if (path.path !== 'gpu') {
    report(`${name}: on the GPU`, 'fail', 0, {
      detail: `the ${c.family} family runs on the CPU path (${path.reason ?? 'no reason given'}): nothing to time on the GPU`,
    });
    c.release?.(first);
    return null;
  }

  const cpuMax = o.cpuMaxLogn ?? c.cpuMaxLogn;
  const runCpu = c.logn <= cpuMax;
  let check: Verdict;
  t0 = performance.now();
  if (runCpu) {
    const want = await c.cpu(cpu, input);
    check = c.equal(first, want);
    c.release?.(want);
  } else {
    check = await c.sampled(first, input);
  }
  c.release?.(first);
  report(`${name}: check`, check.ok ? 'ok' : 'fail', performance.now() - t0, { detail: check.detail, full: check.full });
  // A wrong kernel has no speed worth reporting.
  if (!check.ok) return null;

  const gpu = await time(() => c.gpu(prover, input), c.release, o, c.elements);
  const cpuTime = runCpu ? await time(() => c.cpu(cpu, input), c.release, o, c.elements) : null;
  const prof = o.profile && c.profile ? await c.profile(prover, input) : null;
  const summary: BenchSummary = {
    kernel: c.kernel,
    size: c.size,
    logn: c.logn,
    elements: c.elements,
    check,
    firstCallMs,
    gpu,
    cpu: cpuTime,
    gpuSpeedup: cpuTime ? cpuTime.perIterMs / gpu.perIterMs : null,
    passes: prof?.passes ?? [],
    passSource: prof?.source ?? null,
    nativeKey: c.nativeKey ?? null,
  };
  const vs = cpuTime
    ? `CPU ${cpuTime.perIterMs.toFixed(2)} ms (${fmtRate(cpuTime.elementsPerS)}/s), GPU/CPU speedup ${summary.gpuSpeedup!.toFixed(2)}x`
    : `CPU not run past 2^${cpuMax}`;
  // 'info': a measurement; the check above is the row that passes or fails.
  report(name, 'info', gpu.perIterMs, {
    detail: `GPU ${gpu.perIterMs.toFixed(2)} ms (${fmtRate(gpu.elementsPerS)} elements/s, median of ${o.reps}); ${vs}`,
    bench: summary,
  });
  return summary;
}
