/**
 * Consumer apps built from the packed tarball (issue 23): the package as a dApp gets it from npm.
 * Packs the repo (`npm pack`), lays out one scratch project per consumer (Vite, webpack 5, plain
 * Node) with the tarball unpacked in node_modules and its dependencies and the bundler linked from
 * this repo's node_modules (no network), builds them with the real bundlers, serves each build
 * with a static server and opens its pages in headless Chromium with the repo's WebGPU flags.
 * test/e2e/consumers.spec.ts asserts on what this returns.
 * @module
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../..');

/** Run a command and return its stdout; a non-zero exit throws with all its output (a bundler's error is the finding). */
export function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Newest mtime under `dir` (files only), 0 when it does not exist. */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

/**
 * Pack the package into `work` and unpack it there as `work/package`. dist/ is rebuilt first
 * (`npm run build:dist`) when any src/ file or package.json is newer than dist/index.js; not
 * `npm run build`, whose gen step rewrites tracked generated files other tests read at the same
 * time (same reason as test/unit/build.test.ts). --ignore-scripts skips prepack for that reason.
 */
export function packTarball(work: string): string {
  const built = existsSync(join(repo, 'dist/index.js')) ? statSync(join(repo, 'dist/index.js')).mtimeMs : 0;
  if (Math.max(newest(join(repo, 'src')), statSync(join(repo, 'package.json')).mtimeMs) > built) run('npm', ['run', 'build:dist'], repo);
  const [{ filename }] = JSON.parse(run('npm', ['pack', '--json', '--silent', '--ignore-scripts', '--pack-destination', work], repo)) as {
    filename: string;
  }[];
  run('tar', ['-xzf', join(work, filename), '-C', work], work);
  return join(work, 'package');
}

/**
 * A scratch project: `fixture` (a folder of test/consumers/) and the shared page code
 * (test/consumers/app/) copied in, the unpacked tarball copied to node_modules/webgpu-prover
 * (a copy, not a link: bundlers treat a linked package as source and may skip their
 * node_modules handling, which is what this test is about), and `links` (the package's runtime
 * dependencies, the bundler) linked from this repo's node_modules, as `npm install` would
 * place them. Outside the repo, so nothing resolves through the repo's own package.json.
 * `as` names the project's folder (one fixture can be laid out twice, for build and dev).
 */
export function makeFixture(work: string, unpacked: string, fixture: string, links: string[], as = fixture): string {
  const dir = join(work, as);
  cpSync(join(here, fixture), dir, { recursive: true });
  if (fixture !== 'node') cpSync(join(here, 'app'), dir, { recursive: true });
  cpSync(unpacked, join(dir, 'node_modules/webgpu-prover'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of [...Object.keys(manifest.dependencies ?? {}), ...links]) {
    mkdirSync(dirname(join(dir, 'node_modules', dep)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: `consumer-${fixture}`, private: true, type: 'module', dependencies: { 'webgpu-prover': 'file:../package' } },
      null,
      2,
    ),
  );
  return dir;
}

/** A fresh scratch folder for one run, and the tarball unpacked in it. */
export function prepare(): { work: string; unpacked: string } {
  const work = mkdtempSync(join(tmpdir(), 'wgp-consumers-'));
  return { work, unpacked: packTarball(work) };
}

/** Remove a build's file (the tests' check that a missing worker file fails the page). */
export function copyWithout(dist: string, to: string, drop: (path: string) => boolean): string[] {
  cpSync(dist, to, { recursive: true });
  const dropped = readdirSync(to, { recursive: true, encoding: 'utf8' }).filter((p) => drop(p));
  for (const p of dropped) rmSync(join(to, p));
  return dropped;
}

/**
 * MIME types a static host must send: a module worker or module script with any other type
 * (or none) is refused by the browser ("Failed to load module script ... MIME type").
 */
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export interface Served {
  url: string;
  root: string;
  server: Server;
  requests: string[];
  close(): Promise<void>;
}

/** Serve `root` statically on the first free port from `firstPort` (5600-5699 by default). */
export async function serve(root: string, firstPort = 5600): Promise<Served> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const ok = file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile();
    requests.push(`${ok ? 200 : 404} ${path}`);
    if (!ok) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  for (let port = firstPort; port < firstPort + 100; port++) {
    const listening = await new Promise<boolean>((ok) => {
      server.once('error', () => ok(false));
      server.listen(port, '127.0.0.1', () => ok(true));
    });
    // localhost, not 127.0.0.1, in the URL: both are secure contexts, localhost is what users type.
    if (listening)
      return { url: `http://localhost:${port}`, root, server, requests, close: () => new Promise((ok) => server.close(() => ok())) };
  }
  throw new Error(`no free port in ${firstPort}-${firstPort + 99}`);
}

/**
 * Text that survives minification and marks code a page should fetch only when it uses it: the
 * MSM's host code (its NOT_ON_CURVE message, in the GPU and CPU paths) and noble's BN254 (its
 * pairing's method name).
 */
export const MARKERS = { msm: 'is not on BN254 G1', noble: 'finalExponentiate' } as const;

