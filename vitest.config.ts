// Node-side tests: pure TypeScript (params, ref, linker, pool, errors, vectors). GPU tests run in
// Chromium through Playwright (playwright.config.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
