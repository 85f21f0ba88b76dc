// What every consumer page shares (checks.js, merkle.js), written as an app would and importing
// nothing but the package: the Merkle-only page must not pull in noble or another family's code.
import { isProverError, verifyMerklePath } from 'webgpu-prover';
import { MERKLE_INDEX, MERKLE_VALUES, MERKLE_WIDTH, PAGE_TIMEOUT_MS } from './inputs.js';

/** Reject after `ms` so a prover that never answers (e.g. its worker failed to load) shows up. */
export function deadline(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The page's report, published on window.__consumer as it fills, and a logger of its steps. */
export function startReport(label) {
  const report = { label, finished: false, steps: [] };
  window.__consumer = report;
  const step = (name) => report.steps.push({ name, t: Math.round(performance.now()) });
  return { report, step };
}

/** A thrown value as plain JSON for the test. */
export function errorReport(e) {
  return { code: isProverError(e) ? e.code : null, name: e?.name ?? null, message: String(e?.message ?? e) };
}

/** Commit MERKLE_VALUES, open row MERKLE_INDEX, and verify it (and the same row with one value changed). */
export async function merkleReport(prover) {
  const values = Uint32Array.from(MERKLE_VALUES);
  const { root, tree } = await deadline(prover.merkleCommit(values, { width: MERKLE_WIDTH }), PAGE_TIMEOUT_MS, 'merkleCommit');
  const { row, siblings } = await deadline(tree.open(MERKLE_INDEX), PAGE_TIMEOUT_MS, 'open');
  tree.dispose();
  const shape = { width: MERKLE_WIDTH, height: values.length / MERKLE_WIDTH };
  const tampered = Uint32Array.from(row);
  tampered[0] = (tampered[0] + 1) % 2013265921;
  return {
    root: Array.from(root),
    row: Array.from(row),
    siblings: siblings.map((s) => Array.from(s)),
    verified: verifyMerklePath(root, MERKLE_INDEX, row, siblings, shape),
    tamperedVerified: verifyMerklePath(root, MERKLE_INDEX, tampered, siblings, shape),
  };
}
