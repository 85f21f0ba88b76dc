/**
 * Bundles the Node + Dawn entry points for the GPU machine, which has Node and the `webgpu` package but
 * no other node_modules: bench/run.ts into bench/dist/bench.mjs, bench/gc-check.ts into
 * bench/dist/gc-check.mjs, bench/host-arrays.ts into bench/dist/host-arrays.mjs, bench/cold-probe.ts
 * into bench/dist/cold-probe.mjs, bench/whir-engine.ts into bench/dist/whir-engine.mjs, bench/gpu-calls.ts into
 * bench/dist/gpu-calls.mjs, bench/state-probe.ts into bench/dist/state-probe.mjs,
 * bench/small-ab.ts into bench/dist/small-ab.mjs, bench/fr-qap.ts into bench/dist/fr-qap.mjs, bench/runtimes.ts into bench/dist/runtimes.mjs (Node and Deno), src/checks/check-worker.ts into bench/dist/check-worker.js (the check thread), src/index.ts into
 * bench/dist/lib.mjs (one file each, 'webgpu' external), and bench/snarkjs-prove.cjs (snarkjs, CommonJS) into
 * bench/dist/snarkjs-prove.cjs.
 * @module
 */
import { build } from 'esbuild';

const ENTRIES = {
  'bench/run.ts': 'bench/dist/bench.mjs',
  'bench/gc-check.ts': 'bench/dist/gc-check.mjs',
  'bench/host-arrays.ts': 'bench/dist/host-arrays.mjs',
  'bench/cold-probe.ts': 'bench/dist/cold-probe.mjs',
  'bench/msm-compile.ts': 'bench/dist/msm-compile.mjs',
  'bench/compile-probe.ts': 'bench/dist/compile-probe.mjs',
  'bench/encode-points-probe.ts': 'bench/dist/encode-points-probe.mjs',
  'bench/whir-engine.ts': 'bench/dist/whir-engine.mjs',
  'bench/gpu-calls.ts': 'bench/dist/gpu-calls.mjs',
  'bench/state-probe.ts': 'bench/dist/state-probe.mjs',
  'bench/small-ab.ts': 'bench/dist/small-ab.mjs',
  'bench/fr-qap.ts': 'bench/dist/fr-qap.mjs',
  'bench/runtimes.ts': 'bench/dist/runtimes.mjs',
  // The check thread's entry, beside the bundles that start it (new URL('./check-worker.js', import.meta.url)).
  'src/checks/check-worker.ts': 'bench/dist/check-worker.js',
  // The library alone, for bench/small-ab.ts (another version's src/index.ts bundled the same way beside it).
  'src/index.ts': 'bench/dist/lib.mjs',
};

for (const [entry, outfile] of Object.entries(ENTRIES)) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['webgpu'],
    // The package's sideEffects list names only the worker entry; without this, esbuild drops the
    // benches' side-effect imports of the dev-only WGSL (bench/support/wgsl-dev.gen.ts registers it).
    ignoreAnnotations: true,
    logLevel: 'info',
  });
}

// snarkjs, the groth16 suite's CPU anchor, as CommonJS: its worker threads start from the bundle itself.
await build({
  entryPoints: ['bench/snarkjs-prove.cjs'],
  outfile: 'bench/dist/snarkjs-prove.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'info',
});
