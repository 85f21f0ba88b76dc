/**
 * `npm run test:deno`: the dev page's `all-check` (every mode of demo/autorun.ts's CHECKS) under
 * Deno, whose WebGPU is wgpu (naga's SPIR-V on Vulkan, not Chromium's Dawn and Tint), on a prover
 * in this thread (`createProver({ worker: false })`), with the same rows, the same ModeContext and
 * the same pass/fail rule as `npm start`: a 'fail' row, an exception (or an 'error' row), or a
 * check mode that checked nothing, fails the run. Then a summary table, one line per mode and pass, and exit 1 on any failure.
 *   deno run --sloppy-imports --allow-read --allow-env scripts/deno-checks.ts
 *     [--limits adapter|default|both]   which device(s): the adapter's limits, WebGPU's defaults (checked
 *                                       to be exactly those, as `npm start -- --limits default` does), or
 *                                       both in turn (the default)
 *     [--mode a,b]                      only these modes of CHECKS
 * On Linux it runs on Mesa's lavapipe (Vulkan on the CPU; scripts/setup.mjs installs it): it sets
 * DENO_WEBGPU_BACKEND=vulkan and VK_ICD_FILENAMES to lavapipe's ICD unless they are set already or
 * WEBGPU_HARDWARE=1 (then wgpu picks the GPU). Without a Vulkan driver wgpu would fall back to
 * OpenGL on llvmpipe, 1.6x to over 50x slower per check (docs/portability.md), so a missing
 * lavapipe is an error.
 * `--sloppy-imports`: the sources import `./x.js` for `./x.ts`, as TypeScript's NodeNext wants;
 * npm packages come from node_modules (Deno reads package.json).
 * @module
 */
import process from 'node:process';
import { tmpdir } from 'node:os';
import { CHECKS, type ModeContext } from '../demo/autorun.js';
import type { AutorunResult, Row } from '../bench/support/autorun-result.js';
import { createProver, type Prover } from '../src/index.js';
import { notDefaultDevice } from './default-device.js';
import { findLavapipe } from './lavapipe.mjs';

/**
 * Modes of CHECKS that do not run here, each with its reason, printed in the run and its summary.
 * A name here that is not in CHECKS fails the run, so the list cannot go stale.
 */
const SKIPPED: Readonly<Record<string, string>> = {};

/** Parameters a mode needs outside a page: the committed Groth16 fixtures are files, not /fixtures/ URLs. */
const MODE_PARAMS: Readonly<Record<string, Record<string, string>>> = {
  'groth16-check': { base: new URL('../test/groth16/fixtures/', import.meta.url).href },
};

const HEARTBEAT_MS = 4000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Point wgpu at lavapipe on Linux (see the module comment); returns a line saying what it runs on, or throws. */
function chooseBackend(): string {
  const env = process.env;
  if (process.platform !== 'linux' || env.WEBGPU_HARDWARE === '1') return `wgpu's own choice of backend (${process.platform})`;
  env.DENO_WEBGPU_BACKEND ??= 'vulkan';
  // Each new device looks for a Wayland display, and libwayland prints "error: XDG_RUNTIME_DIR is
  // invalid or not set" twice when that variable is missing (a CI shell): a folder with no display
  // in it quiets that without changing anything else.
  env.XDG_RUNTIME_DIR ??= tmpdir();
  if (!env.VK_ICD_FILENAMES && !env.VK_DRIVER_FILES) {
    const icd = findLavapipe();
    if (!icd)
      throw new Error(
        "no lavapipe Vulkan driver (Mesa's lvp_icd.*.json): install mesa-vulkan-drivers (npm test's scripts/setup.mjs does, as root on Debian/Ubuntu), " +
          'set VK_ICD_FILENAMES to another Vulkan driver, or WEBGPU_HARDWARE=1 to let wgpu pick the GPU',
      );
    env.VK_ICD_FILENAMES = icd;
  }
  return `DENO_WEBGPU_BACKEND=${env.DENO_WEBGPU_BACKEND}, VK_ICD_FILENAMES=${env.VK_ICD_FILENAMES ?? '(unset)'}${env.VK_DRIVER_FILES ? `, VK_DRIVER_FILES=${env.VK_DRIVER_FILES}` : ''}`;
}

