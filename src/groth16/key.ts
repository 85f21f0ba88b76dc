/**
 * The Groth16 facet's public shapes: `prover.groth16(zkey)` reads, checks and uploads a snarkjs
 * `.zkey` once and returns a key; `key.prove(witness)` returns exactly what snarkjs's
 * `groth16.prove` / `fullProve` return. One GPU path (gpu-key.ts) and one CPU path (cpu-key.ts)
 * implement it; the family router checks every GPU proof (checked-key.ts).
 * @module
 */
import { ProverError } from '../errors.js';
import type { JobOptions } from '../sched/job.js';
import type { SnarkjsProof, SnarkjsVerificationKey } from './proof-json.js';
import { readWtns, witnessFromBigints, type WitnessWords } from './wtns.js';
import type { Groth16Zkey } from './zkey.js';

export type { SnarkjsProof as Groth16Proof, SnarkjsVerificationKey as Groth16VerificationKey } from './proof-json.js';

/** A file's bytes: a `.zkey`, a `.wtns`, a circuit's `.wasm`. */
export type FileBytes = Uint8Array | ArrayBuffer;

/** A witness: circom's `.wtns` bytes, or its values as bigints (w[0] = 1, then the public signals, then the rest). */
export type Groth16Witness = FileBytes | readonly bigint[];

/** What `prove` returns: snarkjs's JSON, so `snarkjs.groth16.verify(vk, publicSignals, proof)` takes it as it is. */
export interface Groth16Output {
  proof: SnarkjsProof;
  /** The public signals (witness values 1..nPublic: outputs, then public inputs) as decimal strings. */
  publicSignals: string[];
}

/** What a key holds and where. */
export interface Groth16KeyStats {
  /** Signals of the circuit, the constant 1 included. */
  nVars: number;
  nPublic: number;
  /** Points of the evaluation domain: a power of two ≥ constraints + public signals + 1. */
  domainSize: number;
  /** Nonzero entries of the A and B matrices. */
  coefficients: number;
  /** GPU bytes the key holds (points, coefficients, NTT tables); 0 on the CPU path. */
  gpuBytes: number;
}

export interface Groth16Key {
  /**
   * A proof for `witness`, made on the GPU, verified against the key (unless `check: 'off'`), with
   * fresh blinding from crypto.getRandomValues.
   * @throws ProverError INVALID_LENGTH (not the circuit's number of signals), NON_CANONICAL (a value ≥ r), INVALID_ARGUMENT (not a witness), UNSATISFIED (the witness breaks a constraint), DESTROYED, ABORTED, DEVICE_LOST, GPU_ERROR, CHECK_FAILED
   */
  prove(witness: Groth16Witness, job?: JobOptions): Promise<Groth16Output>;
  /** snarkjs's verification key (`snarkjs zkey export verificationkey`), for snarkjs.groth16.verify or a Solidity verifier. */
  verificationKey(): SnarkjsVerificationKey;
  stats(): Groth16KeyStats;
  /** Free the key's GPU memory; later calls fail with DESTROYED. */
  destroy(): void;
}

/** The circuit's input signals, as snarkjs's fullProve takes them: names to numbers, bigints, decimal strings, or nested arrays of them. */
export type CircuitInput = Record<string, unknown>;

export interface Groth16Methods {
  /**
   * Read a snarkjs Groth16 `.zkey` (bn128), check it, and upload its points and coefficients once.
   * @throws ProverError INVALID_ARGUMENT (not a Groth16 zkey over bn128), INVALID_LENGTH (a truncated or inconsistent section, named), NON_CANONICAL / NOT_ON_CURVE (a bad point), TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const key = await prover.groth16(zkeyBytes); const { proof, publicSignals } = await key.prove(wtnsBytes);
   */
  groth16(zkey: FileBytes, job?: JobOptions): Promise<Groth16Key>;
}

/** The witness as checked words, for a key of `zkey`'s shape. */
export function requireWitness(witness: unknown, zkey: Pick<Groth16Zkey, 'nVars'>): WitnessWords {
  const w = Array.isArray(witness) ? witnessFromBigints(witness as bigint[]) : readWtns(witness as FileBytes);
  if (w.count !== zkey.nVars) {
    throw new ProverError(
      'INVALID_LENGTH',
      `the witness has ${w.count} values but the circuit has ${zkey.nVars} signals; compute it with this circuit's wasm`,
    );
  }
  return w;
}

/** The stats every path reports from the zkey alone. */
export function keyStats(zkey: Groth16Zkey, gpuBytes: number): Groth16KeyStats {
  return { nVars: zkey.nVars, nPublic: zkey.nPublic, domainSize: zkey.domainSize, coefficients: zkey.coefficients.count, gpuBytes };
}
