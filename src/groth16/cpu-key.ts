/**
 * The Groth16 key on the CPU path (fallback: 'cpu', or the family moved there by a failed check):
 * the same zkey reading, witness checks and JSON as the GPU path, the proof made by cpu-prove.ts
 * (bigint QAP stage, noble's pippenger) as one job on the CPU queue.
 * @module
 */
import { ProverError } from '../errors.js';
import type { CpuEnv } from '../cpu/env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { readZkey } from './zkey.js';
import { cpuProve } from './cpu-prove.js';
import { proofToJson, publicSignals, verificationKey } from './proof-json.js';
import { keyStats, requireWitness, type FileBytes, type Groth16Key } from './key.js';

/** prover.groth16(zkey) on the CPU path. */
export async function openCpuKey(env: CpuEnv, zkeyBytes: FileBytes, jobIn?: JobOptions): Promise<Groth16Key> {
  env.alive();
  const job = requireJobOptions('groth16 job options', jobIn);
  const zkey = await env.sched.run('groth16 key', job, async () => readZkey(zkeyBytes));
  let vk: ReturnType<typeof verificationKey> | undefined; // made when first asked for (a pairing: gpu-key.ts)
  let destroyed = false;
  return {
    async prove(witness, proveJob) {
      env.alive();
      if (destroyed) throw new ProverError('DESTROYED', 'this Groth16 key was destroyed; call prover.groth16(zkey) again');
      const job = requireJobOptions('prove job options', proveJob);
      const w = requireWitness(witness, zkey);
      const { proof } = await env.sched.run('groth16 prove', job, async () => cpuProve(zkey, w));
      return { proof: proofToJson(proof), publicSignals: publicSignals(w, zkey.nPublic) };
    },
    verificationKey: () => structuredClone((vk ??= verificationKey(zkey))),
    stats: () => keyStats(zkey, 0),
    destroy() {
      destroyed = true;
    },
  };
}