type Pass = 'adapter' | 'default';

interface ModeResult {
  pass: Pass;
  mode: string;
  ms: number;
  passed: number;
  failed: number;
  errors: string[];
  skipped?: string;
  status: 'ok' | 'fail' | 'skipped';
}

/** One pass: a prover on one device, every chosen mode of CHECKS on it in turn (as all-check does in the page). */
async function runPass(pass: Pass, modes: string[]): Promise<ModeResult[]> {
  const t0 = performance.now();
  const params = (mode: string) =>
    new URLSearchParams({ worker: '0', ...(pass === 'default' ? { limits: 'default' } : {}), ...MODE_PARAMS[mode] });
  const prover: Prover = await createProver({ worker: false, ...(pass === 'default' ? { limits: 'default' as const } : {}) });
  const results: ModeResult[] = [];
  let lastLine = performance.now();
  let lastStep = 'createProver';
  let lastRow = performance.now();
  const print = (line: string) => {
    console.log(line);
    lastLine = performance.now();
  };
  const heartbeat = setInterval(() => {
    if (performance.now() - lastLine < HEARTBEAT_MS) return;
    print(
      `  ... running the step after "${lastStep}" for ${secs(performance.now() - lastRow)} (${secs(performance.now() - t0)} in this pass)`,
    );
  }, 1000);
  try {
    const adapterRow: Row = {
      mode: 'all-check',
      step: 'adapter',
      status: 'info',
      ms: performance.now() - t0,
      limits: prover.info.limits,
      features: prover.info.features,
    };
    print(
      `\n[${pass} limits] ${prover.info.adapter} (in this thread, ${pass === 'default' ? "WebGPU's default limits" : "the adapter's limits"})`,
    );
    if (pass === 'default') {
      const result: AutorunResult = {
        finished: true,
        status: 'ok',
        runId: 'deno',
        mode: 'all-check',
        adapter: prover.info.adapter,
        rows: [adapterRow],
      };
      const off = notDefaultDevice(result);
      if (off) {
        print(`  error: --limits default, but ${off}`);
        results.push({ pass, mode: '(device)', ms: 0, passed: 0, failed: 0, errors: [off], status: 'fail' });
      } else print("  device: WebGPU's default limits and no optional feature, as asked");
    }
    for (const mode of modes) {
      if (SKIPPED[mode]) {
        print(`  ${pad(mode, 40)} skipped: ${SKIPPED[mode]}`);
        results.push({ pass, mode, ms: 0, passed: 0, failed: 0, errors: [], skipped: SKIPPED[mode], status: 'skipped' });
        continue;
      }
      const r: ModeResult = { pass, mode, ms: 0, passed: 0, failed: 0, errors: [], status: 'ok' };
      const m0 = performance.now();
      lastStep = `${mode}: start`;
      lastRow = m0;
      const ctx: ModeContext = {
        prover,
        params: params(mode),
        report: (step, status, ms, extra = {}) => {
          if (status === 'ok') r.passed++;
          if (status === 'fail') r.failed++;
          if (status === 'error') r.errors.push(`${step}: ${String(extra.detail ?? 'error')}`);
          lastStep = `${mode}: ${step}`;
          lastRow = performance.now();
          const detail = typeof extra.detail === 'string' ? extra.detail : '';
          print(`  ${pad(`${mode}: ${step}`, 56)} ${pad(status, 6)} ${ms.toFixed(0).padStart(7)} ms  ${detail}`);
        },
      };
      try {
        await CHECKS[mode](ctx);
      } catch (e) {
        const err = e as Error & { code?: string };
        const detail = `${err.code ?? err.name}: ${err.message}`;
        r.errors.push(detail);
        print(`  ${pad(`${mode}: exception`, 56)} error  ${(performance.now() - m0).toFixed(0).padStart(7)} ms  ${detail}`);
        if (err.stack) print(err.stack.split('\n').slice(1, 6).join('\n'));
      }
      r.ms = performance.now() - m0;
      // As npm start: a check mode that checked nothing is not a success either.
      if (r.failed || r.errors.length || r.passed === 0) r.status = 'fail';
      if (r.passed === 0 && !r.failed && !r.errors.length) r.errors.push('no check ran');
      results.push(r);
    }
  } finally {
    clearInterval(heartbeat);
    try {
      const st = prover.stats();
      print(
        `  stats: pool ${st.bytesHeld} B held, peak ${st.peakBytesInUse} B in use; ${st.compiled.pipelines} pipelines compiled in ${st.compiled.pipelineMs.toFixed(0)} ms`,
      );
    } catch {
      // a destroyed or lost prover has nothing to report
    }
    prover.destroy();
  }
  return results;
}

