// Autorun mode `groth16-bench`: the committed circom fixtures (`&cases=a,b`, default all four)
// proved on this page's prover and by snarkjs 0.7.6 in the same page (its browser build, its own
// wasm and web workers): the browser's own column beside the GPU's. `&reps=` (default 5) per side;
// each row posts both medians and their ratio, and the GPU's proof is verified before it counts.
import type { ModeContext } from '../autorun.js';
import { outputVerifies, verifyingKeyFromJson } from '../../src/groth16/proof-check.js';

const FIXTURES = ['multiplier-chain', 'range-check', 'poseidon-hash', 'merkle-inclusion'];

async function bytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function medianMs(reps: number, f: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)];
}

export async function groth16Bench({ prover, params, report }: ModeContext): Promise<void> {
  const base = params.get('base') ?? '/fixtures/groth16/';
  const reps = Number(params.get('reps') ?? 5);
  const cases = (params.get('cases') ?? FIXTURES.join(',')).split(',').filter(Boolean);
  // snarkjs's browser build: loaded only by this mode.
  const snarkjs = (await import('snarkjs')) as unknown as {
    groth16: { prove(zkey: Uint8Array, wtns: Uint8Array): Promise<unknown> };
  };
  for (const name of cases) {
    const t0 = performance.now();
    const zkey = await bytes(`${base}${name}.zkey`);
    const wtns = await bytes(`${base}${name}.wtns`);
    const key = await prover.groth16(zkey);
    try {
      const out = await key.prove(wtns);
      const ok = outputVerifies(verifyingKeyFromJson(key.verificationKey()), out);
      const gpuMs = await medianMs(reps, () => key.prove(wtns));
      await snarkjs.groth16.prove(zkey, wtns); // its wasm and workers started
      const snarkjsMs = await medianMs(reps, () => snarkjs.groth16.prove(zkey, wtns));
      const s = key.stats();
      report(`groth16 ${name} (2^${Math.log2(s.domainSize)})`, ok ? 'info' : 'fail', performance.now() - t0, {
        detail: `this prover ${gpuMs.toFixed(1)} ms (default checks), snarkjs in this page ${snarkjsMs.toFixed(1)} ms: ${(snarkjsMs / gpuMs).toFixed(2)}x`,
        gpuMs,
        snarkjsMs,
        ratio: snarkjsMs / gpuMs,
        ...s,
      });
    } finally {
      key.destroy();
    }
  }
}
