// The npm package as dApps consume it (issue 23): apps built from the packed tarball with the
// real bundlers (Vite production build, webpack 5 production build) and a plain Node ESM script.
// Each browser page imports createProver from 'webgpu-prover', runs a dft, a Poseidon2
// permutation and an MSM with the default options (the package's own Web Worker, as the bundler
// emitted it) and with a worker the app starts itself; the answers must equal the repo's CPU
// references and noble, and prover.info.worker must be true. test/consumers/harness.ts builds
// and serves them (ports 5600-5699, clear of the dev server on 5199).
import { test, expect, type Page } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ViteDevServer } from 'vite';
import { join } from 'node:path';
import { bn254 } from '@noble/curves/bn254.js';
import { dft } from '../../src/ref/ntt.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { merkleTree } from '../../src/ref/merkle.js';
import { DuplexChallenger } from '../../src/ref/challenger.js';
import { BB_P } from '../../src/params/babybear.js';
import { copyWithout, makeFixture, openConsumer, prepare, run, serve, type PageResult, type Served } from '../consumers/harness.js';
import {
  DFT_VALUES,
  DFT_WIDTH,
  POSEIDON2_STATE,
  MSM_SCALARS,
  MERKLE_VALUES,
  MERKLE_WIDTH,
  MERKLE_INDEX,
  FIELD_A,
  FIELD_B,
  GRIND_OBSERVED,
  GRIND_BITS,
} from '../consumers/app/inputs.js';

// Not serial: a broken bundler must not hide the others' results (workers: 1 keeps the order;
// after a failure Playwright's fresh worker packs and builds again, a few seconds).

/** The answers, from the repo's references (src/ref) and @noble/curves, never from the package. */
const G = bn254.G1.Point.BASE;
const msmAffine = G.multiply(BigInt(MSM_SCALARS[0]))
  .add(G.double().multiply(BigInt(MSM_SCALARS[1])))
  .toAffine();
const EXPECTED = {
  dft: Array.from(dft(Uint32Array.from(DFT_VALUES), DFT_WIDTH)),
  poseidon2: Array.from(poseidon2(POSEIDON2_STATE)),
  msm: { x: msmAffine.x.toString(16), y: msmAffine.y.toString(16) },
  merkle: (() => {
    const tree = merkleTree([{ values: MERKLE_VALUES, width: MERKLE_WIDTH }]);
    const o = tree.open(MERKLE_INDEX);
    return { root: Array.from(tree.root), row: o.openedValues[0], siblings: o.proof.map((s) => Array.from(s)), verified: true };
  })(),
  field: FIELD_A.map((a, i) => Number((BigInt(a) * BigInt(FIELD_B[i])) % BigInt(BB_P))),
  grind: (() => {
    const ch = new DuplexChallenger();
    ch.observeSlice(GRIND_OBSERVED);
    return ch.grind(GRIND_BITS);
  })(),
};

let work = '';
let unpacked = '';
const timings: string[] = [];
const servers: Served[] = [];

/** Time one phase for the summary printed at the end (CI budget: the whole file < 2 min). */
function timed<T>(what: string, f: () => T): T {
  const t0 = Date.now();
  try {
    return f();
  } finally {
    timings.push(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

test.beforeAll(() => {
  ({ work, unpacked } = timed('npm pack (dist rebuilt only when stale)', prepare));
});

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`consumer apps:\n  ${timings.join('\n  ')}`);
});

async function serveDist(dir: string): Promise<Served> {
  const s = await serve(dir);
  servers.push(s);
  return s;
}

