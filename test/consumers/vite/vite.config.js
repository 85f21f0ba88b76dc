// The Vite consumer's config: a production build of two pages (the default worker and the
// app-started worker) and, on its own, a Merkle-only page. The one worker setting is the one README recommends:
// `worker.format: 'es'`. Vite's default ('iife') cannot split a worker into chunks, so it inlines
// every kernel family's WGSL into the worker (~830 kB, works, but a Merkle-only page then downloads
// the MSM too); with 'es' each family is its own chunk, fetched on first use. The dev server's
// dependency pre-bundling (optimizeDeps) does not apply to `vite build`, so no optimizeDeps.exclude here.
// CONSUMER_PAGE=merkle builds the Merkle-only page alone into dist-merkle/, as an app with only that
// page would: built with the others, Rolldown puts the code the pages share (the package's client)
// in one common chunk with the other pages' @noble/curves, which the Merkle page would then fetch.
import { defineConfig } from 'vite';

const merkleOnly = process.env.CONSUMER_PAGE === 'merkle';

export default defineConfig({
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    outDir: merkleOnly ? 'dist-merkle' : 'dist',
    rollupOptions: { input: merkleOnly ? { merkle: 'merkle.html' } : { main: 'index.html', hatch: 'hatch.html' } },
    // The NTT family's WGSL is a ~340 kB chunk; the size warning is not the finding here.
    chunkSizeWarningLimit: 2000,
  },
});
