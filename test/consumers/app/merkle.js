// The Merkle-only consumer page (issue 23, "pay for what you import"): an app that only commits a
// matrix and checks one opening. It must download the Merkle family's WGSL and not the NTT's or the
// MSM's; test/e2e/consumers.spec.ts compares the bytes it fetched with the every-family page's.
import { createProver } from 'webgpu-prover';
import { PAGE_TIMEOUT_MS } from './inputs.js';
import { deadline, errorReport, merkleReport, startReport } from './page.js';

async function main() {
  const { report, step } = startReport('merkle only');
  let prover;
  try {
    step('createProver');
    prover = await deadline(createProver(), PAGE_TIMEOUT_MS, 'createProver()');
    report.worker = prover.info.worker;
    step('merkle');
    report.merkle = await merkleReport(prover);
    step('done');
  } catch (e) {
    report.error = errorReport(e);
  } finally {
    prover?.destroy();
    report.finished = true;
  }
}

main();
