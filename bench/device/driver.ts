/**
 * The device bench driver: runs dev-page autorun modes on one target and writes
 * `<out>/<date>-<target>.json` and `.md`. Each run is followed through its /progress rows (this
 * machine's dev server, or `GET <url>/progress?runId=` for a page served elsewhere); a run that
 * posts no row for `stallMs` is stalled: its session is closed and the run tried once more in a
 * fresh one, then reported as stalled. Rows, not the page, tell liveness: a page busy timing the
 * CPU path cannot answer page.evaluate, but its rows arrived before.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import { startDevServer } from '../../scripts/browser-driver.js';
import { onProgressRow, type ProgressRow } from '../../demo/progress-plugin.js';
import type { BenchSummary } from '../../demo/bench/harness.js';
import { benchSummaries, crossovers, markdownTable, type NativeLookup } from '../../demo/bench/table.js';
import type { Target } from './config.js';
import { openSession } from './session.js';

export interface DriverOptions {
  target: Target;
  modes: string[];
  /** URL parameters for every mode (logn, reps, ...). */
  params?: Record<string, string>;
  /** The page's URL when it is not this machine's dev server (a public preview). */
  url?: string;
  /** Seconds without a row after which a run is stalled. */
  stallMs?: number;
  outDir?: string;
  native?: NativeLookup;
  headless?: boolean;
  log?: (line: string) => void;
}

export interface ModeRun {
  mode: string;
  status: 'ok' | 'fail' | 'error' | 'stalled';
  attempts: number;
  runIds: string[];
  adapter: string;
  ms: number;
  error?: string;
  rows: ProgressRow[];
  bench: BenchSummary[];
}

export interface DeviceResults {
  target: string;
  kind: Target['kind'];
  date: string;
  page: string;
  params: Record<string, string>;
  runs: ModeRun[];
}

