// The device bench driver (bench/device/) end to end: on local Chromium at small sizes; through
// a fake BrowserStack endpoint (a proxy that records the URL and capabilities the driver sends,
// then hands the connection to a real local Playwright browser server); and a stalled run, retried
// once in a fresh session and then reported.
import { test, expect, chromium } from '@playwright/test';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type Server } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDevice } from './driver.js';
import { loadTarget, playwrightVersion, type Target } from './config.js';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

const local: Target = { name: 'local-chromium', kind: 'local-chromium' };
const tmp = () => mkdtempSync(join(tmpdir(), 'bench-device-'));
const quiet = () => {};
const listen = (s: Server | ReturnType<typeof createHttpServer>) =>
  new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as { port: number }).port)));

test('local-chromium: a check mode and a bench mode, results JSON and the markdown table', async () => {
  const out = tmp();
  const { results, json, md } = await runDevice({
    target: local,
    modes: ['field-check', 'ntt-bench'],
    params: { n: '256', logn: '8', reps: '2' },
    outDir: out,
    log: quiet,
  });
  expect(results.runs.map((r) => [r.mode, r.status, r.attempts])).toEqual([
    ['field-check', 'ok', 1],
    ['ntt-bench', 'ok', 1],
  ]);
  const saved = JSON.parse(readFileSync(json, 'utf8'));
  expect(saved.runs[0].rows.filter((r: { status: string }) => r.status === 'ok')).toHaveLength(8);
  const [bench] = saved.runs[1].bench;
  expect(bench).toMatchObject({ kernel: 'ntt dft', size: '2^8 x 1', check: { ok: true, full: true } });
  expect(bench.gpu.perIterMs).toBeGreaterThan(0);
  expect(bench.cpu.perIterMs).toBeGreaterThan(0);
  const text = readFileSync(md, 'utf8');
  expect(text).toContain('| field-check | ok | 1 | 8/8 |');
  expect(text).toMatch(/\| ntt dft \| 2\^8 x 1 \| full \| [\d.]+ \|/);
});

test('browserstack: the driver sends the preset, the credentials and its Playwright version, and runs through the endpoint', async () => {
  // The fake endpoint: records each upgrade request, then forwards it to a real browser server.
  const browserServer = await chromium.launchServer({ executablePath: findChromium() ?? undefined, args: chromiumArgs() });
  const real = new URL(browserServer.wsEndpoint());
  const seen: string[] = [];
  const proxy = createTcpServer((client) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const text = head.toString('latin1');
      const [, path] = text.split(' ', 2);
      seen.push(path);
      const upstream = connect(Number(real.port), real.hostname, () => {
        upstream.write(text.replace(path, real.pathname));
        client.pipe(upstream).pipe(client);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    };
    client.on('data', onData);
  });
  const port = await listen(proxy);
  const saved = { ...process.env };
  Object.assign(process.env, {
    BROWSERSTACK_USERNAME: 'fake-user',
    BROWSERSTACK_ACCESS_KEY: 'fake-key',
    BROWSERSTACK_WS_BASE: `ws://127.0.0.1:${port}/playwright`,
  });
  try {
    const target = loadTarget('bs-macos-chrome');
    const { results } = await runDevice({ target, modes: ['grind-bench'], params: { bits: '6', reps: '1' }, outDir: tmp(), log: quiet });
    expect(results.runs[0]).toMatchObject({ status: 'ok', attempts: 1 });
    expect(results.runs[0].bench[0]).toMatchObject({ kernel: 'grind', check: { ok: true } });
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0], 'ws://x');
    expect(url.pathname).toBe('/playwright');
    expect(JSON.parse(url.searchParams.get('caps')!)).toEqual({
      os: 'OS X',
      os_version: 'Sequoia',
      browser: 'chrome',
      browser_version: 'latest',
      'browserstack.username': 'fake-user',
      'browserstack.accessKey': 'fake-key',
      // the page is this machine's dev server: BrowserStack reaches it through BrowserStack Local
      'browserstack.local': 'true',
      'client.playwrightVersion': playwrightVersion(),
      build: expect.stringMatching(/^webgpu-prover bench \d{4}-\d\d-\d\d$/),
      name: 'grind-bench on bs-macos-chrome',
    });
  } finally {
    process.env = saved;
    proxy.close();
    await browserServer.close();
  }
});

test('browserstack without credentials: a clear error, nothing sent', async () => {
  const saved = { ...process.env };
  delete process.env.BROWSERSTACK_USERNAME;
  delete process.env.BROWSERSTACK_ACCESS_KEY;
  try {
    const { results } = await runDevice({
      target: loadTarget('bs-android-mali'),
      modes: ['field-check'],
      url: 'http://127.0.0.1:9',
      outDir: tmp(),
      log: quiet,
    });
    expect(results.runs[0].status).toBe('error');
    expect(results.runs[0].error).toMatch(/BROWSERSTACK_USERNAME and BROWSERSTACK_ACCESS_KEY in the environment/);
  } finally {
    process.env = saved;
  }
});

test('a stalled run is retried once in a fresh session, then reported', async () => {
  // A page server of its own: mode 'flaky' posts nothing on its first load and finishes on the
  // second; mode 'hang' never posts a row. /progress answers as the dev server's does.
  const rows: { runId: string }[] = [];
  const loads: string[] = [];
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/progress') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(rows.filter((r) => r.runId === url.searchParams.get('runId'))));
      return;
    }
    if (url.pathname !== '/') return void res.writeHead(404).end();
    const mode = url.searchParams.get('autorun')!;
    const runId = url.searchParams.get('runId')!;
    loads.push(mode);
    if (mode === 'flaky' && loads.filter((m) => m === 'flaky').length === 2) {
      rows.push({ runId, mode, step: 'done', status: 'done', ms: 1, detail: 'ok' } as never);
    }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>stall</title>');
  });
  const port = await listen(server);
  try {
    const { results, md } = await runDevice({
      target: local,
      modes: ['flaky', 'hang'],
      url: `http://127.0.0.1:${port}`,
      stallMs: 1500,
      outDir: tmp(),
      log: quiet,
    });
    expect(loads).toEqual(['flaky', 'flaky', 'hang', 'hang']);
    expect(results.runs.map((r) => [r.mode, r.status, r.attempts])).toEqual([
      ['flaky', 'ok', 2],
      ['hang', 'stalled', 2],
    ]);
    expect(results.runs[1].runIds[0]).not.toBe(results.runs[1].runIds[1]);
    expect(readFileSync(md, 'utf8')).toMatch(/\| hang \| stalled \(no \/progress row for 2 s after 0 rows\) \| 2 \|/);
  } finally {
    server.close();
  }
});
