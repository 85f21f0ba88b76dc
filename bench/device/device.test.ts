// bench/device without a browser: targets from the config file, BrowserStack endpoints and their
// credentials, the native column from bench/native's committed H100-host output, the tables.
import { describe, expect, it } from 'vitest';
import { browserStackConnect, loadTarget, playwrightVersion } from './config.js';
import { nativeLookup } from './native.js';
import { crossovers, markdownTable } from '../../demo/bench/table.js';
import type { BenchSummary } from '../../demo/bench/harness.js';

const creds = { BROWSERSTACK_USERNAME: 'u', BROWSERSTACK_ACCESS_KEY: 'k' };

describe('targets', () => {
  it('an unknown target lists the known ones', () => {
    expect(() => loadTarget('pixel')).toThrow(
      /unknown target "pixel" in .*targets\.json; targets: local-chromium, endpoint, bs-macos-chrome/,
    );
  });

  it('a ws target takes its endpoint from the environment and says which variable is missing', () => {
    expect(() => loadTarget('endpoint', undefined, {})).toThrow(/set BENCH_WS_ENDPOINT/);
    expect(loadTarget('endpoint', undefined, { BENCH_WS_ENDPOINT: 'ws://phone:3000/x' })).toEqual({
      name: 'endpoint',
      kind: 'ws',
      browser: 'chromium',
      wsEndpoint: 'ws://phone:3000/x',
    });
  });

  it('a BrowserStack Android preset: its caps, the credentials, the tunnel and this Playwright, in the caps query', () => {
    const t = loadTarget('bs-android-mali');
    expect(t).toMatchObject({ kind: 'browserstack', browser: 'android' });
    if (t.kind !== 'browserstack') return;
    const { wsEndpoint, caps } = browserStackConnect(t, { local: false, build: 'b', name: 'n' }, creds);
    expect(wsEndpoint.startsWith('wss://cdp.browserstack.com/playwright?caps=')).toBe(true);
    expect(JSON.parse(decodeURIComponent(wsEndpoint.split('caps=')[1]))).toEqual(caps);
    expect(caps).toEqual({
      deviceName: 'Google Pixel 8',
      osVersion: '14.0',
      realMobile: 'true',
      browserName: 'chrome',
      'browserstack.username': 'u',
      'browserstack.accessKey': 'k',
      'browserstack.local': 'false',
      'client.playwrightVersion': playwrightVersion(),
      build: 'b',
      name: 'n',
    });
  });

  it('missing BrowserStack credentials name the variables', () => {
    const t = loadTarget('bs-ios-safari');
    if (t.kind !== 'browserstack') throw new Error('preset kind');
    expect(() => browserStackConnect(t, { local: true, build: 'b', name: 'n' }, { BROWSERSTACK_USERNAME: 'u' })).toThrow(
      /need BROWSERSTACK_ACCESS_KEY in the environment/,
    );
  });
});

const summary = (kernel: string, size: string, nativeKey: BenchSummary['nativeKey']): BenchSummary => ({
  kernel,
  size,
  logn: 20,
  elements: 2 ** 20,
  check: { ok: true, full: false, detail: '' },
  firstCallMs: 1,
  gpu: { reps: 3, iters: 1, medianMs: 2, minMs: 2, perIterMs: 2, elementsPerS: 2 ** 20 / 0.002 },
  cpu: null,
  gpuSpeedup: null,
  passes: [
    { label: 'r32', ms: 1.5 },
    { label: 'r32 | b', ms: 0.5 },
  ],
  passSource: 'timestamp-query',
  nativeKey,
});

describe('native column and tables', () => {
  const native = nativeLookup(new URL('../../bench/native/results/gpu-host-16c-v3.jsonl', import.meta.url).pathname);

  it('matches native lines by their fields: the most threads, the fastest implementation', () => {
    // dft 2^20 x 1 at 16 threads: radix2_dit_parallel 12.41 ms, recursive 6.016 ms
    expect(native(summary('ntt dft', '2^20 x 1', { bench: 'dft', op: 'dft', log_n: 20, width: 1 }))).toBe(6.016);
    // msm 2^10: 16 threads (2.008 ms), not the single-thread line
    expect(native(summary('msm bn254', '2^10 points', { bench: 'msm', log_n: 10 }))).toBe(2.008);
    expect(native(summary('ntt dft', '2^9 x 1', { bench: 'dft', op: 'dft', log_n: 9, width: 1 }))).toBeUndefined();
    expect(native(summary('commit', '2^9 x 8', null))).toBeUndefined();
  });

  it('the markdown table has the native column only when asked, and escapes pipes', () => {
    const rows = [summary('ntt dft', '2^20 x 1', { bench: 'dft', op: 'dft', log_n: 20, width: 1 })];
    const withNative = markdownTable(rows, native).split('\n');
    expect(withNative[0]).toContain('| native ms |');
    expect(withNative[2]).toBe(
      '| ntt dft | 2^20 x 1 | sampled | 2.00 | 2.00 | 524.29 M | - | - | - | 6.02 | r32 1.50, r32 \\| b 0.50 (timestamp-query) |',
    );
    expect(markdownTable(rows)).not.toContain('native');
  });
});

describe('crossover', () => {
  const at = (kernel: string, logn: number, speedup: number | null) => ({
    ...summary(kernel, `2^${logn}`, null),
    logn,
    gpuSpeedup: speedup,
  });
  it('the smallest size from which the GPU wins at every larger size measured', () => {
    expect(crossovers([at('ntt', 16, 1.5), at('ntt', 10, 0.5), at('ntt', 12, 0.9), at('ntt', 14, 1.2), at('ntt', 18, null)])).toEqual([
      'ntt: the GPU wins from 2^14 (1.20x; CPU faster at 2^12)',
    ]);
    expect(crossovers([at('msm', 10, 1.2), at('msm', 12, 0.8), at('msm', 14, 1.3)])).toEqual([
      'msm: the GPU wins from 2^14 (1.30x; CPU faster at 2^12)',
    ]);
    expect(crossovers([at('grind', 8, 0.2), at('grind', 12, 0.4)])).toEqual([
      'grind: the CPU path is faster at every size measured (2^8 to 2^12)',
    ]);
    expect(crossovers([at('p2', 10, 2.5)])).toEqual(['p2: the GPU is faster at every size measured (2^10)']);
    expect(crossovers([at('merkle', 20, null)])).toEqual(['merkle: no CPU timing to compare with']);
  });
});
