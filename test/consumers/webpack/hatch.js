// webpack consumer, escape hatch (docs/worker.md): the app starts the package's "./worker"
// export itself and passes it in.
import { runChecks } from './checks.js';

const worker = new Worker(new URL('webgpu-prover/worker', import.meta.url), { type: 'module' });
runChecks('webpack hatch', { worker }, { msm: false });
