/**
 * Groth16 checks a page (or Node) runs on a prover: one circuit's proofs from its `.wtns`, from its
 * witness as bigints and (with its wasm) through groth16FullProve, each verified against the key
 * and carried in its row (proof, publicSignals, verification key) for snarkjs to verify too; and
 * the refusals: a witness that breaks a constraint (UNSATISFIED), bad zkeys and witnesses, the key
 * usable after them.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { isProverError } from '../../src/errors.js';
import { FR_R } from '../../src/params/bn254-fr.js';
import { readWtns, witnessToBigints } from '../../src/groth16/wtns.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { outputVerifies, verifyingKeyFromJson } from '../../src/groth16/proof-check.js';
import type { Groth16Key, Groth16Output } from '../../src/groth16/key.js';

export interface Groth16Files {
  name: string;
  zkey: Uint8Array;
  wtns: Uint8Array;
  input: Record<string, unknown>;
  wasm?: Uint8Array;
}

export interface Groth16Row {
  step: string;
  ok: boolean;
  ms: number;
  extra: Record<string, unknown>;
}

async function row(step: string, f: () => Promise<{ ok: boolean; extra: Record<string, unknown> }>): Promise<Groth16Row> {
  const t0 = performance.now();
  try {
    const { ok, extra } = await f();
    return { step, ok, ms: performance.now() - t0, extra };
  } catch (e) {
    return {
      step,
      ok: false,
      ms: performance.now() - t0,
      extra: { detail: `threw ${isProverError(e) ? `${e.code}: ` : ''}${String((e as Error)?.message ?? e)}` },
    };
  }
}

/** A proof's row: verified against `key`, its public signals the witness's, and the JSON snarkjs needs. */
function proofRow(key: Groth16Key, out: Groth16Output, publics: readonly bigint[]): { ok: boolean; extra: Record<string, unknown> } {
  const vk = key.verificationKey();
  const verifies = outputVerifies(verifyingKeyFromJson(vk), out);
  const same = out.publicSignals.length === publics.length && out.publicSignals.every((s, i) => s === publics[i].toString());
  return {
    ok: verifies && same,
    extra: {
      detail: `verifies: ${verifies}; public signals ${same ? 'are' : 'are NOT'} the witness's`,
      proof: out.proof,
      publicSignals: out.publicSignals,
      vk,
    },
  };
}

export async function checkGroth16Case(prover: Prover, f: Groth16Files): Promise<Groth16Row[]> {
  const witness = witnessToBigints(readWtns(f.wtns));
  const rows: Groth16Row[] = [];
  let key: Groth16Key | undefined;
  rows.push(
    await row(`${f.name}: key`, async () => {
      key = await prover.groth16(f.zkey);
      const s = key.stats();
      return { ok: s.nVars === witness.length, extra: { detail: JSON.stringify(s), stats: s } };
    }),
  );
  if (!key) return rows;
  const k = key;
  const publics = witness.slice(1, 1 + k.stats().nPublic);
  try {
    rows.push(await row(`${f.name}: prove from .wtns`, async () => proofRow(k, await k.prove(f.wtns), publics)));
    rows.push(await row(`${f.name}: prove from bigint[]`, async () => proofRow(k, await k.prove(witness), publics)));
  } finally {
    k.destroy();
  }
  if (f.wasm) {
    const wasm = f.wasm;
    rows.push(
      await row(`${f.name}: groth16FullProve`, async () => proofRow(k, await prover.groth16FullProve(f.input, wasm, f.zkey), publics)),
    );
  }
  return rows;
}

/** The ProverError code `p` rejects with, or what it did instead. */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isProverError(e) ? e.code : `threw ${String(e)}`;
  }
}

/**
 * The witness with every private signal raised by 1: it breaks the circuit's multiplications (one
 * signal changed may not: a bit b with b·(b − 1) = 0 as its only constraint can flip and stay valid).
 */
function brokenWitness(zkey: Uint8Array, witness: readonly bigint[]): bigint[] {
  const { nPublic } = readZkey(zkey);
  return witness.map((v, i) => (i > nPublic ? (v + 1n) % FR_R : v));
}

export async function checkGroth16Errors(prover: Prover, f: Groth16Files): Promise<Groth16Row[]> {
  const witness = witnessToBigints(readWtns(f.wtns));
  const key = await prover.groth16(f.zkey);
  const expect = (step: string, want: string, p: () => Promise<unknown>) =>
    row(`groth16 ${step}: ${want}`, async () => {
      const got = await codeOf(p());
      return { ok: got === want, extra: { detail: got } };
    });
  try {
    return [
      await expect('witness breaking a constraint', 'UNSATISFIED', () => key.prove(brokenWitness(f.zkey, witness))),
      await expect('truncated zkey', 'INVALID_LENGTH', () => prover.groth16(f.zkey.subarray(0, f.zkey.length - 100))),
      await expect('a .wtns as the zkey', 'INVALID_ARGUMENT', () => prover.groth16(f.wtns)),
      await expect('witness one value short', 'INVALID_LENGTH', () => key.prove(witness.slice(0, -1))),
      await expect('witness value >= r', 'NON_CANONICAL', () => key.prove([...witness.slice(0, -1), FR_R])),
      await expect('witness[0] != 1', 'INVALID_ARGUMENT', () => key.prove([2n, ...witness.slice(1)])),
      await row('groth16 key usable after errors', async () => {
        const out = await key.prove(f.wtns);
        return {
          ok: outputVerifies(verifyingKeyFromJson(key.verificationKey()), out),
          extra: { detail: 'a proof after the refusals verifies' },
        };
      }),
      await expect('destroyed key', 'DESTROYED', () => {
        key.destroy();
        return key.prove(f.wtns);
      }),
    ];
  } finally {
    key.destroy();
  }
}
