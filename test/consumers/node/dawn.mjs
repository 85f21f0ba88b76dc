// The Node + Dawn consumer: a plain ESM script that imports the installed tarball and Dawn's
// 'webgpu' package, as a server-side user would, and runs on the GPU (not in CI: Dawn over this
// machine's SwiftShader aborts when the JS thread is busy, see ../shared/DESIGN.md; it runs on
// the GPU machine). It runs an lde, a Merkle commit with one opening verified by verifyMerklePath,
// and an MSM of noble points built by this script's own @noble/curves, and compares each with the
// answers in expected.json (computed from the repo's src/ref and noble by
// test/consumers/node/layout-dawn.ts, never by the package). Prints one JSON line; exit 1 on a mismatch.
// Usage (docs/portability.md): node dawn.mjs expected.json
// (WEBGPU_FALLBACK=1 asks for Dawn's fallback adapter: SwiftShader, for a smoke run without a GPU.)
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';
import { bn254 } from '@noble/curves/bn254.js';
import { createProver, verifyMerklePath } from 'webgpu-prover';

Object.assign(globalThis, globals);
const expected = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const out = { resolved: import.meta.resolve('webgpu-prover'), results: {} };
const prover = await createProver({ gpu: create([]), ...(process.env.WEBGPU_FALLBACK === '1' ? { forceFallbackAdapter: true } : {}) });
try {
  out.adapter = prover.info.adapter;
  out.worker = prover.info.worker;

  const { lde } = expected;
  const got = await prover.lde(Uint32Array.from(lde.values), { width: lde.width, addedBits: lde.addedBits, shift: lde.shift });
  out.results.lde = equal(Array.from(got), lde.out);

  const { merkle } = expected;
  const { root, tree } = await prover.merkleCommit(Uint32Array.from(merkle.values), { width: merkle.width });
  const opening = await tree.open(merkle.index);
  tree.dispose();
  const shape = { width: merkle.width, height: merkle.values.length / merkle.width };
  const tampered = Uint32Array.from(opening.row, (v, i) => (i === 0 ? (v + 1) % 2013265921 : v));
  out.results.merkleRoot = equal(Array.from(root), merkle.root);
  out.results.merkleVerified = verifyMerklePath(root, merkle.index, opening.row, opening.siblings, shape) === true;
  out.results.merkleTamperedRefused = verifyMerklePath(root, merkle.index, tampered, opening.siblings, shape) === false;

  const { msm } = expected;
  const G = bn254.G1.Point.BASE;
  const points = msm.multiples.map((k) => G.multiply(BigInt(k)));
  const sum = await prover.msm(points, msm.scalars.map(BigInt));
  const a = sum.toAffine();
  out.results.msm = sum instanceof bn254.G1.Point && a.x.toString(16) === msm.x && a.y.toString(16) === msm.y;
} finally {
  prover.destroy();
}
out.ok = Object.values(out.results).every(Boolean);
console.log(JSON.stringify(out));
process.exit(out.ok ? 0 : 1);
