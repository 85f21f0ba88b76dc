// Node-side tests: pure TypeScript (params, ref, linker, pool, errors, vectors), and the bench
// driver's and dev page's own tests beside what they test (bench/device, demo/bench). GPU tests
// run in Chromium through Playwright (playwright.config.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'bench/**/*.test.ts', 'demo/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