/** Open one page and require the full, correct answer from the bundler-emitted worker. */
async function expectProves(
  page: Page,
  served: Pick<Served, 'url'> & { requests?: string[]; root?: string },
  path: string,
  { msm = true, all = false }: { msm?: boolean; all?: boolean } = {},
): Promise<PageResult> {
  const r = await openConsumer(page, `${served.url}${path}`, { root: served.root });
  const steps = r.report?.steps ?? [];
  const split = steps
    .slice(1)
    .map((s, i) => `${steps[i].name} ${((s.t - steps[i].t) / 1000).toFixed(1)}`)
    .join(', ');
  timings.push(`page ${path}: ${(r.ms / 1000).toFixed(1)} s (${split})`);
  const diagnosis = JSON.stringify(
    { error: r.report?.error, errors: r.errors, failed: r.failed, workers: r.workers, steps: r.report?.steps },
    null,
    1,
  );
  expect(r.report?.error, diagnosis).toBeUndefined();
  expect(r.report?.finished, diagnosis).toBe(true);
  expect(r.failed, diagnosis).toEqual([]);
  expect(r.report!.worker, 'prover.info.worker').toBe(true);
  expect(r.report!.dft).toEqual(EXPECTED.dft);
  expect(r.report!.poseidon2).toEqual(EXPECTED.poseidon2);
  if (msm) {
    expect(r.report!.msm).toEqual(EXPECTED.msm);
    expect(r.report!.msmIsNoblePoint, "msm's result is a Point of the app's own @noble/curves").toBe(true);
  } else {
    expect(r.report!.steps.map((s) => s.name)).not.toContain('msm');
  }
  if (all) {
    expect(r.report!.merkle).toEqual({ ...EXPECTED.merkle, tamperedVerified: false });
    expect(r.report!.field).toEqual(EXPECTED.field);
    expect(r.report!.grind).toBe(EXPECTED.grind);
    expect(r.report!.whirVerified).toBe(true);
  }
  // The prover's worker, a file of this build on this origin (not a blob: or data: URL) that the
  // server really sent; and on the page whose WHIR open is checked, the check thread's worker,
  // started from the prover's worker (src/checks/check-thread.ts), likewise.
  const [prover, ...others] = r.workers;
  expect(others.length, diagnosis).toBe(all ? 1 : 0);
  for (const url of r.workers) {
    const worker = new URL(url);
    expect(worker.origin).toBe(new URL(served.url).origin);
    if (served.requests) expect(served.requests).toContain(`200 ${worker.pathname}`);
  }
  if (all) expect(others[0], 'the check worker').toMatch(/check/);
  expect(prover, 'the prover worker').not.toMatch(/check/);
  return r;
}

/**
 * The same build with its worker file deleted must fail (proves the checks above can fail): the
 * page reports no worker and the harness sees the 404.
 */
async function expectFailsWithoutWorker(page: Page, dist: string, isWorker: (p: string) => boolean): Promise<void> {
  const broken = `${dist}-no-worker`;
  const dropped = copyWithout(dist, broken, isWorker);
  expect(dropped.length, 'the build has a worker file to drop').toBeGreaterThan(0);
  const served = await serveDist(broken);
  const r = await openConsumer(page, `${served.url}/index.html`, { timeoutMs: 60_000 });
  timings.push(`page without worker (must fail): ${(r.ms / 1000).toFixed(1)} s`);
  expect(r.report?.worker).not.toBe(true);
  expect(r.report?.dft).toBeUndefined();
  expect(
    r.failed.some((f) => f.startsWith('404 ') && dropped.some((d) => f.endsWith(d))),
    JSON.stringify(r.failed),
  ).toBe(true);
  // What the app sees: createProver() rejects with WORKER_FAILED (it listens for the Worker's
  // 'error' event), instead of never settling as it did before.
  await page
    .waitForFunction(() => (window as unknown as { __consumer?: { error?: unknown } }).__consumer?.error !== undefined, null, {
      timeout: 10_000,
    })
    .catch(() => {});
  const later = await page.evaluate(() => (window as unknown as { __consumer?: PageResult['report'] }).__consumer ?? null);
  const state = later?.error
    ? `rejected: ${later.error.code ?? later.error.name}: ${later.error.message}`
    : later?.finished
      ? 'settled'
      : 'still pending 10 s after the 404';
  timings.push(`  createProver() after the worker's 404: ${state}`);
  expect(later?.error?.code, state).toBe('WORKER_FAILED');
}

/**
 * The same build with the MSM's chunks deleted (its host code and WGSL: a deploy that lost them):
 * the default page's dft and poseidon2 run, its msm() rejects with LOAD_FAILED, and the prover
 * then answers a dft (the failed load leaves the worker usable).
 */
