/**
 * `npm start`: the main job. Serves the dev page, runs its `all-check` autorun in headless
 * Chromium (every GPU kernel against its CPU reference) and prints the results table, then a
 * short `all-bench` (every kernel family checked at a small size, then timed on the GPU and on
 * the library's CPU path in the same browser) and its table.
 *   npm start                      headless, exit status 1 if any check fails or errors
 * While a step runs longer than HEARTBEAT_MS it prints what it is waiting on, so a run that
 * compiles pipelines for 30 s on a CPU adapter is never silent.
 *   npm start -- --open            visible browser (needs a display)
 *   npm start -- --mode field-check --n 4096
 *   npm start -- --mode ntt-bench --logn 16
 *   npm start -- --no-bench        all-check alone
 *   npm start -- --limits default  every mode on a device with only WebGPU's default limits and no
 *                                  optional feature (what `npm test` runs: the Playwright specs run
 *                                  the checks at the adapter's limits); each mode's device is checked
 *                                  to have exactly those, or the run fails
 * @module
 */
import { runAutorun } from './browser-driver.js';
import { benchSummaries, crossovers, textTable } from '../demo/bench/table.js';
import { notDefaultDevice } from './default-device.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const params: Record<string, string> = {};
if (arg('n')) params.n = arg('n')!;
if (arg('logn')) params.logn = arg('logn')!;
// hash-check: kernel variant, tree size; fq-bench: job size; msm-bench-gpu: lowmem; errors-check: seed, runs; *-bench: width, bits, cpuMax, passes, scale
for (const k of [
  'p2',
  'maxLogH',
  'variants',
  'threads',
  'iters',
  'reps',
  'lowmem',
  'seed',
  'runs',
  'worker',
  'limits',
  'width',
  'bits',
  'cpuMax',
  'passes',
  'scale',
])
  if (arg(k)) params[k] = arg(k)!;
const headless = !process.argv.includes('--open');
const modes = arg('mode') ? [arg('mode')!] : process.argv.includes('--no-bench') ? ['all-check'] : ['all-check', 'all-bench'];

const HEARTBEAT_MS = 4000;

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** One mode, its rows streamed as they come; true when it passed. */
async function runOne(mode: string): Promise<boolean> {
  console.log(`webgpu-prover: running ?autorun=${mode} in ${headless ? 'headless ' : ''}Chromium`);
  const t0 = Date.now();
  let lastLine = t0;
  let lastRow = t0;
  let lastStep = 'starting Chromium and the dev server';
  const print = (line: string) => {
    console.log(line);
    lastLine = Date.now();
  };
  const heartbeat = setInterval(() => {
    if (Date.now() - lastLine < HEARTBEAT_MS) return;
    const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    print(`  ... ${mode}: running the step after "${lastStep}" for ${secs(Date.now() - lastRow)} (${secs(Date.now() - t0)} in all)`);
  }, 1000);
  const result = await runAutorun({
    mode,
    params,
    headless,
    onRow: (r) => {
      lastStep = `${r.mode}: ${r.step}`;
      lastRow = Date.now();
      print(`  ${pad(r.step, 40)} ${pad(r.status, 6)} ${r.ms.toFixed(0).padStart(7)} ms  ${r.detail ?? ''}`);
    },
  }).finally(() => clearInterval(heartbeat));
  for (const r of result.rows.filter((r) => r.status === 'error')) console.log(`  error: ${r.detail}`);
  const checks = result.rows.filter((r) => r.status === 'ok' || r.status === 'fail');
  const failed = checks.filter((r) => r.status === 'fail');
  // A check mode that checked nothing is not a success either (some benches, worker-bench, only time).
  const notDefault = params.limits === 'default' ? notDefaultDevice(result) : undefined;
  if (notDefault) console.log(`  error: --limits default, but ${notDefault}`);
  else if (params.limits === 'default') console.log("  device: WebGPU's default limits and no optional feature, as asked");
  const status = (result.status === 'ok' && checks.length === 0 && mode.endsWith('-check')) || notDefault ? 'fail' : result.status;
  const bench = benchSummaries(result.rows);
  if (bench.length) {
    console.log(
      `\n${textTable(bench)}\n  (CPU: the library's CPU path in the same browser; GPU speedup: its time per call over the GPU's, above 1x the GPU wins)`,
    );
    for (const line of crossovers(bench)) console.log(`  ${line}`);
  }
  console.log(
    `\n${result.mode} on ${result.adapter}: ${status.toUpperCase()} (${checks.length - failed.length}/${checks.length} checks passed)\n`,
  );
  return status === 'ok';
}

let ok = true;
for (const mode of modes) ok = (await runOne(mode)) && ok;
process.exit(ok ? 0 : 1);