type Attempt = { status: ModeRun['status']; rows: ProgressRow[]; error?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One attempt of one mode: open a session, load the page, follow rows until 'done' or a stall. */
async function attempt(
  o: Required<Pick<DriverOptions, 'target' | 'stallMs' | 'headless' | 'log'>>,
  base: string,
  mode: string,
  runId: string,
  params: Record<string, string>,
  rowsOf: (runId: string) => Promise<ProgressRow[]>,
): Promise<Attempt> {
  const local = !/^https?:\/\/(?!localhost|127\.0\.0\.1)/.test(base);
  let session;
  try {
    session = await openSession(o.target, {
      headless: o.headless,
      local,
      build: `webgpu-prover bench ${new Date().toISOString().slice(0, 10)}`,
      name: `${mode} on ${o.target.name}`,
    });
  } catch (e) {
    return { status: 'error', rows: [], error: `could not open a browser on ${o.target.name}: ${(e as Error).message}` };
  }
  try {
    session.page.on('pageerror', (e) => o.log(`  [page error] ${e.message}`));
    const url = `${base.replace(/\/$/, '')}/?${new URLSearchParams({ autorun: mode, runId, ...params })}`;
    // Not awaited to the end: a page that never loads is a stall like any other.
    session.page.goto(url, { timeout: 0 }).catch((e: Error) => o.log(`  [goto] ${e.message.split('\n')[0]}`));
    let seen = 0;
    let lastRowAt = Date.now();
    for (;;) {
      await sleep(250);
      const rows = await rowsOf(runId);
      if (rows.length > seen) {
        for (const r of rows.slice(seen))
          o.log(`  ${r.step.padEnd(40)} ${r.status.padEnd(6)} ${r.ms.toFixed(0).padStart(7)} ms  ${String(r.detail ?? '').slice(0, 120)}`);
        seen = rows.length;
        lastRowAt = Date.now();
      }
      const done = rows.find((r) => r.status === 'done');
      if (done) return { status: (done.detail as ModeRun['status']) ?? 'error', rows };
      if (Date.now() - lastRowAt > o.stallMs)
        return { status: 'stalled', rows, error: `no /progress row for ${(o.stallMs / 1000).toFixed(0)} s after ${rows.length} rows` };
    }
  } finally {
    await session.close().catch(() => {});
  }
}

/** Runs `modes` on the target and writes the results; resolves with them and the two paths. */
export async function runDevice(opts: DriverOptions): Promise<{ results: DeviceResults; json: string; md: string }> {
  const o = { stallMs: 120_000, headless: true, log: (l: string) => console.log(l), ...opts };
  const params = opts.params ?? {};
  let server: ViteDevServer | undefined;
  let base = opts.url;
  const received = new Map<string, ProgressRow[]>();
  const unsubscribe = onProgressRow((r) => void (received.get(r.runId) ?? received.set(r.runId, []).get(r.runId)!).push(r));
  let rowsOf = async (runId: string) => received.get(runId) ?? [];
  if (base) {
    const at = base.replace(/\/$/, '');
    rowsOf = async (runId) => {
      try {
        const res = await fetch(`${at}/progress?runId=${encodeURIComponent(runId)}`);
        return res.ok ? ((await res.json()) as ProgressRow[]) : [];
      } catch {
        return [];
      }
    };
  }
  const runs: ModeRun[] = [];
  try {
    if (!base) {
      const dev = await startDevServer();
      server = dev.server;
      base = `http://localhost:${dev.port}`;
    }
    for (const mode of o.modes) {
      const t0 = Date.now();
      const runIds: string[] = [];
      let a: Attempt | undefined;
      for (let k = 1; k <= 2; k++) {
        const runId = `${mode}-${o.target.name}-${Date.now().toString(36)}-${k}`;
        runIds.push(runId);
        o.log(`${o.target.name}: ${mode} (attempt ${k}, runId ${runId})`);
        a = await attempt(o, base, mode, runId, params, rowsOf);
        if (a.status !== 'stalled') break;
        o.log(`  stalled: ${a.error}${k === 1 ? '; retrying once in a fresh session' : ''}`);
      }
      const adapter = String(a!.rows.find((r) => r.step === 'adapter')?.detail ?? '');
      runs.push({
        mode,
        status: a!.status,
        attempts: runIds.length,
        runIds,
        adapter,
        ms: Date.now() - t0,
        error: a!.error,
        rows: a!.rows,
        bench: benchSummaries(a!.rows),
      });
    }
  } finally {
    unsubscribe();
    await server?.close();
  }
  const results: DeviceResults = { target: o.target.name, kind: o.target.kind, date: new Date().toISOString(), page: base!, params, runs };
  return { results, ...writeResults(results, o.outDir ?? new URL('../results', import.meta.url).pathname, o.native) };
}

/** The results as JSON and as a markdown report: one status table, then the bench table per adapter. */
export function writeResults(r: DeviceResults, outDir: string, native?: NativeLookup): { json: string; md: string } {
  mkdirSync(outDir, { recursive: true });
  const stem = join(outDir, `${r.date.slice(0, 10)}-${r.target}`);
  writeFileSync(`${stem}.json`, JSON.stringify(r, null, 1) + '\n');
  const checks = (m: ModeRun) => {
    const c = m.rows.filter((x) => x.status === 'ok' || x.status === 'fail');
    return `${c.filter((x) => x.status === 'ok').length}/${c.length}`;
  };
  const lines = [
    `# ${r.target} (${r.kind}), ${r.date}`,
    '',
    `Page: ${r.page}; parameters: ${
      Object.entries(r.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ') || 'defaults'
    }.`,
    '',
    '| mode | status | attempts | checks passed | s | adapter |',
    '| --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (m) =>
        `| ${m.mode} | ${m.status}${m.error ? ` (${m.error.replace(/\|/g, '/')})` : ''} | ${m.attempts} | ${checks(m)} | ${(m.ms / 1000).toFixed(1)} | ${m.adapter} |`,
    ),
  ];
  const byAdapter = new Map<string, BenchSummary[]>();
  for (const m of r.runs) if (m.bench.length) byAdapter.set(m.adapter, [...(byAdapter.get(m.adapter) ?? []), ...m.bench]);
  for (const [adapter, rows] of byAdapter) {
    lines.push(
      '',
      `## ${adapter || 'unknown adapter'}`,
      '',
      markdownTable(rows, native),
      '',
      'GPU vs the CPU path in this browser:',
      '',
      ...crossovers(rows).map((c) => `- ${c}`),
    );
  }
  writeFileSync(`${stem}.md`, lines.join('\n') + '\n');
  return { json: `${stem}.json`, md: `${stem}.md` };
}