async function expectMsmLoadFails(page: Page, dist: string, msmChunks: (p: string) => boolean): Promise<void> {
  const broken = `${dist}-no-msm`;
  const dropped = copyWithout(dist, broken, msmChunks);
  expect(dropped.length, 'the build has MSM chunks to drop').toBeGreaterThan(0);
  const served = await serveDist(broken);
  const r = await openConsumer(page, `${served.url}/index.html`, { missingChunks: true });
  timings.push(
    `page without the MSM's chunks (${dropped.join(', ')}): ${(r.ms / 1000).toFixed(1)} s, ${r.report?.error?.code}: ${r.report?.error?.message}`,
  );
  const diagnosis = JSON.stringify({ error: r.report?.error, errors: r.errors, failed: r.failed, steps: r.report?.steps }, null, 1);
  expect(r.report?.finished, diagnosis).toBe(true);
  expect(r.report!.dft, diagnosis).toEqual(EXPECTED.dft);
  expect(r.report!.poseidon2, diagnosis).toEqual(EXPECTED.poseidon2);
  expect(r.report!.msm, diagnosis).toBeUndefined();
  expect(r.report!.error, diagnosis).toMatchObject({ code: 'LOAD_FAILED', name: 'ProverError' });
  expect(r.report!.afterError, diagnosis).toEqual(EXPECTED.dft);
  expect(
    r.failed.some((f) => f.startsWith('404 ') && dropped.some((d) => f.endsWith(d))),
    JSON.stringify(r.failed),
  ).toBe(true);
}

