// The README's "First call", runnable: the README's code block is this file's imports (from the
// package) and its body between the markers (test/unit/readme-example.test.ts keeps them equal),
// and the dev page's `readme-check` mode runs it in Chromium in CI, checking what it returns
// against src/ref and noble. The tour of every method is use.ts (docs/usage.md shows it).
import { bn254 } from '@noble/curves/bn254.js';
import type { createProver as createProverFromPackage } from '../../src/index.js';

export async function firstCall(createProver: typeof createProverFromPackage) {
  // --- README ---
  const prover = await createProver({ fallback: 'cpu' }); // WebGPU in a Web Worker; the CPU where there is none
  const trace = Uint32Array.from({ length: 16 * 8 }, (_, i) => i); // 16 rows x 8 columns of BabyBear values
  const lde = await prover.lde(trace, { width: 8, addedBits: 1, shift: 31 }); // = Plonky3 coset_lde_batch
  const { root } = await prover.merkleCommit(lde, { width: 8 }); // = Plonky3 MerkleTreeMmcs: 8 values
  const G = bn254.G1.Point.BASE;
  const q = await prover.msm([G, G.double()], [2n, 3n]); // BN254 G1: 2·G + 3·2G, as @noble/curves
  console.log(prover.info.backend, root, q.equals(G.multiply(8n))); // 'webgpu' Uint32Array(8) true
  prover.destroy();
  // --- end ---
  return { lde, root, q, backend: prover.info.backend };
}
