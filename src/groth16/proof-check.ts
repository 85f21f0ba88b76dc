/**
 * The run-time check of a GPU proof (docs/checks.md): with `check` not 'off', every proof is
 * verified against its key (verify.ts: one multi-pairing, ~15 ms on a 2-core machine, about half
 * of it made while the GPU computed the proof: early-check.ts) before it is returned. A proof that
 * does not verify has two possible causes, told apart by the CPU path: the same witness proved
 * there (cpu-prove.ts) and verified too. If that proof fails as well, the
 * witness breaks a constraint (UNSATISFIED: a zkey holds no C matrix, so only the proof can show
 * it); if it verifies, the GPU erred (the caller's check then moves the family to the CPU).
 * @module
 */
import { ProverError } from '../errors.js';
import {
  proofFromJson,
  publicSignalsFromJson,
  g1FromJson,
  g2FromJson,
  type Groth16Proof,
  type SnarkjsVerificationKey,
} from './proof-json.js';
import { cPart, verifyGroth16, type EarlyParts, type Groth16VerifyingKey } from './verify.js';
import { earlyParts } from './early-check.js';
import type { Groth16Key, Groth16Output, Groth16Witness } from './key.js';

/** The verifier's points from snarkjs's verification key JSON (made by this package: well formed). */
export function verifyingKeyFromJson(vk: SnarkjsVerificationKey): Groth16VerifyingKey {
  const g1 = (j: unknown) => g1FromJson(j)!;
  const g2 = (j: unknown) => g2FromJson(j)!;
  return { alpha1: g1(vk.vk_alpha_1), beta2: g2(vk.vk_beta_2), gamma2: g2(vk.vk_gamma_2), delta2: g2(vk.vk_delta_2), ic: vk.IC.map(g1) };
}

/**
 * Each key's verifier points, made once: noble keeps a G2 point's pairing precomputation with the
 * point, so the same β2, γ2 and δ2 objects proof after proof halve the check (poseidon-hash on the
 * VM: 62 ms a proof with the points parsed again, 29 ms with them kept). A GPU key registers its
 * zkey's own points as it is made (registerVerifyingKey); any other key's come from its JSON.
 */
const verifyingKeys = new WeakMap<Groth16Key, Groth16VerifyingKey>();

/** `vk` as `key`'s verifier points (the zkey it was read from). */
export function registerVerifyingKey(key: Groth16Key, vk: Groth16VerifyingKey): void {
  verifyingKeys.set(key, vk);
}

/** `key`'s verifier points: registered, or read from its verification key JSON once. */
export function verifyingKeyOf(key: Groth16Key): Groth16VerifyingKey {
  let vk = verifyingKeys.get(key);
  if (!vk) verifyingKeys.set(key, (vk = verifyingKeyFromJson(key.verificationKey())));
  return vk;
}

/** `out`'s proof points and public signals; undefined for malformed JSON. */
function parseOutput(out: Groth16Output): { proof: Groth16Proof; publics: bigint[] } | undefined {
  const proof = proofFromJson(out.proof);
  const publics = publicSignalsFromJson(out.publicSignals);
  return proof === undefined || publics === undefined ? undefined : { proof, publics };
}

/** Whether `out` verifies under `vk` (malformed JSON does not); `early`: parts of its check made ahead (early-check.ts). */
export function outputVerifies(vk: Groth16VerifyingKey, out: Groth16Output, early?: EarlyParts): boolean {
  const parsed = parseOutput(out);
  return parsed !== undefined && verifyGroth16(vk, parsed.publics, parsed.proof, early);
}

/**
 * outputVerifies with the parts of the check made during the proof (early-check.ts), if any: πC's
 * part is made here while the check thread may still be finishing πA and πB's.
 */
async function verifiesWithEarlyParts(vk: Groth16VerifyingKey, out: Groth16Output): Promise<boolean> {
  const parsed = parseOutput(out);
  const early = earlyParts(out);
  if (parsed === undefined || early === undefined) return outputVerifies(vk, out);
  const c = cPart(vk, parsed.proof.c);
  return verifyGroth16(vk, parsed.publics, parsed.proof, { ...(await early), c });
}

/**
 * undefined when `out` (a GPU proof for `witness` with `key`) verifies; else what was wrong with
 * it, once the CPU path (`cpuKey`: a key of the same zkey there) has shown the witness is good.
 * @throws ProverError UNSATISFIED when the CPU path's proof does not verify either
 */
export async function checkGroth16Proof(
  key: Groth16Key,
  witness: Groth16Witness,
  out: Groth16Output,
  cpuKey: () => Promise<Groth16Key>,
): Promise<string | undefined> {
  const vk = verifyingKeyOf(key);
  if (await verifiesWithEarlyParts(vk, out)) return undefined;
  const cpu = await cpuKey();
  try {
    if (!outputVerifies(vk, await cpu.prove(witness, { check: 'off' }))) {
      throw new ProverError(
        'UNSATISFIED',
        "the witness does not satisfy the circuit: its proof does not verify (on the GPU and on the CPU); compute the witness again with the circuit's own wasm from an input its constraints accept",
      );
    }
  } finally {
    cpu.destroy();
  }
  return 'a proof that does not verify (the CPU path proves the same witness correctly)';
}
