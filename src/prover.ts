/**
 * The Prover object in this thread: the owner of one GPU device and everything built on it.
 * Public methods come from facets in src/api/ (one file per kernel family). Every method is
 * async and takes plain data, so src/worker/ serves the same surface from a Web Worker;
 * createProver() (src/create-prover.ts) picks the worker or this.
 * @module
 */
import type { CheckThreadState } from './checks/check-thread-state.js';
import { isProverError, ProverError } from './errors.js';
import { grantedLimits, type LimitName } from './gpu/limits.js';
export type { ProverOptions, GpuEntryPoint, GpuPowerPreference } from './options.js';
import { requireProverOptions, type ProverOptions } from './options.js';
import { GpuContext } from './gpu/context.js';
import type { PoolStats } from './gpu/buffer-pool.js';
import type { ApiEnv } from './api/env.js';
import { Scheduler, type JobStats } from './sched/scheduler.js';
import type { FieldMethods } from './api/field.js';
import type { MsmMethods } from './api/msm.js';
import type { NttMethods } from './api/ntt.js';
import type { Poseidon2Methods } from './api/poseidon2.js';
import type { MerkleMethods } from './api/merkle.js';
import type { GrindMethods } from './api/grind.js';
import type { CommitMethods } from './api/commit.js';
import type { WhirMethods } from './whir/whir.js';
import type { Groth16Methods } from './groth16/key.js';
import type { Groth16FullProve } from './groth16/full-prove.js';
import type { Whir } from './whir/facade.js';
import type { WhirOptions } from './whir/options.js';
import { withRecovery, type DeviceProver } from './device-recovery.js';
import { METHOD_FAMILY, type Family, type FamilyMethod } from './methods.js';
import { routeFamilies } from './families.js';
import { cpuProver } from './cpu/prover.js';
import { lazyFamilies, loadPart } from './lazy.js';
import {
  callTransfers,
  firstCallRequests,
  msmCallPoints,
  nttCallSpec,
  poseidon2CallSpec,
  type FirstCall,
  type Groth16Shape,
} from './kernels/first-call.js';
import { RING_MIN_BYTES } from './gpu/staging.js';
import { KNOWN_MSM_POINTS, knownNttSpecs } from './checks/known-jobs.js';
import type { CompileStats } from './gpu/pipeline-cache.js';
import { requireWarmUpFamilies, type WarmUpFamily } from './warm-up-families.js';

export interface ProverInfo {
  adapter: string;
  timestampQuery: boolean;
  subgroups: boolean;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeWorkgroupStorageSize: number;
  /** threads a workgroup may have (the smaller of maxComputeInvocationsPerWorkgroup and maxComputeWorkgroupSizeX) */
  maxWorkgroupThreads: number;
  /**
   * Every limit a job reads, as the device granted it (createProver's `limits` option decides what
   * was asked for: with 'default', WebGPU's defaults). Empty on the CPU backend.
   */
  limits: Readonly<Partial<Record<LimitName, number>>>;
  /**
   * The device's features, sorted: 'timestamp-query' and 'subgroups' are requested (and then used)
   * only with limits 'adapter' where the adapter has them; 'core-features-and-limits' is WebGPU
   * core itself. Empty on the CPU backend.
   */
  features: readonly string[];
  /** true when the prover runs in a Web Worker (createProver's `worker` option) */
  worker: boolean;
  /** 'webgpu', or 'cpu' when createProver({ fallback: 'cpu' }) found no WebGPU (every family on the CPU). */
  backend: 'webgpu' | 'cpu';
}

/** What one path's prover counts. */
export type BackendStats = PoolStats & {
  pipelines: number;
  compiled: CompileStats;
  jobs: JobStats;
  deviceLosses: number;
  /** Host-visible bytes of the staging ring (src/gpu/staging.ts): up to 4 x 16 MiB each way, after transfers of 1 MiB or more (in Node all four at the first); 0 before. */
  stagingBytes: number;
  /** Runs by engine where a family has more than one: the MSM's 'msm quick' (while the walker's pipelines compile) and 'msm walker'. */
  engineRuns: Record<string, number>;
};

/** Run-time checks of GPU results: how many ran, their CPU and GPU time together, how many found a wrong result. */
export interface CheckStats {
  run: number;
  ms: number;
  failed: number;
  /**
   * The check thread, where a checked WHIR open or Groth16 proof has its verification started while
   * the GPU works (docs/checks.md): 'running', 'unavailable' (its tasks run in the prover's thread),
   * or 'not started' before the first such job.
   */
  thread: CheckThreadState;
}

/** Where a family's jobs run: the GPU, or the CPU references (reason: why, when moved there). */
export interface FamilyPath {
  path: 'gpu' | 'cpu';
  reason?: string;
}

