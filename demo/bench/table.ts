/**
 * Bench rows as a table: the markdown the page copies, `npm start` prints and bench/device
 * writes. Browser-safe (no Node imports): the page and the Node scripts share it.
 * @module
 */
import type { BenchSummary } from './harness.js';

/** The summaries among a run's rows (rows whose `bench` field a bench mode set). */
export function benchSummaries(rows: readonly Record<string, unknown>[]): BenchSummary[] {
  return rows.filter((r) => r.bench && typeof r.bench === 'object').map((r) => r.bench as BenchSummary);
}

export const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(2) : ms.toFixed(4));

export function fmtRate(x: number): string {
  if (x >= 1e9) return `${(x / 1e9).toFixed(2)} G`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} k`;
  return x.toFixed(0);
}

/** "label ms, ..." of the per-pass profile, with its source; '' without one. */
export function passText(b: BenchSummary): string {
  if (!b.passSource || b.passes.length === 0) return '';
  if (b.passSource === 'wall-clock') {
    return `${b.passes.length} passes (wall clock only)`;
  }
  return `${b.passes.map((p) => `${p.label} ${p.ms === null ? '?' : fmtMs(p.ms)}`).join(', ')} (timestamp-query)`;
}

/** A native anchor's time for a summary, where the user ran bench/native on the same machine. */
export type NativeLookup = (b: BenchSummary) => number | undefined;

/** CPU: the library's CPU path in the same browser; GPU speedup: its time per call over the GPU's (above 1x the GPU wins). */
export const BENCH_COLUMNS = [
  'kernel',
  'size',
  'check',
  'GPU median ms',
  'GPU ms/call',
  'GPU elem/s',
  'CPU ms/call',
  'CPU elem/s',
  'GPU speedup',
  'native ms',
  'GPU passes (ms)',
] as const;

/** One table row of cells, in BENCH_COLUMNS order. */
export function benchCells(b: BenchSummary, native?: NativeLookup): string[] {
  const n = native?.(b);
  return [
    b.kernel,
    b.size,
    b.check.ok ? (b.check.full ? 'full' : 'sampled') : 'FAIL',
    fmtMs(b.gpu.medianMs),
    fmtMs(b.gpu.perIterMs),
    fmtRate(b.gpu.elementsPerS),
    b.cpu ? fmtMs(b.cpu.perIterMs) : '-',
    b.cpu ? fmtRate(b.cpu.elementsPerS) : '-',
    b.gpuSpeedup === null ? '-' : `${b.gpuSpeedup.toFixed(2)}x`,
    n === undefined ? '-' : fmtMs(n),
    passText(b) || '-',
  ];
}

const esc = (s: string) => s.replace(/\|/g, '\\|');

/** A GitHub markdown table of the summaries; the native column only when `native` is given. */
export function markdownTable(rows: BenchSummary[], native?: NativeLookup): string {
  const keep = BENCH_COLUMNS.map((c) => c !== 'native ms' || !!native);
  const pick = <T>(xs: readonly T[]) => xs.filter((_, i) => keep[i]);
  const line = (cells: readonly string[]) => `| ${pick(cells).map(esc).join(' | ')} |`;
  return [line(BENCH_COLUMNS), line(BENCH_COLUMNS.map(() => '---')), ...rows.map((b) => line(benchCells(b, native)))].join('\n');
}

/** The same table in fixed-width columns for a terminal. */
export function textTable(rows: BenchSummary[]): string {
  const cols = BENCH_COLUMNS.filter((c) => c !== 'native ms' && c !== 'GPU passes (ms)');
  const body = rows.map((b) => benchCells(b).filter((_, i) => cols.includes(BENCH_COLUMNS[i] as never)));
  const widths = cols.map((c, i) => Math.max(c.length, ...body.map((r) => r[i].length)));
  const fmt = (cells: readonly string[]) => '  ' + cells.map((s, i) => (i < 3 ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join('  ');
  return [fmt(cols), ...body.map(fmt)].join('\n');
}

/**
 * Per kernel, where the GPU starts to win over the CPU path in this browser: the smallest size
 * measured from which the GPU is faster at every larger size measured too (sizes where the CPU
 * path did not run are left out). One line per kernel, for the report under the table.
 */
export function crossovers(rows: BenchSummary[]): string[] {
  const kernels = [...new Set(rows.map((b) => b.kernel))];
  return kernels.map((k) => {
    const timed = rows.filter((b) => b.kernel === k && b.gpuSpeedup !== null).sort((a, b) => a.logn - b.logn);
    if (timed.length === 0) return `${k}: no CPU timing to compare with`;
    const range = timed.length > 1 ? `${timed[0].size} to ${timed[timed.length - 1].size}` : timed[0].size;
    let from = timed.length;
    while (from > 0 && timed[from - 1].gpuSpeedup! >= 1) from--;
    if (from === timed.length) return `${k}: the CPU path is faster at every size measured (${range})`;
    if (from === 0) return `${k}: the GPU is faster at every size measured (${range})`;
    return `${k}: the GPU wins from ${timed[from].size} (${timed[from].gpuSpeedup!.toFixed(2)}x; CPU faster at ${timed[from - 1].size})`;
  });
}
