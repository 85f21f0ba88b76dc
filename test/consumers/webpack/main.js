// webpack consumer, default options: the worker is whatever webpack emitted for the package's
// `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`.
import { runChecks } from './checks.js';

runChecks('webpack default');