/** Each kernel family's path (prover.capabilities()). */
export type Capabilities = Record<Family, FamilyPath>;

export interface ProverCore {
  readonly info: ProverInfo;
  /**
   * GPU memory held by the prover's buffer pool, compiled pipelines (and what compiling them
   * cost), job counts (this device's), devices lost and recreated, and the run-time checks run
   * (docs/checks.md).
   */
  stats(): BackendStats & { checks: CheckStats };
  /** Compile the pipelines of `families` (default: all) now, in parallel; resolves when they are ready (src/kernels/warm-up.ts). */
  warmUp(families?: readonly WarmUpFamily[]): Promise<void>;
  /**
   * Resolves with the reason when the prover's first device is lost. The prover then recreates
   * its device on the next call (the job the loss interrupted runs again once); handles made on
   * the lost device fail with DEVICE_LOST.
   */
  readonly lost: Promise<string>;
  /**
   * Where each family runs now: 'gpu', or 'cpu' with the reason (the self-check or a run-time
   * check found a wrong GPU result, or no WebGPU with `fallback: 'cpu'`).
   */
  capabilities(): Capabilities;
  /** Free every GPU resource; later calls fail with DESTROYED. */
  destroy(): void;
}

/** The protocols built on the kernels (WHIR): they run where the prover runs, on its job methods. */
export interface ProtocolMethods extends WhirMethods, Groth16FullProve {
  /**
   * A WHIR polynomial commitment configured by `options` (docs/whir.md): schedule(), commit(evals),
   * open(handle), verify(root, proof). Proofs verify with Plonky3's p3-whir 0.9.0-rc.2.
   * @throws ProverError INVALID_ARGUMENT (the message names p3-whir's configuration error)
   * @example const whir = prover.whir({ numVariables: 20, foldingFactor: 4, startingLogInvRate: 1 });
   */
  whir(options: WhirOptions): Whir;
}

export type Prover = ProverCore &
  FieldMethods &
  NttMethods &
  Poseidon2Methods &
  MerkleMethods &
  GrindMethods &
  CommitMethods &
  MsmMethods &
  Groth16Methods &
  ProtocolMethods;

/** The job methods alone (what the self-check and the run-time checks call). */
export type Jobs = Pick<Prover, FamilyMethod>;

/** One path's prover (the GPU's, or the CPU's) before the family router (src/families.ts) joins them. */
export type Backend = Omit<Prover, 'capabilities' | 'stats' | keyof ProtocolMethods> & {
  stats(): BackendStats;
  /**
   * Compile what a family's first call (`method` with `args`) and, with `selfCheck`, its self-check
   * will need, in one wave (src/kernels/first-call.ts); resolves once they are requested (not
   * compiled); never rejects. `done` settles with the call: compiles for later calls wait for it.
   */
  prefetch?(method: FamilyMethod, args: readonly unknown[], selfCheck: boolean, done?: Promise<unknown>): Promise<void> | void;
};

/**
 * A prover in this thread (what createProver({ worker: false }) returns, and what the worker
 * runs): the GPU path (one device's prover, recreated on a new device when that one is lost:
 * withRecovery) and the CPU path, joined family by family (routeFamilies).
 * @throws ProverError NO_WEBGPU with a message saying what to do, INVALID_ARGUMENT for bad options
 */
export async function createLocalProver(options?: ProverOptions): Promise<Prover> {
  const opts = requireProverOptions(options);
  let gpu: Backend | undefined;
  let noGpu: string | undefined;
  try {
    gpu = await withRecovery(() => deviceProver(opts));
  } catch (e) {
    if (!isProverError(e) || e.code !== 'NO_WEBGPU') throw e;
    if (opts.fallback !== 'cpu') {
      const end = /[.!?]$/.test(e.message) ? '' : '.';
      throw new ProverError(
        'NO_WEBGPU',
        `${e.message}${end} Or pass { fallback: 'cpu' } to run every job on the CPU instead (same results, much slower).`,
        { cause: e.cause },
      );
    }
    noGpu = e.message;
  }
  return routeFamilies(gpu, cpuProver(), { check: opts.check ?? 'sample', selfCheck: opts.selfCheck ?? true }, noGpu);
}

/**
 * Each family's GPU facet, imported on the family's first job (src/lazy.ts): a page that only
 * commits with Merkle never downloads the MSM's host code or noble's curve.
 */
const GPU_FACETS: Record<Family, (env: ApiEnv) => Promise<object>> = {
  field: (env) => import('./api/field.js').then((m) => m.fieldMethods(env)),
  ntt: (env) => import('./api/ntt.js').then((m) => m.nttMethods(env)),
  poseidon2: (env) => import('./api/poseidon2.js').then((m) => m.poseidon2Methods(env)),
  merkle: (env) => import('./api/merkle.js').then((m) => m.merkleMethods(env)),
  grind: (env) => import('./api/grind.js').then((m) => m.grindMethods(env)),
  commit: (env) => import('./api/commit.js').then((m) => m.commitMethods(env)),
  msm: (env) => import('./api/msm.js').then((m) => m.msmMethods(env)),
  groth16: (env) => import('./groth16/facet.js').then((m) => m.gpuGroth16Methods(env)),
};

