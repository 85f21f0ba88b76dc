// The Node consumer: a plain ESM script that imports the installed tarball, as a server-side or
// CLI user would. This machine's Node has no WebGPU (no navigator.gpu, and the 'webgpu' package is
// not installed here), so createProver() must reject with NO_WEBGPU and a message that says how
// to fix it in Node; the CPU-side exports must work from the same import. It only reports, as
// JSON on stdout; test/e2e/consumers.spec.ts compares with Plonky3's vectors.
// Usage: node check.mjs vectors.json   (one Merkle opening and one challenger script)
import { readFileSync } from 'node:fs';
import * as pkg from 'webgpu-prover';

const vectors = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = { exports: Object.keys(pkg).sort(), resolved: import.meta.resolve('webgpu-prover') };

// createProver() with the defaults: in Node that is the in-thread prover on navigator.gpu.
try {
  const prover = await pkg.createProver();
  out.createProver = { resolved: true, adapter: prover.info.adapter };
  prover.destroy();
} catch (e) {
  out.createProver = {
    resolved: false,
    isProverError: e instanceof pkg.ProverError && pkg.isProverError(e),
    code: e?.code,
    name: e?.name,
    message: String(e?.message ?? e),
  };
}

// verifyMerklePath: Plonky3's opening verifies; the same opening with one row value changed does not.
const { root, index, row, proof } = vectors.merkle;
out.merkleValid = pkg.verifyMerklePath(root, index, row, proof);
out.merkleTampered = pkg.verifyMerklePath(
  root,
  index,
  row.map((v, i) => (i === 0 ? (v + 1) % pkg.babybear.BB_P : v)),
  proof,
);

// DuplexChallenger: replay Plonky3's script; one result per step (null for observe).
const ch = new pkg.DuplexChallenger();
out.challenger = vectors.challenger.script.map((step) => {
  const [op, arg] = Object.entries(step)[0];
  if (op === 'observe') {
    ch.observeSlice(arg);
    return null;
  }
  if (op === 'sample') return Array.from({ length: arg }, () => ch.sample());
  if (op === 'sample_bits') return ch.sampleBits(arg);
  if (op === 'sample_ext') return Array.from({ length: arg }, () => ch.sampleExt());
  throw new Error(`unknown challenger step ${op}`);
});

console.log(JSON.stringify(out));
