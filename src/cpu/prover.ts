/**
 * The CPU path as a whole prover: every family on src/ref and @noble/curves, with the GPU
 * path's validation, codes, handles, AbortSignal and progress. The family router
 * (src/families.ts) sends a family here when its GPU results were wrong, and every family when
 * createProver({ fallback: 'cpu' }) found no WebGPU.
 * @module
 */
import { ProverError } from '../errors.js';
import { Scheduler } from '../sched/scheduler.js';
import type { Backend } from '../prover.js';
import { CpuQueue } from './queue.js';
import type { CpuEnv } from './env.js';
import { lazyFamilies } from '../lazy.js';
import type { Family } from '../methods.js';

/**
 * Each family's CPU facet, imported on the family's first job there (its self-check runs one):
 * the MSM's brings noble's pippenger, which a page without MSMs never downloads.
 */
const CPU_FACETS: Record<Family, (env: CpuEnv) => Promise<object>> = {
  field: (env) => import('./field.js').then((m) => m.cpuFieldMethods(env)),
  ntt: (env) => import('./ntt.js').then((m) => m.cpuNttMethods(env)),
  poseidon2: (env) => import('./hash.js').then((m) => m.cpuHashMethods(env)),
  merkle: (env) => import('./hash.js').then((m) => m.cpuHashMethods(env)),
  grind: (env) => import('./hash.js').then((m) => m.cpuHashMethods(env)),
  commit: (env) => import('./hash.js').then((m) => m.cpuHashMethods(env)),
  msm: (env) => import('./msm.js').then((m) => m.cpuMsmMethods(env)),
  groth16: (env) => import('../groth16/facet.js').then((m) => m.cpuGroth16Methods(env)),
};

/** What ProverInfo says of the CPU path (no device: its limits are the API's own). */
export const CPU_INFO = {
  adapter: 'CPU (webgpu-prover src/ref, @noble/curves)',
  timestampQuery: false,
  subgroups: false,
  maxStorageBufferBindingSize: 0,
  maxBufferSize: 0,
  maxComputeWorkgroupStorageSize: 0,
  maxWorkgroupThreads: 0,
  limits: {},
  features: [],
  worker: false,
  backend: 'cpu',
} as const;

export function cpuProver(): Backend {
  let destroyed = false;
  const sched = new Scheduler(new CpuQueue());
  const env: CpuEnv = {
    sched,
    alive() {
      if (destroyed) throw new ProverError('DESTROYED', 'This prover was destroyed; call createProver() again.');
    },
  };
  return {
    info: { ...CPU_INFO },
    stats: () => ({
      bytesHeld: 0,
      bytesInUse: 0,
      peakBytesInUse: 0,
      buffers: 0,
      pipelines: 0,
      compiled: { modules: 0, wgslChars: 0, pipelines: 0, pipelineMs: 0 },
      jobs: sched.stats(),
      deviceLosses: 0,
      stagingBytes: 0,
      engineRuns: {},
    }),
    warmUp: async () => {},
    lost: new Promise<string>(() => {}),
    destroy() {
      destroyed = true;
    },
    ...lazyFamilies(env, CPU_FACETS, 'CPU'),
  } as unknown as Backend;
}
