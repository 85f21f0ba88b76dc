// Autorun mode `readme-check`: runs the README's first call (docs/examples/first-call.ts) and the
// tour in docs/usage.md (docs/examples/use.ts) as written, with the default createProver (a Web
// Worker in the page), and checks what they computed against src/ref and noble.
import type { ModeContext } from '../autorun.js';
import { bn254 } from '@noble/curves/bn254.js';
import { createProver, DuplexChallenger } from '../../src/index.js';
import { useExample } from '../../docs/examples/use.js';
import { firstCall } from '../../docs/examples/first-call.js';
import * as ref from '../../src/ref/ntt.js';
import { bbMul } from '../../src/field/babybear.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { merkleTree } from '../../src/ref/merkle.js';

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

export async function readmeCheck({ report }: ModeContext): Promise<void> {
  const t0 = performance.now();
  const first = await firstCall(createProver);
  const r = await useExample(createProver);
  const trace = Uint32Array.from({ length: 16 * 8 }, (_, i) => i);
  const a = Uint32Array.from([1, 2, 3, 4]),
    b = Uint32Array.from([5, 6, 7, 2013265920]);
  const lde = ref.cosetLde(trace, 8, 1, 31);
  const pcsRoot = merkleTree([{ values: ref.bitReverseRows(lde, 8), width: 8 }]).root;
  const ch = new DuplexChallenger();
  ch.observeSlice(pcsRoot);
  const checks: [string, boolean][] = [
    ['first call: lde', same(first.lde, lde)],
    ['first call: root', same(first.root, merkleTree([{ values: lde, width: 8 }]).root)],
    ['first call: msm = 8G', first.q.equals(bn254.G1.Point.BASE.multiply(8n))],
    ['first call on the GPU', first.backend === 'webgpu'],
    [
      'batchField mul',
      same(
        r.c,
        Array.from(a, (v, i) => bbMul(v, b[i])),
      ),
    ],
    ['msm = 8G', r.q.equals(bn254.G1.Point.BASE.multiply(8n))],
    ['lde = coset_lde_batch', same(r.lde, lde)],
    ['poseidon2', same(r.out, poseidon2(new Uint32Array(16)))],
    ['merkleCommit root', same(r.root, merkleTree([{ values: trace, width: 8 }]).root)],
    ['opening verifies', r.ok === true],
    ['NttMatrix committed in place', same(r.pcsRoot, pcsRoot)],
    ['grind witness', ch.clone().checkWitness(8, r.w)],
    ['commit root', same(r.c2Root, merkleTree([{ values: ref.encode(trace, 8, 1), width: 8 }]).root)],
    ['abort', r.aborted === 'AbortError'],
    ['dft checked in full', same(r.checked, ref.dft(trace, 8))],
    ['every family on the GPU', Object.values(r.paths).every((f) => f.path === 'gpu')],
  ];
  const bad = checks.filter(([, ok]) => !ok).map(([n]) => n);
  report('README examples run as written', bad.length ? 'fail' : 'ok', performance.now() - t0, {
    detail: bad.length ? `wrong: ${bad.join(', ')}` : `${checks.length} results equal src/ref and noble`,
  });
}
