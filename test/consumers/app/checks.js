// The consumer page: what an app does with the package, written as an app would (plain ESM,
// `import { createProver } from 'webgpu-prover'`, noble points from its own @noble/curves). It is
// copied into each bundler fixture and bundled by Vite or webpack from the installed tarball.
// It only reports; the test compares the report to answers it computes from src/ref and noble.
import { createProver, DuplexChallenger } from 'webgpu-prover';
import { bn254 } from '@noble/curves/bn254.js';
import {
  DFT_VALUES,
  DFT_WIDTH,
  POSEIDON2_STATE,
  MSM_SCALARS,
  PAGE_TIMEOUT_MS,
  FIELD_A,
  FIELD_B,
  GRIND_OBSERVED,
  GRIND_BITS,
  WHIR_VARIABLES,
} from './inputs.js';
import { deadline, errorReport, merkleReport, startReport } from './page.js';

/**
 * Create a prover with `options` (undefined: the defaults, i.e. the package's own worker), run
 * one dft, one Poseidon2 permutation and one MSM, and publish the results on window.__consumer
 * as plain JSON (numbers, hex strings) for the test to read. `msm: false` skips the MSM, whose
 * pipelines take SwiftShader ~13 s to compile per page (the app-started-worker pages leave it out
 * to keep CI under its budget: the default pages already carry noble points across the worker).
 * `all` (the page's `?all=1`) also runs every other kernel family once (Merkle, batchField, grind,
 * WHIR): the page whose downloads the Merkle-only page (merkle.js) is compared with.
 */
export async function runChecks(label, options, { msm = true, all = new URLSearchParams(location.search).get('all') === '1' } = {}) {
  const { report, step } = startReport(label);
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

    if (!msm) {
      step('done');
      return report;
    }
    step('msm');
    const G = bn254.G1.Point.BASE;
    const sum = await deadline(prover.msm([G, G.double()], MSM_SCALARS.map(BigInt)), PAGE_TIMEOUT_MS, 'msm');
    // The worker sends the point back packed; it must arrive as a Point of this app's noble.
    report.msmIsNoblePoint = sum instanceof bn254.G1.Point;
    const a = sum.toAffine();
    report.msm = sum.is0() ? null : { x: a.x.toString(16), y: a.y.toString(16) };
    if (all) await everyOtherFamily(prover, report, step);
    step('done');
  } catch (e) {
    report.error = errorReport(e);
    // A prover must answer the next call after a failed one (e.g. a family's chunk that did not load).
    if (prover) {
      step('dft after the error');
      report.afterError = await deadline(
        prover.dft(Uint32Array.from(DFT_VALUES), { width: DFT_WIDTH }),
        PAGE_TIMEOUT_MS,
        'dft after the error',
      ).then(Array.from, errorReport);
    }
  } finally {
    prover?.destroy();
    report.finished = true;
  }
  return report;
}

/** Merkle (commit, open, verify), batchField, grind and WHIR: with the above, every kernel family. */
async function everyOtherFamily(prover, report, step) {
  step('merkle');
  report.merkle = await merkleReport(prover);

  step('batchField');
  report.field = Array.from(
    await deadline(prover.batchField('mul', Uint32Array.from(FIELD_A), Uint32Array.from(FIELD_B)), PAGE_TIMEOUT_MS, 'batchField'),
  );

  step('grind');
  const challenger = new DuplexChallenger();
  challenger.observeSlice(GRIND_OBSERVED);
  report.grind = await deadline(prover.grind(challenger, GRIND_BITS), PAGE_TIMEOUT_MS, 'grind');

  step('whir');
  // Low security and proof-of-work: one round and cheap grinding (SwiftShader took 14-30 s at the defaults).
  const whir = prover.whir({ numVariables: WHIR_VARIABLES, foldingFactor: 4, startingLogInvRate: 1, securityLevel: 32, powBits: 4 });
  const table = Uint32Array.from({ length: 2 ** WHIR_VARIABLES }, (_, i) => i * 7 + 1);
  const committed = await deadline(whir.commit(table), PAGE_TIMEOUT_MS, 'whir commit');
  const opening = await deadline(whir.open(committed.handle), PAGE_TIMEOUT_MS, 'whir open');
  report.whirVerified = (await whir.verify(committed.root, opening)).ok;
}
