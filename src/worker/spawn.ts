/**
 * Starts the package's own worker. The `new Worker(new URL('./worker.js', import.meta.url), ...)`
 * expression is written literally, in one piece, so Vite, webpack 5, Rollup and esbuild see it
 * and emit the worker as a chunk of the consumer's app (docs/worker.md lists where they do not,
 * and the `worker` option that works around it).
 * @module
 */
export function spawnWorker(): Worker {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'webgpu-prover' });
}
