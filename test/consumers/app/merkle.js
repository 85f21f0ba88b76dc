// The Merkle-only consumer page (issue 23, "pay for what you import"): an app that only commits a
// matrix and checks one opening. It must download the Merkle family's WGSL and not the NTT's or the
// MSM's; test/e2e/consumers.spec.ts compares the bytes it fetched with the every-family page's.
import { createProver, verifyMerklePath, isProverError } from 'webgpu-prover';
import { MERKLE_INDEX, MERKLE_VALUES, MERKLE_WIDTH, PAGE_TIMEOUT_MS } from './inputs.js';

async function main() {
  const report = { label: 'merkle only', finished: false, steps: [] };
  window.__consumer = report;
  const step = (name) => report.steps.push({ name, t: Math.round(performance.now()) });
  let prover;
  try {
    step('createProver');
    prover = await createProver();
    report.worker = prover.info.worker;
    step('merkle');
    const values = Uint32Array.from(MERKLE_VALUES);
    const height = values.length / MERKLE_WIDTH;
    const timer = setTimeout(() => { report.error = { code: null, name: 'Timeout', message: 'merkle did not settle' }; report.finished = true; }, PAGE_TIMEOUT_MS);
    const { root, tree } = await prover.merkleCommit(values, { width: MERKLE_WIDTH });
    const { row, siblings } = await tree.open(MERKLE_INDEX);
    clearTimeout(timer);
    const shape = { width: MERKLE_WIDTH, height };
    const tampered = Uint32Array.from(row);
    tampered[0] = (tampered[0] + 1) % 2013265921;
    report.merkle = {
      root: Array.from(root), row: Array.from(row), siblings: siblings.map((s) => Array.from(s)),
      verified: verifyMerklePath(root, MERKLE_INDEX, row, siblings, shape),
      tamperedVerified: verifyMerklePath(root, MERKLE_INDEX, tampered, siblings, shape),
    };
    tree.dispose();
    step('done');
  } catch (e) {
    report.error = { code: isProverError(e) ? e.code : null, name: e?.name ?? null, message: String(e?.message ?? e) };
  } finally {
    prover?.destroy();
    report.finished = true;
}
}

main();
