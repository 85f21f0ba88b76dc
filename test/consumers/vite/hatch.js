// Vite consumer, escape hatch (docs/worker.md): the app resolves the package's "./worker" export
// itself, the pattern for bundlers that do not follow workers inside dependencies.
import { runChecks } from './checks.js';

const worker = new Worker(new URL('webgpu-prover/worker', import.meta.url), { type: 'module' });
runChecks('vite hatch', { worker }, { msm: false });
