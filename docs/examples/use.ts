// A tour of the API, runnable: docs/usage.md's code block is this file from the marker on
// (test/unit/readme-example.test.ts keeps them equal), and the dev page's `readme-check` mode
// runs it in Chromium in CI, checking what it returns against src/ref and noble. The README's
// short first call is first-call.ts.
import { bn254 } from '@noble/curves/bn254.js';
import { createProver as createProverFromPackage, DuplexChallenger, verifyMerklePath } from '../../src/index.js';

export async function useExample(createProver: typeof createProverFromPackage) {
  // --- README ---
  const prover = await createProver({ fallback: 'cpu' });  // browser: runs in its own Web Worker (docs/worker.md);
  // without WebGPU, fallback: 'cpu' runs every job on the CPU references (same results, slower;
  // prover.info.backend says 'cpu'); leave it out to get NO_WEBGPU instead.
  // { worker: false } runs it in the page's thread; { worker: myWorker } uses a worker you started
  // from 'webgpu-prover/worker' (for bundlers that do not follow workers inside dependencies).
  // Node: import { create, globals } from 'webgpu'; Object.assign(globalThis, globals);
  //       const prover = await createProver({ gpu: create([]) });  (the prover keeps it alive)
  const a = Uint32Array.from([1, 2, 3, 4]), b = Uint32Array.from([5, 6, 7, 2013265920]);
  const c = await prover.batchField('mul', a, b);         // canonical BabyBear values in and out
  const G = bn254.G1.Point.BASE;
  const q = await prover.msm([G, G.double()], [2n, 3n]);  // BN254 G1 (noble points or 64-byte packed), equals @noble/curves
  const trace = Uint32Array.from({ length: 16 * 8 }, (_, i) => i); // 16 rows x 8 columns, row-major
  const lde = await prover.lde(trace, { width: 8, addedBits: 1, shift: 31 }); // = Plonky3 coset_lde_batch (also dft, idft, encode)
  const out = await prover.poseidon2(new Uint32Array(16), { width: 16 }); // Plonky3 Poseidon2, k·16 values
  const { root, tree } = await prover.merkleCommit(trace, { width: 8 }); // Plonky3 MerkleTreeMmcs root
  const { row, siblings } = await tree.open(5);
  const ok = verifyMerklePath(root, 5, row, siblings, { width: 8, height: 16 }); // false for any tampered opening
  const m = await prover.lde(trace, { width: 8, addedBits: 1, shift: 31, bitReversedOutput: true, gpu: true });
  const pcs = await prover.merkleCommit(m);               // an NttMatrix commits in place (no round trip);
  m.destroy();                                            //   the tree keeps its rows until pcs.tree.dispose()
  const challenger = new DuplexChallenger();
  challenger.observeSlice(pcs.root);
  const w = await prover.grind(challenger, 8);            // DuplexChallenger PoW: smallest witness, challenger advanced
  const c2 = await prover.commit(trace, { width: 8, addedBits: 1 }); // encode + Merkle commit in one GPU submission
  const ctl = new AbortController();                      // every job takes { signal, onProgress }: in its options,
  const big = prover.lde(trace, {                         //   or as a last argument where it has none
    width: 8, addedBits: 1, shift: 31, signal: ctl.signal,
    onProgress: (p) => console.log(p.job, p.stage, `${p.done}/${p.total}`),
  });
  ctl.abort();
  const aborted = await big.catch((e) => e.name);         // 'AbortError' (a ProverError with code ABORTED)
  const checked = await prover.dft(trace, { width: 8, check: 'full' }); // results are spot-checked against the CPU
  // references ('sample', the default; 'full' recomputes all, 'off' skips): a wrong one throws
  // CHECK_FAILED and its family moves to the CPU (docs/checks.md), as does one failing its self-check.
  const paths = prover.capabilities();                    // { ntt: { path: 'gpu' }, msm: { path: 'gpu' }, ... }
  const jobs = prover.stats().jobs;                       // { queued, run, failed, aborted }
  tree.dispose(); pcs.tree.dispose(); c2.tree.dispose();
  prover.destroy();
  // --- end ---
  return { c, q, lde, out, root, ok, pcsRoot: pcs.root, w, c2Root: c2.root, aborted, jobs, checked, paths };
}
