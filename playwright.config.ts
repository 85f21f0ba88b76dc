// GPU tests: the dev page's check modes in headless Chromium on SwiftShader (see test/e2e/), and the
// device bench driver's own spec beside it (bench/device/driver.spec.ts).
import { defineConfig } from '@playwright/test';
import { findChromium, chromiumArgs } from './scripts/chromium.mjs';

// PW_PORT lets several checkouts or engineers run the suite on one machine at once.
const PORT = Number(process.env.PW_PORT ?? 5199);

export default defineConfig({
  testDir: '.',
  testMatch: ['test/e2e/**/*.spec.ts', 'bench/device/**/*.spec.ts'],
  // One worker: SwiftShader already uses both CI cores for one page.
  workers: 1,
  timeout: 10 * 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: { executablePath: findChromium() ?? undefined, args: chromiumArgs() },
  },
  webServer: {
    command: `npx vite --config vite.config.ts --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
