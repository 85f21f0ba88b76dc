/**
 * createProver(): a prover in a Web Worker by default in a browser page (the page's thread stays
 * free while the GPU's host work runs), in this thread elsewhere (Node, inside a worker, or with
 * `{ worker: false }` or a `gpu` object, which cannot be sent to a worker).
 * @module
 */
import { ProverError } from './errors.js';
import type { Prover } from './prover.js';
import { requireProverOptions, type ProverOptions } from './options.js';
import { show } from './validate.js';
import { spawnWorker } from './worker/spawn.js';
import { workerProver } from './worker/client.js';

/** A browser page: a window and the Worker constructor (a worker itself runs provers in-thread). */
function inPage(): boolean {
  return typeof Worker === 'function' && typeof (globalThis as { document?: unknown }).document === 'object';
}

/**
 * Acquire a GPU device and return a prover on it.
 * @throws ProverError NO_WEBGPU with a message saying what to do, INVALID_ARGUMENT for bad options
 * @example
 *   const prover = await createProver();                       // browser: runs in a Web Worker
 *   const prover = await createProver({ worker: false });      // browser: in the page's thread
 *   const prover = await createProver({ gpu: create([]) });    // Node, `import { create } from 'webgpu'`
 */
export async function createProver(options?: ProverOptions): Promise<Prover> {
  const opts = requireProverOptions(options);
  const w = opts.worker;
  const isUrl = typeof w === 'string' || (typeof URL === 'function' && w instanceof URL);
  const isWorker = typeof Worker === 'function' && w instanceof Worker;
  if (w !== undefined && typeof w !== 'boolean' && !isUrl && !isWorker) {
    throw new ProverError('INVALID_ARGUMENT', `worker must be true, false, a Worker or the worker script's URL, got ${show(w)}`);
  }
  if (w !== undefined && w !== false && opts.gpu !== undefined) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      'a gpu object cannot be sent to a worker: pass { gpu } with { worker: false }, or leave gpu out',
    );
  }
  const useWorker = w === undefined ? inPage() && opts.gpu === undefined : w !== false;
  // Loaded only here: a page whose prover runs in the worker does not ship the kernels twice.
  if (!useWorker) return (await import('./prover.js')).createLocalProver(opts);
  if ((w === true || w === undefined) && typeof Worker !== 'function') {
    throw new ProverError('INVALID_ARGUMENT', 'worker: true needs Web Workers, which this environment lacks; pass { worker: false }');
  }
  const worker = isWorker
    ? (w as Worker)
    : isUrl
      ? new Worker(w as string | URL, { type: 'module', name: 'webgpu-prover' })
      : spawnWorker();
  return workerProver(worker, opts);
}
