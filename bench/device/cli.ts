/**
 * `npm run bench:device -- --target <name> --modes all-check,ntt-bench [options]`
 *   --target      a target of the config file (default local-chromium)
 *   --config      the targets file (default bench/device/targets.json)
 *   --modes       comma-separated autorun modes (default all-check,all-bench)
 *   --params      URL parameters for every mode, e.g. logn=16,reps=5
 *   --url         the page's URL when it is not this machine's dev server (a public preview);
 *                 BrowserStack without --url reaches this machine through BrowserStack Local
 *   --stall-s     seconds without a /progress row before a run counts as stalled (default 120)
 *   --native      bench/native output (JSON lines) from the same machine: adds the native column
 *   --out         output folder (default bench/results)
 *   --open        a visible browser (local-chromium)
 * Exit status 1 when any run failed, errored or stalled.
 * @module
 */
import { browserStackCredentials, loadTarget, DEFAULT_CONFIG } from './config.js';
import { runDevice } from './driver.js';
import { nativeLookup } from './native.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

try {
  const target = loadTarget(arg('target') ?? 'local-chromium', arg('config') ?? DEFAULT_CONFIG);
  if (target.kind === 'browserstack') browserStackCredentials(); // fail before starting anything
  const params = Object.fromEntries(
    (arg('params') ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  const { results, json, md } = await runDevice({
    target,
    modes: (arg('modes') ?? 'all-check,all-bench').split(','),
    params,
    url: arg('url'),
    stallMs: Number(arg('stall-s') ?? 120) * 1000,
    outDir: arg('out'),
    native: arg('native') ? nativeLookup(arg('native')!) : undefined,
    headless: !process.argv.includes('--open'),
  });
  console.log(`\nwrote ${json}\nwrote ${md}\n`);
  for (const r of results.runs) console.log(`  ${r.mode.padEnd(20)} ${r.status}${r.attempts > 1 ? ` after ${r.attempts} attempts` : ''}`);
  process.exit(results.runs.every((r) => r.status === 'ok') ? 0 : 1);
} catch (e) {
  console.error(`bench:device: ${(e as Error).message}`);
  process.exit(2);
}
