/**
 * webgpu-prover: zero-knowledge proving kernels on the user's own GPU through WebGPU.
 *
 *   import { createProver } from 'webgpu-prover';
 *   const prover = await createProver();            // navigator.gpu, or { gpu: create([]) } in Node
 *   const c = await prover.batchField('mul', a, b); // canonical BabyBear values in, out
 *   prover.destroy();
 * @module
 */
export { createProver } from './create-prover.js';
export type { Prover, ProverInfo, BackendStats, CheckStats, Capabilities, FamilyPath } from './prover.js';
export type { CheckThreadState } from './checks/check-thread-state.js';
export type { Family } from './methods.js';
export type { JobOptions, JobProgress, CheckMode } from './sched/job.js';
export type { JobStats } from './sched/scheduler.js';
export type { ProverOptions, GpuEntryPoint, GpuPowerPreference } from './options.js';
export type { LimitName, LimitOverrides, LimitsOption } from './gpu/limits.js';
export { ProverError, isProverError, type ProverErrorCode } from './errors.js';
export type { FieldOp } from './kernels/field.js';
export type { FieldJobOptions } from './api/field.js';
export type { FieldName } from './params/fields.js';
export type { NttMatrix, NttOptions, NttExtendOptions, NttLdeOptions, NttResult } from './api/ntt.js';
export type { PoolStats } from './gpu/buffer-pool.js';
export type { CompileStats } from './gpu/pipeline-cache.js';
export type { WarmUpFamily } from './warm-up-families.js';
export type { Poseidon2Options } from './api/poseidon2.js';
export type { MerkleTree, MerkleOpening } from './api/merkle.js';
export type { MsmBases, MsmBasesStats, MsmOptions, MsmPoints, MsmScalars, MsmRunInfo, ScalarEndian, G1Point } from './api/msm.js';
export type { MsmPlan, MsmTuning } from './kernels/msm/plan.js';
export type { Engine as MsmEngine } from './kernels/msm/engines.js';
export type { ProfileReport, PassTime } from './gpu/profiler.js';
export { DuplexChallenger } from './ref/challenger.js';
export { verifyMerklePath, type MerkleVerifyOptions } from './api/verify.js';
export type { Poseidon2Constants, Poseidon2Width } from './params/poseidon2.js';
export * as babybear from './params/babybear.js';
export type { Whir } from './whir/facade.js';
export type { WhirCommitment, WhirOpening, WhirOpenOptions } from './whir/whir.js';
export type { Ext4Like } from './whir/open-options.js';
export type { WhirOptions } from './whir/options.js';
export type { WhirSchedule, WhirRoundSchedule, WhirParameters, SoundnessAssumption, FoldingFactorSpec } from './whir/schedule.js';
export type { PcsProof as WhirProof, WhirProof as WhirProofBody, WhirRoundProof, SumcheckData, QueryOpenings } from './whir/proof.js';
export type { WhirVerdict } from './whir/verifier.js';
export { serializeProof, parseProof, proofToJson, rootToJson, parseRoot } from './whir/proof-json.js';
export type {
  CircuitInput,
  FileBytes,
  Groth16Key,
  Groth16KeyStats,
  Groth16Methods,
  Groth16Output,
  Groth16Proof,
  Groth16VerificationKey,
  Groth16Witness,
} from './groth16/key.js';
export type { Groth16FullProve } from './groth16/full-prove.js';
