/**
 * Bundles bench/run.ts into bench/dist/bench.mjs (one file, 'webgpu' external) for the GPU
 * machine, which has Node (from .gpu-kit) but no node_modules.
 * @module
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['bench/run.ts'],
  outfile: 'bench/dist/bench.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['webgpu'],
  logLevel: 'info',
});
