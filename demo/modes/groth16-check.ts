// Autorun mode `groth16-check`: snarkjs zkeys and circom witnesses proved on this page's prover (its
// GPU path; with &fallback=cpu its CPU path), each proof verified here against its key, and
// attached to its row (proof, publicSignals, verification key) so test/e2e/groth16.spec.ts verifies
// it with snarkjs itself. `&cases=a,b` names the circuits (default: the committed fixtures),
// `&base=URL` where their files are (<name>.zkey, .wtns, .input.json; .wasm for fullProve when
// `&wasm=a,b` lists them). Then the refusals: a witness that breaks a constraint, bad files.
import type { ModeContext } from '../autorun.js';
import { checkGroth16Case, checkGroth16Errors, type Groth16Files } from '../../bench/support/groth16-check.js';

const FIXTURES = ['multiplier-chain', 'poseidon-hash', 'range-check', 'merkle-inclusion'];

async function bytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

export async function groth16Check({ prover, params, report }: ModeContext): Promise<void> {
  const base = params.get('base') ?? '/fixtures/groth16/';
  const cases = (params.get('cases') ?? FIXTURES.join(',')).split(',').filter(Boolean);
  const withWasm = new Set((params.get('wasm') ?? '').split(',').filter(Boolean));
  let first: Groth16Files | undefined;
  for (const name of cases) {
    const files: Groth16Files = {
      name,
      zkey: await bytes(`${base}${name}.zkey`),
      wtns: await bytes(`${base}${name}.wtns`),
      input: (await (await fetch(`${base}${name}.input.json`)).json()) as Record<string, unknown>,
      wasm: withWasm.has(name) ? await bytes(`${base}${name}.wasm`) : undefined,
    };
    first ??= files;
    for (const r of await checkGroth16Case(prover, files)) report(r.step, r.ok ? 'ok' : 'fail', r.ms, r.extra);
  }
  if (first) for (const r of await checkGroth16Errors(prover, first)) report(r.step, r.ok ? 'ok' : 'fail', r.ms, r.extra);
  // The proofs above came from the path this page asked for (a family moved to the CPU would still verify).
  const want = prover.info.backend === 'cpu' ? 'cpu' : 'gpu';
  const path = prover.capabilities().groth16;
  report(`groth16 ran on the ${want} path`, path.path === want ? 'ok' : 'fail', 0, { detail: JSON.stringify(path) });
}
