/**
 * Runs a dev-page autorun mode in a local Chromium and returns its rows: starts the Vite dev
 * server (with /progress) on a free port, opens `/?autorun=<mode>&...`, streams each posted
 * row to `onRow`, and resolves with window.__autorun once the page finishes.
 * Used by `npm start`; bench/device uses its dev server.
 * @module
 */
import { createServer, type ViteDevServer } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { findChromium, chromiumArgs } from './chromium.mjs';
import { onProgressRow, type ProgressRow } from '../demo/progress-plugin.js';
import type { AutorunResult } from '../bench/support/autorun-result.js';

export interface DriverOptions {
  mode: string;
  params?: Record<string, string>;
  headless?: boolean;
  timeoutMs?: number;
  onRow?: (row: ProgressRow) => void;
}

/** The dev page's Vite server (with /progress) on a free port of localhost. */
export async function startDevServer(): Promise<{ server: ViteDevServer; port: number }> {
  // No HMR: an edit to a source file during a run would reload the page and restart the mode.
  const server = await createServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    server: { port: 0, hmr: false },
  });
  await server.listen();
  const address = server.httpServer!.address();
  return { server, port: typeof address === 'object' && address ? address.port : 5173 };
}

export async function runAutorun(opts: DriverOptions): Promise<AutorunResult> {
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error('No Chrome/Chromium found: install one or set CHROMIUM_PATH (npm start installs Debian chromium when root).');
  let server: ViteDevServer | undefined;
  let browser: Browser | undefined;
  const runId = `${opts.mode}-${Date.now().toString(36)}`;
  const unsubscribe = onProgressRow((row) => row.runId === runId && opts.onRow?.(row));
  try {
    const dev = await startDevServer();
    server = dev.server;
    const port = dev.port;
    browser = await chromium.launch({ executablePath, headless: opts.headless ?? true, args: chromiumArgs() });
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
    const query = new URLSearchParams({ autorun: opts.mode, runId, ...opts.params });
    // localhost is a secure context, so navigator.gpu exists there (not on file:// or about:blank).
    await page.goto(`http://localhost:${port}/?${query}`);
    await page.waitForFunction(() => window.__autorun?.finished === true, null, { timeout: opts.timeoutMs ?? 20 * 60_000, polling: 250 });
    return (await page.evaluate(() => window.__autorun))!;
  } finally {
    unsubscribe();
    await browser?.close();
    await server?.close();
  }
}
