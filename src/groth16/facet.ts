/**
 * The groth16 family's facets: `prover.groth16(zkey)` on the GPU path (gpu-key.ts) and on the CPU
 * path (cpu-key.ts), each loaded on the family's first call (src/lazy.ts).
 * @module
 */
import type { ApiEnv } from '../api/env.js';
import type { CpuEnv } from '../cpu/env.js';
import { openCpuKey } from './cpu-key.js';
import { openGpuKey } from './gpu-key.js';
import type { Groth16Methods } from './key.js';

export function gpuGroth16Methods(env: ApiEnv): Groth16Methods {
  return { groth16: (zkey, job) => openGpuKey(env, zkey, job) };
}

export function cpuGroth16Methods(env: CpuEnv): Groth16Methods {
  return { groth16: (zkey, job) => openCpuKey(env, zkey, job) };
}
