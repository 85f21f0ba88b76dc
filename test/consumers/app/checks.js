// The consumer page: what an app does with the package, written as an app would (plain ESM,
// `import { createProver } from 'webgpu-prover'`, noble points from its own @noble/curves). It is
// copied into each bundler fixture and bundled by Vite or webpack from the installed tarball.
// It only reports; the test compares the report to answers it computes from src/ref and noble.
import { createProver, isProverError } from 'webgpu-prover';
import { bn254 } from '@noble/curves/bn254.js';
import { DFT_VALUES, DFT_WIDTH, POSEIDON2_STATE, MSM_SCALARS, PAGE_TIMEOUT_MS } from './inputs.js';

/** Reject after `ms` so a prover that never answers (e.g. its worker failed to load) shows up. */
function deadline(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not settle in ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Create a prover with `options` (undefined: the defaults, i.e. the package's own worker), run
 * one dft, one Poseidon2 permutation and one MSM, and publish the results on window.__consumer
 * as plain JSON (numbers, hex strings) for the test to read. `msm: false` skips the MSM, whose
 * pipelines take SwiftShader ~13 s to compile per page (the app-started-worker pages leave it out
 * to keep CI under its budget: the default pages already carry noble points across the worker).
 */
export async function runChecks(label, options, { msm = true } = {}) {
  const report = { label, finished: false, steps: [] };
  window.__consumer = report;
  const step = (name) => report.steps.push({ name, t: Math.round(performance.now()) });
  let prover;
  try {
    step('createProver');
    prover = await deadline(createProver(options), PAGE_TIMEOUT_MS, 'createProver()');
    report.worker = prover.info.worker;
    report.adapter = prover.info.adapter ?? null;

    step('dft');
    const evals = await deadline(prover.dft(Uint32Array.from(DFT_VALUES), { width: DFT_WIDTH }), PAGE_TIMEOUT_MS, 'dft');
    report.dft = Array.from(evals);

    step('poseidon2');
    const permuted = await deadline(prover.poseidon2(Uint32Array.from(POSEIDON2_STATE), { width: 16 }), PAGE_TIMEOUT_MS, 'poseidon2');
    report.poseidon2 = Array.from(permuted);

    if (!msm) { step('done'); return report; }
    step('msm');
    const G = bn254.G1.Point.BASE;
    const sum = await deadline(prover.msm([G, G.double()], MSM_SCALARS.map(BigInt)), PAGE_TIMEOUT_MS, 'msm');
    // The worker sends the point back packed; it must arrive as a Point of this app's noble.
    report.msmIsNoblePoint = sum instanceof bn254.G1.Point;
    const a = sum.toAffine();
    report.msm = sum.is0() ? null : { x: a.x.toString(16), y: a.y.toString(16) };
    step('done');
  } catch (e) {
    report.error = { code: isProverError(e) ? e.code : null, name: e?.name ?? null, message: String(e?.message ?? e) };
  } finally {
    prover?.destroy();
    report.finished = true;
  }
  return report;
}
