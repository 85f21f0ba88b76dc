// Dev page (demo/) with the /progress endpoint; `npm run dev`, and the server behind
// `npm start`, the Playwright tests and the device bench driver.
import { defineConfig } from 'vite';
import { progressPlugin } from './demo/progress-plugin.js';

export default defineConfig({
  root: 'demo',
  plugins: [progressPlugin()],
  server: { host: '127.0.0.1' },
  // Pre-bundle noble up front: discovered late, it makes Vite reload the page mid-autorun.
  optimizeDeps: { include: ['@noble/curves/bn254.js', '@noble/curves/abstract/curve.js', 'comlink', 'fast-check'] },
  worker: { format: 'es' },
  build: { outDir: '../dist-demo', emptyOutDir: true },
  logLevel: 'warn',
});
