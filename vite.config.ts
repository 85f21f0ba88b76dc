// Dev page (demo/) with the /progress endpoint; `npm run dev`, and the server behind
// `npm start`, the Playwright tests and the device bench driver.
import { defineConfig } from 'vite';
import { progressPlugin } from './demo/progress-plugin.js';
import { fixturesPlugin } from './demo/fixtures-plugin.js';

export default defineConfig({
  root: 'demo',
  plugins: [progressPlugin(), fixturesPlugin()],
  // Cross-origin isolated, as a dApp that shares memory with its worker is: SharedArrayBuffer
  // exists, so the checks of inputs on shared buffers run (they fail where it is missing).
  server: {
    host: '127.0.0.1',
    headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
  },
  // Pre-bundle noble up front: discovered late, it makes Vite reload the page mid-autorun.
  optimizeDeps: { include: ['@noble/curves/bn254.js', '@noble/curves/abstract/curve.js', 'comlink', 'fast-check'] },
  worker: { format: 'es' },
  build: { outDir: '../dist-demo', emptyOutDir: true },
  logLevel: 'warn',
});