async function main(): Promise<number> {
  if (!('Deno' in globalThis)) {
    console.error('scripts/deno-checks.ts runs under Deno: npm run test:deno');
    return 2;
  }
  const limits = arg('limits') ?? 'both';
  const passes: readonly Pass[] | undefined =
    limits === 'both' ? ['adapter', 'default'] : limits === 'adapter' || limits === 'default' ? [limits] : undefined;
  if (!passes) {
    console.error(`--limits must be adapter, default or both, got ${limits}`);
    return 2;
  }
  const all = Object.keys(CHECKS);
  const modes = arg('mode')?.split(',').filter(Boolean) ?? all;
  const unknown = [...modes.filter((m) => !CHECKS[m]), ...Object.keys(SKIPPED).filter((m) => !CHECKS[m])];
  if (unknown.length) {
    console.error(`not modes of all-check (demo/autorun.ts CHECKS): ${unknown.join(', ')}; modes: ${all.join(', ')}`);
    return 2;
  }
  let backend: string;
  try {
    backend = chooseBackend();
  } catch (e) {
    console.error(`deno-checks: ${(e as Error).message}`);
    return 1;
  }
  const deno = (globalThis as { Deno?: { version?: { deno?: string } } }).Deno?.version?.deno ?? '?';
  console.log(`webgpu-prover: all-check under Deno ${deno} (wgpu), ${backend}`);
  const t0 = performance.now();
  const results: ModeResult[] = [];
  for (const pass of passes) {
    try {
      results.push(...(await runPass(pass, modes)));
    } catch (e) {
      const err = e as Error & { code?: string };
      console.log(`  error: ${err.code ?? err.name}: ${err.message}`);
      results.push({ pass, mode: '(createProver)', ms: 0, passed: 0, failed: 0, errors: [err.message], status: 'fail' });
    }
  }
  const total = performance.now() - t0;
  console.log(`\n${pad('limits', 8)} ${pad('mode', 20)} ${'time'.padStart(9)}  ${pad('checks', 8)} status`);
  for (const r of results) {
    const why = r.skipped ?? (r.errors.length ? r.errors.join('; ') : r.failed ? `${r.failed} failed` : '');
    const line = `${pad(r.pass, 8)} ${pad(r.mode, 20)} ${secs(r.ms).padStart(9)}  ${pad(`${r.passed}/${r.passed + r.failed}`, 8)} ${r.status.toUpperCase()}`;
    console.log(why ? `${line}  ${why}` : line);
  }
  const failed = results.filter((r) => r.status === 'fail');
  const ran = results.filter((r) => r.status !== 'skipped');
  const checks = results.reduce((a, r) => a + r.passed + r.failed, 0);
  const passedChecks = results.reduce((a, r) => a + r.passed, 0);
  console.log(
    `\nall-check under Deno (${passes.join(' + ')} limits): ${failed.length ? 'FAIL' : 'OK'} in ${secs(total)}: ` +
      `${ran.length - failed.length}/${ran.length} modes passed, ${results.length - ran.length} skipped; ${passedChecks}/${checks} checks passed`,
  );
  return failed.length ? 1 : 0;
}

process.exit(await main());