/** What a page reported (test/consumers/app/checks.js) plus what the browser saw. */
export interface PageResult {
  report: {
    label: string;
    finished: boolean;
    steps: { name: string; t: number }[];
    worker?: boolean;
    adapter?: string | null;
    dft?: number[];
    poseidon2?: number[];
    msm?: { x: string; y: string } | null;
    msmIsNoblePoint?: boolean;
    merkle?: { root: number[]; row: number[]; siblings: number[][]; verified: boolean; tamperedVerified?: boolean };
    field?: number[];
    grind?: number;
    whirVerified?: boolean;
    error?: { code: string | null; name: string | null; message: string };
    afterError?: number[] | { code: string | null; message: string };
  } | null;
  /** Every script the page and its worker fetched: path, bytes as served (minified), gzipped (level 9). */
  scripts: { path: string; bytes: number; gzip: number; wgsl: string[]; holds: (keyof typeof MARKERS)[] }[];
  /** URLs of the workers the page started (Playwright's worker events). */
  workers: string[];
  /** Responses with status >= 400 and failed requests. */
  failed: string[];
  /** console errors, page errors and worker errors. */
  errors: string[];
  ms: number;
}

/**
 * Open `url` in `page` and wait for the page's report. Stops early when a script or worker file
 * is missing (a 404 on .js) or a worker closes before the page is done (its script failed to
 * load or evaluate, e.g. a `data:` worker whose bare `import 'comlink'` cannot resolve): a worker
 * that never starts leaves createProver() pending, and the page's own deadline would only say
 * so after PAGE_TIMEOUT_MS (90 s). Options: `root`, the folder a static server serves `url` from,
 * read for a script whose body the browser no longer has (a chunk the worker fetched just before
 * the page's destroy() ended it: Playwright cannot read a closed worker's responses);
 * `missingChunks`, wait for the page's report even when a script 404s (a build with a chunk
 * removed on purpose: the page must report the failure itself).
 */
export async function openConsumer(
  page: Page,
  url: string,
  { timeoutMs = 120_000, root, missingChunks = false }: { timeoutMs?: number; root?: string; missingChunks?: boolean } = {},
): Promise<PageResult> {
  const t0 = Date.now();
  const workers: string[] = [];
  const failed: string[] = [];
  const errors: string[] = [];
  const bodies: Promise<PageResult['scripts'][number] | undefined>[] = [];
  let stop: (reason: string) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = (r) => reject(new Error(r));
  });
  stopped.catch(() => {});
  const finished = () => page.evaluate(() => (window as unknown as { __consumer?: { finished: boolean } }).__consumer?.finished === true);
  page.on('worker', (w) => {
    workers.push(w.url());
    w.on('console', (m) => m.type() === 'error' && errors.push(`[worker] ${m.text()}`));
    // The page's destroy() closes its worker too, but only after it set finished (same task).
    w.on(
      'close',
      () =>
        void finished().then(
          (done) => done || stop(`worker ${w.url().slice(0, 100)} closed before the page finished`),
          () => {},
        ),
    );
  });
  page.on('console', (m) => m.type() === 'error' && errors.push(`[console] ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`[pageerror] ${e.message}`));
  page.on('requestfailed', (r) => failed.push(`${r.failure()?.errorText ?? 'failed'} ${r.url()}`));
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() === 200 && /\.m?js$/.test(path)) {
      // A body Playwright cannot read must not shrink the count: it is reported, and the size test fails on it.
      // wgsl: the WGSL files whose text the script holds (each starts with `// <file>.wgsl: summary`).
      const wgsl = (b: Buffer) => [...new Set([...b.toString('utf8').matchAll(/\/\/ (\w+)(?:\.gen)?\.wgsl:/g)].map((m) => m[1]))];
      const holds = (b: Buffer) => (Object.keys(MARKERS) as (keyof typeof MARKERS)[]).filter((k) => b.includes(MARKERS[k]));
      const measure = (b: Buffer) => ({ path, bytes: b.length, gzip: gzipSync(b, { level: 9 }).length, wgsl: wgsl(b), holds: holds(b) });
      const file = root && normalize(join(root, path));
      bodies.push(
        r.body().then(measure, (e: Error) => {
          if (file && file.startsWith(root + sep) && existsSync(file)) return measure(readFileSync(file));
          errors.push(`[harness] no body for ${path}: ${e.message}`);
          return undefined;
        }),
      );
    }
    if (r.status() < 400) return;
    failed.push(`${r.status()} ${r.url()}`);
    if (/\.m?js$/.test(new URL(r.url()).pathname) && !missingChunks) stop(`${r.status()} for ${r.url()}`);
  });
  await page.goto(url);
  let stoppedBy: string | undefined;
  try {
    await Promise.race([
      page.waitForFunction(() => (window as unknown as { __consumer?: { finished: boolean } }).__consumer?.finished === true, null, {
        timeout: timeoutMs,
        polling: 200,
      }),
      stopped,
    ]);
  } catch (e) {
    stoppedBy = (e as Error).message.split('\n')[0];
  }
  const report = (await page.evaluate(
    () => (window as unknown as { __consumer?: PageResult['report'] }).__consumer ?? null,
  )) as PageResult['report'];
  if (stoppedBy) errors.push(`[harness] stopped waiting: ${stoppedBy}`);
  const scripts = (await Promise.all(bodies)).filter((s) => s !== undefined);
  return { report, scripts, workers, failed, errors, ms: Date.now() - t0 };
}
