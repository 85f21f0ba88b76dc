// Vite consumer, default options: the worker is whatever Vite emitted for the package's
// `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`. `?msm=0` leaves the
// MSM out (the dev-server run: ~13 s of SwiftShader pipeline compiling that the build run covers).
import { runChecks } from './checks.js';

runChecks('vite default', undefined, { msm: new URLSearchParams(location.search).get('msm') !== '0' });
