// The Vite consumer's config: a production build of two pages (the default worker and the
// app-started worker). Deliberately nothing about workers: `vite build` must emit the package's
// worker with no configuration, as docs/worker.md promises. The dev server's dependency
// pre-bundling (optimizeDeps) does not apply to `vite build`, so no optimizeDeps.exclude here.
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  build: {
    rollupOptions: { input: { main: 'index.html', hatch: 'hatch.html' } },
    // The prover's WGSL strings make ~760 kB chunks; the size warning is not the finding here.
    chunkSizeWarningLimit: 2000,
  },
});
