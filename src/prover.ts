/**
 * The Prover object in this thread: the owner of one GPU device and everything built on it.
 * Public methods come from facets in src/api/ (one file per kernel family). Every method is
 * async and takes plain data, so src/worker/ serves the same surface from a Web Worker;
 * createProver() (src/create-prover.ts) picks the worker or this.
 * @module
 */
import { ProverError } from './errors.js';
export type { ProverOptions, GpuEntryPoint, GpuPowerPreference } from './options.js';
import { requireProverOptions, type ProverOptions } from './options.js';
import { GpuContext } from './gpu/context.js';
import type { PoolStats } from './gpu/buffer-pool.js';
import type { ApiEnv } from './api/env.js';
import { Scheduler, type JobStats } from './sched/scheduler.js';
import { fieldMethods, type FieldMethods } from './api/field.js';
import { msmMethods, type MsmMethods } from './api/msm.js';
import { nttMethods, type NttMethods } from './api/ntt.js';
import { poseidon2Methods, type Poseidon2Methods } from './api/poseidon2.js';
import { merkleMethods, type MerkleMethods } from './api/merkle.js';
import { grindMethods, type GrindMethods } from './api/grind.js';
import { commitMethods, type CommitMethods } from './api/commit.js';
import { withRecovery, type DeviceProver } from './device-recovery.js';
import { warmUp } from './kernels/warm-up.js';
import type { CompileStats } from './gpu/pipeline-cache.js';
import type { WarmUpFamily } from './warm-up-families.js';

export interface ProverInfo {
  adapter: string;
  timestampQuery: boolean;
  subgroups: boolean;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeWorkgroupStorageSize: number;
  /** threads a workgroup may have (the smaller of maxComputeInvocationsPerWorkgroup and maxComputeWorkgroupSizeX) */
  maxWorkgroupThreads: number;
  /** true when the prover runs in a Web Worker (createProver's `worker` option) */
  worker: boolean;
}

export interface ProverCore {
  readonly info: ProverInfo;
  /** GPU memory held by the prover's buffer pool, compiled pipelines, job counts (this device's), devices lost and recreated. */
  stats(): PoolStats & { pipelines: number; compiled: CompileStats; jobs: JobStats; deviceLosses: number };
  /** Compile the pipelines of `families` (default: all) now, in parallel; resolves when they are ready (src/kernels/warm-up.ts). */
  warmUp(families?: readonly WarmUpFamily[]): Promise<void>;
  /**
   * Resolves with the reason when the prover's first device is lost. The prover then recreates
   * its device on the next call (the job the loss interrupted runs again once); handles made on
   * the lost device fail with DEVICE_LOST.
   */
  readonly lost: Promise<string>;
  /** Free every GPU resource; later calls fail with DESTROYED. */
  destroy(): void;
}

export type Prover = ProverCore & FieldMethods & NttMethods & Poseidon2Methods & MerkleMethods & GrindMethods & CommitMethods & MsmMethods;

/**
 * A prover in this thread (what createProver({ worker: false }) returns, and what the worker
 * runs): one device's prover, recreated on a new device when that one is lost (withRecovery).
 * @throws ProverError NO_WEBGPU with a message saying what to do, INVALID_ARGUMENT for bad options
 */
export async function createLocalProver(options?: ProverOptions): Promise<Prover> {
  const opts = requireProverOptions(options);
  return withRecovery(() => deviceProver(opts));
}

/** The prover of one device: its facets over one GpuContext and Scheduler. */
export async function deviceProver(opts: ProverOptions): Promise<DeviceProver> {
  // A GpuEntryPoint is a GPU as far as the caller's type checker can tell (requireProverOptions).
  const gpu = (opts.gpu as GPU | undefined) ?? (globalThis.navigator as Navigator | undefined)?.gpu;
  const ctx = await GpuContext.create(gpu, opts);
  let destroyed = false;
  const sched = new Scheduler(ctx);
  const env: ApiEnv = {
    ctx,
    sched,
    alive() {
      if (destroyed) throw new ProverError('DESTROYED', 'This prover was destroyed; call createProver() again.');
    },
  };
  const core: ProverCore = {
    info: {
      adapter: ctx.description,
      timestampQuery: ctx.features.timestamps,
      subgroups: ctx.features.subgroups,
      maxStorageBufferBindingSize: ctx.limits.maxStorageBufferBindingSize,
      maxBufferSize: ctx.limits.maxBufferSize,
      maxComputeWorkgroupStorageSize: ctx.limits.maxComputeWorkgroupStorageSize,
      maxWorkgroupThreads: ctx.workgroup.threads,
      worker: false,
    },
    stats: () => ({ ...ctx.pool.stats(), pipelines: ctx.pipelines.size, compiled: ctx.pipelines.stats(), jobs: sched.stats(), deviceLosses: 0 }),
    warmUp: (families) => warmUp(ctx, families),
    lost: ctx.device.lost.then((i) => `${i.reason}: ${i.message}`),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      ctx.destroy();
    },
  };
  const prover = { ...core, ...fieldMethods(env), ...nttMethods(env), ...poseidon2Methods(env), ...merkleMethods(env), ...grindMethods(env), ...commitMethods(env), ...msmMethods(env) };
  // createProver({ warmUp }): compile in the background; a job meanwhile awaits the same pipelines, and reports any failure.
  if (opts.warmUp) warmUp(ctx, opts.warmUp === true ? undefined : opts.warmUp).catch(() => {});
  return { prover, ctx };
}