/** Bytes a page's scripts took (its own and its worker's), minified as served and gzipped. */
function downloaded(r: PageResult): { bytes: number; gzip: number; files: string; wgsl: string[]; wgslBytes: number; holds: string[] } {
  const missing = r.errors.filter((e) => e.startsWith('[harness] no body'));
  expect(missing, 'every script body was measured').toEqual([]);
  expect(r.scripts.length).toBeGreaterThan(0);
  return {
    bytes: r.scripts.reduce((a, s) => a + s.bytes, 0),
    gzip: r.scripts.reduce((a, s) => a + s.gzip, 0),
    files: r.scripts.map((s) => `${s.path.split('/').pop()} ${(s.bytes / 1024).toFixed(1)}/${(s.gzip / 1024).toFixed(1)}`).join(', '),
    wgsl: [...new Set(r.scripts.flatMap((s) => s.wgsl))].sort(),
    holds: [...new Set(r.scripts.flatMap((s) => s.holds))].sort(),
    // scripts holding any WGSL: the family chunks (a build that put WGSL back in the worker or
    // the page would count that whole script here)
    wgslBytes: r.scripts.filter((s) => s.wgsl.length > 0).reduce((a, s) => a + s.bytes, 0),
  };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** Sizes of a build's scripts, and how many WGSL kernels each holds (what ships to the page). */
function sizes(dist: string): string {
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.js'))
    .map((p) => {
      const text = readFileSync(join(dist, p), 'utf8');
      return `${p} ${(text.length / 1024).toFixed(0)} KiB, ${text.split('@compute').length - 1} kernels`;
    })
    .join('; ');
}

/**
 * A bundler's production build of the fixture app, served statically: the default worker, the
 * app's own worker, and the same build without its worker file (must fail). `isWorker` names the
 * default worker's file in the build; `msmChunks`, where the build names them, the MSM's chunks.
 */
function productionBuild(
  title: string,
  fixture: string,
  deps: string[],
  buildArgs: string[],
  built: string,
  isWorker: (p: string) => boolean,
  { merkleDist = 'dist', compare = false, msmChunks }: { merkleDist?: string; compare?: boolean; msmChunks?: (p: string) => boolean } = {},
): void {
  test.describe(title, () => {
    let dir = '';
    let served: Served;
    let merkleServed: Served;
    test.beforeAll(async () => {
      dir = makeFixture(work, unpacked, fixture, deps);
      timed(`${fixture} build`, () => run('node', buildArgs, dir));
      timings.push(`  ${fixture} dist: ${sizes(join(dir, 'dist'))}`);
      served = await serveDist(join(dir, 'dist'));
      // A config that builds the Merkle page apart (CONSUMER_PAGE=merkle) says where it goes.
      if (merkleDist !== 'dist')
        timed(`${fixture} build, Merkle page alone`, () => run('node', buildArgs, dir, { CONSUMER_PAGE: 'merkle' }));
      merkleServed = merkleDist === 'dist' ? served : await serveDist(join(dir, merkleDist));
    });

    let everyFamily: PageResult | undefined;
    test(`createProver() with the defaults runs in the worker ${built}${compare ? ', every kernel family once' : ''}`, async ({ page }) => {
      everyFamily = await expectProves(page, served, compare ? '/index.html?all=1' : '/index.html', { all: compare });
    });

    test(`a page that only commits with Merkle fetches the Merkle WGSL and no other family's${compare ? ', 3x fewer bytes than every family' : ''}`, async ({
      page,
    }) => {
      const r = await openConsumer(page, `${merkleServed.url}/merkle.html`, { root: merkleServed.root });
      const diagnosis = JSON.stringify({ error: r.report?.error, errors: r.errors, failed: r.failed }, null, 1);
      expect(r.report?.error, diagnosis).toBeUndefined();
      expect(r.report?.finished, diagnosis).toBe(true);
      expect(r.report!.worker).toBe(true);
      expect(r.report!.merkle).toEqual({ ...EXPECTED.merkle, tamperedVerified: false });
      const merkle = downloaded(r);
      const line = (what: string, d: typeof merkle) => `${what}: ${kib(d.bytes)} minified, ${kib(d.gzip)} gzipped (${d.files})`;
      timings.push(`  ${fixture} bytes: ${line('Merkle only', merkle)}`);
      // The WGSL is checked by name (each linked file keeps its `// <file>.wgsl:` header): the
      // Merkle page got its kernels and no other family's; check/bench shaders are in no package.
      expect(merkle.wgsl).toContain('merkle');
      expect(merkle.wgsl.filter((k) => /^(ntt|msm|whir|grind|field|poseidon2_s(16|24)_batch|bn254)/.test(k))).toEqual([]);
      // Nor the MSM's host code or noble's curve, in the page or the worker (src/lazy.ts).
      expect(merkle.holds).toEqual([]);
      if (!compare) return;
      expect(everyFamily, 'the every-family page ran first').toBeDefined();
      const all = downloaded(everyFamily!);
      expect(all.wgsl).toEqual(
        expect.arrayContaining(['ntt_stockham', 'msm_walk', 'merkle', 'whir_sumcheck', 'grind', 'field_check', 'poseidon2_s16_batch']),
      );
      expect(all.wgsl.filter((k) => ['field_bench', 'msm_fq13'].includes(k))).toEqual([]);
      expect(all.holds, 'the markers are found where the code is').toEqual(['msm', 'noble']);
      timings.push(
        `  ${fixture} bytes: ${line('every family', all)}`,
        `  ${fixture} ratio: ${(all.bytes / merkle.bytes).toFixed(2)}x minified, ${(all.gzip / merkle.gzip).toFixed(2)}x gzipped; ` +
          `WGSL alone ${(all.wgslBytes / merkle.wgslBytes).toFixed(1)}x (${kib(merkle.wgslBytes)} vs ${kib(all.wgslBytes)})`,
      );
      expect(all.wgslBytes / merkle.wgslBytes).toBeGreaterThanOrEqual(3);
      // Whole pages, page and worker scripts: at least 3x fewer bytes minified and gzipped. Measured
      // 165 vs 970 KiB minified (5.9x), 66 vs 230 KiB gzipped (3.5x): each family's host code, WGSL
      // and noble load on first use; what every page pays is the client, the worker's core (device,
      // scheduler, checks, router) and WHIR's parameter derivation (docs/internals.md).
      expect(all.bytes / merkle.bytes).toBeGreaterThanOrEqual(3);
      expect(all.gzip / merkle.gzip).toBeGreaterThanOrEqual(3);
    });

    test("createProver({ worker }) with the app's own new Worker(new URL('webgpu-prover/worker', import.meta.url))", async ({ page }) => {
      await expectProves(page, served, '/hatch.html', { msm: false });
    });

    test('the same build without its worker file fails', async ({ page }) => {
      await expectFailsWithoutWorker(page, join(dir, 'dist'), isWorker);
    });

    if (msmChunks) {
      test("the same build without the MSM's chunks: msm() rejects with LOAD_FAILED, the prover keeps working", async ({ page }) => {
        await expectMsmLoadFails(page, join(dir, 'dist'), msmChunks);
      });
    }
  });
}

productionBuild(
  'Vite production build (vite build, served statically)',
  'vite',
  ['vite'],
  ['node_modules/vite/bin/vite.js', 'build'],
  'Vite emitted',
  (p) => /(^|\/)worker-[^/]*\.js$/.test(p),
  { merkleDist: 'dist-merkle', compare: true, msmChunks: (p) => /(^|\/)msm[-.][^/]*\.js$/.test(p) },
);

test.describe('Vite dev server (dependency pre-bundling on)', () => {
  // vitejs/vite#8427 and #21422: the dev server's optimizer used to rewrite a dependency's worker
  // URL to a file it never wrote (404). Vite 8's Rolldown optimizer is meant to fix it, and this
  // fixture's config has no optimizeDeps.exclude, so a regression shows here.
  let dev: ViteDevServer | undefined;
  test.afterAll(async () => {
    await dev?.close();
  });

  test('createProver() with the defaults runs in the worker the dev server serves', async ({ page }) => {
    const dir = makeFixture(work, unpacked, 'vite', ['vite'], 'vite-dev');
    dev = await createServer({ root: dir, configFile: join(dir, 'vite.config.js'), logLevel: 'warn', server: { port: 5660, hmr: false } });
    await dev.listen();
    const r = await expectProves(page, { url: dev.resolvedUrls!.local[0].replace(/\/$/, '') }, '/index.html?msm=0', { msm: false });
    // The page's webgpu-prover really went through the optimizer (node_modules/.vite/deps).
    expect(existsSync(join(dir, 'node_modules/.vite/deps/webgpu-prover.js'))).toBe(true);
    timings.push(`vite dev worker: ${new URL(r.workers[0]).pathname}${new URL(r.workers[0]).search}`);
  });
});

// The default worker is the chunk webpack names after the Worker's `name` option.
productionBuild(
  'webpack 5 production build (webpack-cli, served statically)',
  'webpack',
  ['webpack', 'webpack-cli'],
  ['node_modules/webpack-cli/bin/cli.js'],
  'webpack emitted',
  (p) => p === 'webgpu-prover.js',
);

test('a plain Node ESM script: NO_WEBGPU with the Node fix, CPU exports work', () => {
  const dir = makeFixture(work, unpacked, 'node', []);
  // One Plonky3 Merkle opening and one challenger script (test/vectors, made by Plonky3 itself).
  type MerkleCase = {
    root: number[];
    cap_height: number;
    inputs: unknown[];
    openings: { index: number; opened_values: number[][]; proof: number[][] }[];
  };
  const merkle = (
    JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/merkle.json'), 'utf8')) as { cases: MerkleCase[] }
  ).cases.find((c) => c.inputs.length === 1 && c.cap_height === 0 && c.root && c.openings[0]?.proof.length >= 3)!;
  const challenger = (
    JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/challenger.json'), 'utf8')) as {
      cases: { id: string; script: object[]; results: unknown[] }[];
    }
  ).cases.find((c) => c.id === 'chal-a')!;
  const o = merkle.openings[0];
  const vectors = join(dir, 'vectors.json');
  writeFileSync(
    vectors,
    JSON.stringify({ merkle: { root: merkle.root, index: o.index, row: o.opened_values[0], proof: o.proof }, challenger }),
  );
  const out = JSON.parse(timed('node consumer', () => run('node', ['check.mjs', vectors], dir))) as Record<string, any>;

  expect(out.resolved).toBe(`file://${join(dir, 'node_modules/webgpu-prover/dist/index.js')}`);
  expect(out.exports).toEqual(
    expect.arrayContaining(['createProver', 'ProverError', 'isProverError', 'verifyMerklePath', 'DuplexChallenger', 'babybear']),
  );
  expect(out.createProver.resolved).toBe(false);
  expect(out.createProver).toMatchObject({ isProverError: true, code: 'NO_WEBGPU', name: 'ProverError' });
  // The Node fix: install Dawn's 'webgpu' package and pass its GPU object.
  expect(out.createProver.message).toMatch(/'webgpu' package/);
  expect(out.createProver.message).toContain('createProver({ gpu: create([]) })');
  expect(out.merkleValid).toBe(true);
  expect(out.merkleTampered).toBe(false);
  expect(out.challenger).toEqual(challenger.results);
});
