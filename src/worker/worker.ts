/**
 * The worker entry (`webgpu-prover/worker`): exposes a WorkerHost to the page through comlink.
 * createProver() starts it by default in a browser page; start it yourself with
 * `new Worker(new URL('webgpu-prover/worker', import.meta.url), { type: 'module' })` and pass it
 * as createProver({ worker }) where a bundler does not follow workers inside dependencies.
 * @module
 */
import * as Comlink from 'comlink';
import { WorkerHost } from './host.js';

Comlink.expose(new WorkerHost());