/** The zkeys a first groth16 call and its self-check will prove with, by their headers (none for other methods). */
async function groth16Shapes(method: FamilyMethod, args: readonly unknown[], selfCheck: boolean): Promise<Groth16Shape[]> {
  if (method !== 'groth16') return [];
  const [{ zkeyShape }, known] = await Promise.all([
    import('./groth16/zkey.js'),
    selfCheck ? import('./checks/known-answer.js').then((m) => m.knownGroth16()) : undefined,
  ]);
  return [args[0], known?.zkey].map(zkeyShape).filter((s): s is Groth16Shape => s !== undefined);
}

/** Compile pipelines ahead (kernels/warm-up.ts plans every family's jobs, so it loads on the first warmUp). */
async function warmUp(ctx: GpuContext, families?: readonly WarmUpFamily[]): Promise<void> {
  const checked = requireWarmUpFamilies(families);
  const m = await loadPart("webgpu-prover's warm-up code", () => import('./kernels/warm-up.js'));
  return m.warmUp(ctx, checked);
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
  const core: Omit<Backend, FamilyMethod> = {
    info: {
      adapter: ctx.description,
      timestampQuery: ctx.features.timestamps,
      subgroups: ctx.features.subgroups,
      maxStorageBufferBindingSize: ctx.limits.maxStorageBufferBindingSize,
      maxBufferSize: ctx.limits.maxBufferSize,
      maxComputeWorkgroupStorageSize: ctx.limits.maxComputeWorkgroupStorageSize,
      maxWorkgroupThreads: ctx.workgroup.threads,
      limits: grantedLimits(ctx.device),
      features: [...ctx.device.features].sort(),
      worker: false,
      backend: 'webgpu',
    },
    stats: () => ({
      ...ctx.pool.stats(),
      pipelines: ctx.pipelines.size,
      compiled: ctx.pipelines.stats(),
      jobs: sched.stats(),
      deviceLosses: 0,
      stagingBytes: ctx.staging.bytes,
      engineRuns: { ...ctx.engineRuns },
    }),
    warmUp: (families) => warmUp(ctx, families),
    prefetch(method, args, selfCheck, done) {
      if (done) ctx.pipelines.holdBackground(done);
      const ntt = nttCallSpec(method, args);
      // The staging slots its transfers will take, made while it waits for its compiles.
      const moves = callTransfers(method, args, ntt);
      ctx.staging.prepare(moves.up >= RING_MIN_BYTES, moves.down >= RING_MIN_BYTES);
      const points = msmCallPoints(args);
      // The self-check's jobs (checks/known-answer.ts runs them through the API), read as the
      // call's are. Without the self-check their pipelines are not needed: requested anyway, a
      // first dft 2^12 with selfCheck: false compiled 7 pipelines for its 4 and waited behind
      // them (SwiftShader: 3.65 s against 2.35 s; bench/gpu-calls.ts). The ntt, commit and
      // poseidon2 families' are shaped after the call (checks/known-jobs.ts): they add no
      // pipeline to it.
      const family = METHOD_FAMILY[method];
      const known = selfCheck ? knownNttSpecs(family, ntt) : [];
      const p2 = poseidon2CallSpec(method, args); // none understood: both BabyBear widths
      const call: FirstCall = {
        poseidon2: p2 ? [p2] : [],
        ntt: [...known, ...(ntt ? [ntt] : [])],
        msmPoints: [...(selfCheck ? [KNOWN_MSM_POINTS] : []), ...(points && (method === 'msm' || method === 'msmBases') ? [points] : [])],
      };
      return groth16Shapes(method, args, selfCheck)
        .then((groth16) => firstCallRequests(ctx, family, { ...call, groth16 }))
        .then((r) => ctx.pipelines.request(r))
        .catch(() => {
          // A failed compile is reported by the job that needs the pipeline (the cache retries it).
        });
    },
    lost: ctx.device.lost.then((i) => `${i.reason}: ${i.message}`),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      ctx.destroy();
    },
  };
  const prover = { ...core, ...lazyFamilies(env, GPU_FACETS, 'GPU') } as unknown as Backend;
  // createProver({ warmUp }): compile in the background; a job meanwhile awaits the same pipelines, and reports any failure.
  if (opts.warmUp) warmUp(ctx, opts.warmUp === true ? undefined : opts.warmUp).catch(() => {});
  return { prover, ctx, sched };
}
