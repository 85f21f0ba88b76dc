/**
 * Vite plugin serving /progress in dev and preview: the page POSTs one JSON row per step
 * ({ runId, mode, step, status, ms, ... }); GET /progress?runId=X returns that run's rows.
 * In-process listeners (scripts/start.ts, the bench driver) subscribe with onProgressRow().
 * @module
 */
import type { Plugin, Connect } from 'vite';

export interface ProgressRow {
  runId: string;
  mode: string;
  step: string;
  status: 'start' | 'ok' | 'fail' | 'error' | 'done' | 'info';
  ms: number;
  [detail: string]: unknown;
}

// Kept on globalThis: Vite bundles vite.config.ts (and so this file) into a second module
// instance, and in-process listeners must see rows that instance receives.
const shared = ((
  globalThis as { __webgpuProverProgress?: { rows: ProgressRow[]; listeners: Set<(row: ProgressRow) => void> } }
).__webgpuProverProgress ??= { rows: [], listeners: new Set() });
const { rows, listeners } = shared;
const MAX_ROWS = 10_000; // a long-lived dev server must not grow without bound

export function onProgressRow(fn: (row: ProgressRow) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function isRow(v: unknown): v is ProgressRow {
  const r = v as ProgressRow;
  return (
    !!r &&
    typeof r.runId === 'string' &&
    typeof r.mode === 'string' &&
    typeof r.step === 'string' &&
    typeof r.status === 'string' &&
    typeof r.ms === 'number'
  );
}

const middleware: Connect.NextHandleFunction = (req, res, next) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/progress') return next();
  if (req.method === 'GET') {
    const runId = url.searchParams.get('runId');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(runId ? rows.filter((r) => r.runId === runId) : rows));
    return;
  }
  if (req.method !== 'POST') {
    res.statusCode = 405;
    res.end();
    return;
  }
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let row: unknown;
    try {
      row = JSON.parse(body);
    } catch {
      row = undefined;
    }
    if (!isRow(row)) {
      res.statusCode = 400;
      res.end('expected { runId, mode, step, status, ms }');
      return;
    }
    rows.push(row);
    if (rows.length > MAX_ROWS) rows.splice(0, rows.length - MAX_ROWS);
    for (const fn of listeners) fn(row);
    res.statusCode = 204;
    res.end();
  });
};

export function progressPlugin(): Plugin {
  return {
    name: 'webgpu-prover-progress',
    configureServer: (server) => void server.middlewares.use(middleware),
    configurePreviewServer: (server) => void server.middlewares.use(middleware),
  };
}
