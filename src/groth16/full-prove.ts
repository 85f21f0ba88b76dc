/// <reference path="./circom-runtime.d.ts" />
/**
 * `prover.groth16FullProve(input, wasm, zkey)`, as snarkjs's `groth16.fullProve`: the witness from
 * circom's own calculator (the circom_runtime package snarkjs uses, loaded on the first call: it
 * brings ffjavascript, ~0.2 MB a page that never calls this does not download), then the key made,
 * one proof, the key freed. A caller proving many times with one zkey keeps `prover.groth16(zkey)`
 * and calls `key.prove(witness)` instead: the zkey is read and uploaded once.
 * @module
 */
import { isProverError, ProverError } from '../errors.js';
import { loadPart } from '../lazy.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { asBytes } from './binfile.js';
import type { CircuitInput, FileBytes, Groth16Methods, Groth16Output } from './key.js';

export interface Groth16FullProve {
  /**
   * The witness of `input` from the circuit's `wasm` (circom's witness calculator), then a proof
   * with `zkey`: exactly snarkjs.groth16.fullProve's result.
   * @throws ProverError INVALID_ARGUMENT (input signals missing or unknown, a wasm that is not circom's), UNSATISFIED (an assertion of the circuit fails for this input), and what groth16() and prove() throw
   * @example const { proof, publicSignals } = await prover.groth16FullProve({ a: 3, b: 11 }, wasmBytes, zkeyBytes);
   */
  groth16FullProve(input: CircuitInput, wasm: FileBytes, zkey: FileBytes, job?: JobOptions): Promise<Groth16Output>;
}

/** The `.wtns` bytes of `input` for the circuit `wasm`. */
export async function computeWitness(input: CircuitInput, wasm: FileBytes): Promise<Uint8Array> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ProverError('INVALID_ARGUMENT', "input must be an object of the circuit's input signals, e.g. { a: 3, b: 11 }");
  }
  const code = asBytes(wasm, 'wasm');
  const { WitnessCalculatorBuilder } = await loadPart("circom's witness calculator (circom_runtime)", () => import('circom_runtime'));
  let calculator;
  try {
    calculator = await WitnessCalculatorBuilder(code);
  } catch (e) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `wasm: not a circom witness calculator (${String((e as Error)?.message ?? e)}); pass the <circuit>_js/<circuit>.wasm circom wrote`,
      { cause: e },
    );
  }
  try {
    return await calculator.calculateWTNSBin(input, true);
  } catch (e) {
    if (isProverError(e)) throw e;
    const message = String((e as Error)?.message ?? e);
    // circom's `assert` and `===` fail inside the calculator: the input has no satisfying witness.
    const code = /assert/i.test(message) ? 'UNSATISFIED' : 'INVALID_ARGUMENT';
    throw new ProverError(code, `circom's witness calculator refused the input: ${message}`, { cause: e });
  }
}

/** fullProve over a prover's groth16 (the family router's, so the key takes its family's path and checks). */
export async function fullProve(
  prover: Groth16Methods,
  input: CircuitInput,
  wasm: FileBytes,
  zkey: FileBytes,
  jobIn?: JobOptions,
): Promise<Groth16Output> {
  const job = requireJobOptions('groth16FullProve job options', jobIn);
  const witness = await computeWitness(input, wasm);
  const key = await prover.groth16(zkey, job);
  try {
    return await key.prove(witness, job);
  } finally {
    key.destroy();
  }
}
