/**
 * GpuContext: one device with its buffer pool and pipeline cache, plus the two things every
 * kernel host needs: moving Uint32Arrays on and off the GPU, and running a job inside error
 * scopes so a validation or out-of-memory error becomes a ProverError instead of a silent
 * wrong answer. Device loss flips `lost` and every later job fails with DEVICE_LOST.
 * @module
 */
import { isProverError, ProverError } from '../errors.js';
import { acquireDevice, type DeviceFeatures, type DeviceOptions } from './device.js';
import { BufferPool } from './buffer-pool.js';
import { PipelineCache } from './pipeline-cache.js';
import { CHUNK_BYTES, RING_MIN_BYTES, StagingRing, type AfterChunk, type ReadTarget } from './staging.js';
import { detectRuntime } from './runtime.js';

/** How long a job that failed with a raw WebGPU error waits for device.lost before reporting that error as is. */
const LOSS_GRACE_MS = 250;

/** Usage of buffers that kernels read and write and the host fills and reads back. */
export function storageUsage(): GPUBufferUsageFlags {
  // Read at call time: in Node, Dawn's GPUBufferUsage global appears only after setup.
  return GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
}

/** The constant uniform holding `words`, from `cache` or made once and kept there (key: the words). */
export function cachedUniform(ctx: GpuContext, cache: Map<string, GPUBuffer>, words: Uint32Array, label: string): GPUBuffer {
  const key = words.join(',');
  let buf = cache.get(key);
  if (!buf) {
    buf = ctx.constantBuffer(words, GPUBufferUsage.UNIFORM, `${label} ${key}`);
    cache.set(key, buf);
  }
  return buf;
}

/**
 * The running job as the GPU context sees it (src/sched/job.ts implements it): checked at every
 * submission and readback, where an aborted job stops and progress is reported.
 */
export interface JobHooks {
  checkpoint(stage: string): void;
  /** A progress event at the current step, without a boundary (e.g. 'compiling' while a pipeline compiles). */
  report?(stage: string): void;
  /** Announce this many more checkpoints (a loop of submissions). */
  expect(steps: number): void;
  /** A submission of this job, submitted at `submittedAt`, finished on the GPU at `doneAt` (performance.now()). */
  gpuDone?(stage: string, submittedAt: number, doneAt: number): void;
}

/** A workgroup's limits: threads (1-D: the smaller of maxComputeInvocationsPerWorkgroup and maxComputeWorkgroupSizeX) and workgroup-memory bytes. */
export interface WorkgroupLimits {
  threads: number;
  tileBytes: number;
}

/** The runtime this module was loaded in: transfers and timing differ between them (below). */
const RUNTIME = detectRuntime().kind;

/**
 * Large uploads take the staging ring in Node, where Dawn runs in the process: 5-6 GB/s against
 * ~1.2 for writeBuffer on the H100's host (bench/RESULTS.md, host arrays). In a browser every
 * mapAsync is a round trip to the GPU process, and headless Chromium measured the opposite:
 * writeBuffer 1.7-6.0 GB/s at 1-16 MB against 0.04-2.8 through the ring (transfer-bench; a 1 MB
 * upload took 28 ms through the ring, 0.6 ms by writeBuffer), so uploads there use writeBuffer.
 * Readbacks use the ring everywhere (into the caller's array it was the faster path in both).
 * Deno reports a Node version too but is not Node: its `getMappedRange` copies the whole mapped
 * range into a JS array first, and wgpu places MAP_WRITE buffers in device memory the CPU reads
 * over PCIe (docs/portability.md), so there uploads take writeBuffer.
 */
export const RING_UPLOADS = RUNTIME === 'node';

/**
 * Whether each submission asks for its own onSubmittedWorkDone (the job's per-stage GPU times).
 * Deno answers one by blocking its thread until the device is idle and then sleeping 10 ms, which
 * would put every submission's GPU time between the host's steps; there a job is timed as a whole.
 */
const TIME_EACH_SUBMISSION = RUNTIME !== 'deno';

/**
 * Whether large reads take the staging ring's 16 MiB chunks. Under Deno every map costs at least
 * 11 ms (the same wait), 44 ms for a 64 MB result in chunks: there one map of the whole result.
 */
const RING_READBACKS = RUNTIME !== 'deno';

export class GpuContext {
  lost = false;
  lostMessage = '';
  /** Set by destroy(): later jobs fail with DESTROYED, not with the DEVICE_LOST the destroyed device reports. */
  private destroyed = false;
  /** The job running now (jobs run one at a time), set by the scheduler. */
  job: JobHooks | undefined;
  /** Reused host-visible buffers for large uploads and readbacks (staging.ts). */
  readonly staging: StagingRing;
  /** Whether large uploads take the staging ring (RING_UPLOADS: in Node, not in a browser). */
  readonly ringUploads = RING_UPLOADS;
  /** Runs by engine, for a family with more than one ('msm quick', 'msm walker': kernels/msm/engines.ts). */
  readonly engineRuns: Record<string, number> = {};

  private constructor(
    /**
     * The WebGPU entry point the caller passed, held for the context's life. In Node it is
     * Dawn's instance (`create([])` from 'webgpu'): if nothing referenced it, the next garbage
     * collection would destroy the instance under our live device and abort the process
     * ("pthread_mutex_lock ... assertion failed", exit 134). Holding it here is what lets a
     * caller write `createProver({ gpu: create([]) })` without keeping `gpu` themselves.
     */
    readonly gpu: GPU,
    /** The adapter the device came from, held for the same reason: the caller gave us both, and Dawn's objects must not die before the device does. */
    readonly adapter: GPUAdapter,
    readonly device: GPUDevice,
    readonly features: DeviceFeatures,
    readonly description: string,
    readonly pool: BufferPool,
    readonly pipelines: PipelineCache,
  ) {
    // Slots made ahead where uploads take the ring (Node): measured there (bench/RESULTS.md, cold).
    this.staging = new StagingRing(device, (enc, stage) => this.submit(enc, stage), CHUNK_BYTES, RING_UPLOADS);
    device.lost.then((info) => {
      // Our own destroy() resolves `lost` too (reason 'destroyed'): that prover was destroyed, not
      // lost, and its handles say so (DESTROYED; INVALID_ARGUMENT when passed to another prover).
      // Seen under Deno, where provers run in-thread: another prover's NttMatrix was DEVICE_LOST.
      if (this.destroyed) return;
      this.lost = true;
      this.lostMessage = `${info.reason}: ${info.message}`;
    });
  }

  static async create(gpu: GPU | undefined | null, opts: DeviceOptions = {}): Promise<GpuContext> {
    const { gpu: entry, adapter, device, features, description } = await acquireDevice(gpu, opts);
    // A job that waits for a compile says so, once ('compiling'); warmUp's own waits have no job.
    let ctx: GpuContext | undefined = undefined;
    let told: JobHooks | undefined;
    const pipelines = new PipelineCache(device, () => {
      const job = ctx?.job;
      if (job && job !== told) {
        told = job;
        job.report?.('compiling');
      }
    });
    pipelines.prime();
    ctx = new GpuContext(entry, adapter, device, features, description, new BufferPool(device), pipelines);
    return ctx;
  }

  get limits(): GPUSupportedLimits {
    return this.device.limits;
  }

  /** What one workgroup may use on this device (NTT staged and two-level passes, the MSM walker). */
  get workgroup(): WorkgroupLimits {
    const lim = this.device.limits;
    return {
      threads: Math.min(lim.maxComputeInvocationsPerWorkgroup, lim.maxComputeWorkgroupSizeX),
      tileBytes: lim.maxComputeWorkgroupStorageSize,
    };
  }

  private checkAlive(): void {
    if (this.destroyed) throw new ProverError('DESTROYED', 'This prover was destroyed; call createProver() again.');
    if (this.lost) throw new ProverError('DEVICE_LOST', `The GPU device was lost (${this.lostMessage}); create a new prover.`);
  }

  /**
   * Copy `data` into a pooled storage buffer (release it to ctx.pool when done): a large array
   * through the staging ring where `ringUploads`, else with writeBuffer. `afterChunk` records GPU work on each
   * chunk as it lands (StagingRing.write); a small array is one chunk, recorded into an encoder
   * submitted before this returns. With `into`, the data goes there from byte `intoOffset` (the
   * caller's buffer, kept by the caller also on failure) instead of a new pooled buffer;
   * afterChunk's `at` still counts words of `data`.
   */
  async uploadAsync(data: Uint32Array, label = 'input', afterChunk?: AfterChunk, into?: GPUBuffer, intoOffset = 0): Promise<GPUBuffer> {
    const buf = into ?? this.pool.acquire(Math.max(data.byteLength, 4), storageUsage(), label);
    try {
      if (this.ringUploads && data.byteLength >= RING_MIN_BYTES) {
        await this.staging.write(buf, intoOffset, data, afterChunk);
      } else {
        if (data.byteLength > 0) this.device.queue.writeBuffer(buf, intoOffset, data.buffer, data.byteOffset, data.byteLength);
        if (afterChunk && data.length > 0) {
          const enc = this.device.createCommandEncoder({ label: `${label} chunk` });
          afterChunk(enc, buf, 0, data.length);
          this.submit(enc, 'upload');
        }
      }
    } catch (e) {
      if (!into) this.pool.release(buf);
      throw e;
    }
    return buf;
  }

  /** Copy `data` into a pooled storage buffer with writeBuffer (small data; uploadAsync for large). */
  upload(data: Uint32Array, label = 'input'): GPUBuffer {
    const buf = this.pool.acquire(Math.max(data.byteLength, 4), storageUsage(), label);
    if (data.byteLength > 0) this.device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
    return buf;
  }

  /**
   * An unpooled buffer holding `data` for as long as the device lives: tables and uniforms a
   * kernel family computes once and caches (usage: STORAGE or UNIFORM; COPY_DST is added).
   */
  constantBuffer(data: Uint32Array, usage: GPUBufferUsageFlags, label: string): GPUBuffer {
    const buf = this.device.createBuffer({ size: data.byteLength, usage: usage | GPUBufferUsage.COPY_DST, label });
    this.device.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
    return buf;
  }

  /** A pooled uniform buffer holding `words` (release it to ctx.pool when done). */
  uploadUniform(words: Uint32Array, label = 'params'): GPUBuffer {
    const buf = this.pool.acquire(words.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label);
    this.device.queue.writeBuffer(buf, 0, words.buffer, words.byteOffset, words.byteLength);
    return buf;
  }

  /**
   * Submit one command buffer: a job boundary (an aborted job stops here instead; progress is
   * reported). `timed: false` leaves the submission's GPU time to the caller, which awaits a
   * mapping behind it anyway (readSmall): one onSubmittedWorkDone fewer per small call.
   */
  submit(enc: GPUCommandEncoder, stage: string, timed = true): void {
    const job = this.job;
    job?.checkpoint(stage);
    this.device.queue.submit([enc.finish()]);
    if (timed && TIME_EACH_SUBMISSION && job?.gpuDone) {
      const at = performance.now();
      this.device.queue.onSubmittedWorkDone().then(
        () => job.gpuDone!(stage, at, performance.now()),
        () => {},
      );
    }
  }

  /** Read `words` u32 from the start of `buf` (a COPY_SRC buffer) after all submitted work, into `out` if given. */
  async readback(buf: GPUBuffer, words: number, out?: Uint32Array): Promise<Uint32Array> {
    const [got] = await this.readRanges([{ buffer: buf, word: 0, count: words }], [out]);
    return got;
  }

  /**
   * Submit `enc` (as `stage`) and read `words` u32 from the start of `buf` after it, into `out`
   * if given: readback() after submit(), except that a small result's copy rides in `enc`, so the
   * call makes one submission instead of two (each one more the queue waits on before the
   * mapping resolves). Progress reports the 'readback' boundary as before.
   */
  async submitAndRead(enc: GPUCommandEncoder, stage: string, buf: GPUBuffer, words: number, out?: Uint32Array): Promise<Uint32Array> {
    if (words === 0 || words * 4 >= RING_MIN_BYTES) {
      this.submit(enc, stage);
      return this.readback(buf, words, out);
    }
    const target: ReadTarget = { buffer: buf, word: 0, count: words, out: out ?? new Uint32Array(words), at: 0 };
    await this.readSmall([target], words, enc, stage);
    return target.out;
  }

  /**
   * Read words [word, word + count) of several buffers, each into its own array (`outs[i]`
   * where given, of exactly `count` values; else a new one): large reads through the staging
   * ring, small ones through one pooled staging buffer and one submission.
   */
  async readRanges(
    ranges: ReadonlyArray<{ buffer: GPUBuffer; word: number; count: number }>,
    outs?: ReadonlyArray<Uint32Array | undefined>,
  ): Promise<Uint32Array[]> {
    const targets: ReadTarget[] = ranges.map((r, i) => ({ ...r, out: outs?.[i] ?? new Uint32Array(r.count), at: 0 }));
    const total = ranges.reduce((a, r) => a + r.count, 0);
    if (total === 0) return targets.map((t) => t.out);
    const ring = total * 4 >= RING_MIN_BYTES && (RING_READBACKS || total * 4 > this.limits.maxBufferSize);
    if (ring) await this.staging.read(targets);
    else await this.readSmall(targets, total, this.device.createCommandEncoder({ label: 'readback' }));
    return targets.map((t) => t.out);
  }

  /**
   * Copy `targets` (`total` words) into one pooled staging buffer at the end of `enc`, submit it
   * (as `stage`, then the 'readback' boundary; or as 'readback' alone), map it and copy out.
   */
  private async readSmall(targets: readonly ReadTarget[], total: number, enc: GPUCommandEncoder, stage?: string): Promise<void> {
    const staging = this.pool.acquire(total * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'readback');
    try {
      let at = 0;
      for (const r of targets) {
        if (r.count > 0) enc.copyBufferToBuffer(r.buffer, r.word * 4, staging, at * 4, r.count * 4);
        at += r.count;
      }
      const job = this.job;
      const submittedAt = performance.now();
      this.submit(enc, stage ?? 'readback', false);
      if (stage !== undefined) job?.checkpoint('readback');
      await staging.mapAsync(GPUMapMode.READ, 0, total * 4);
      // The mapping resolves once the submission is done: its GPU time, without a wait of its own.
      job?.gpuDone?.(stage ?? 'readback', submittedAt, performance.now());
      const view = new Uint32Array(staging.getMappedRange(0, total * 4));
      at = 0;
      for (const t of targets) t.out.set(view.subarray(at, (at += t.count)));
      staging.unmap();
    } finally {
      this.pool.release(staging);
    }
  }

  /**
   * Run a job inside validation and out-of-memory error scopes. Any GPU error, or loss of
   * the device during the job, is thrown as a ProverError; the context stays usable after
   * validation errors (they do not poison the device). Jobs run one at a time, in call order:
   * error scopes are a per-device stack, so two jobs interleaved would pop each other's errors
   * (and both pools' peaks would add). A caller's CPU work before run() (input encoding)
   * still overlaps the job ahead of it on the GPU.
   */
  async run<T>(job: () => Promise<T>): Promise<T> {
    this.checkAlive();
    const ahead = this.lastJob;
    let done!: () => void;
    this.lastJob = new Promise<void>((resolve) => (done = resolve));
    try {
      await ahead;
      return await this.runScoped(job);
    } finally {
      done();
    }
  }

  /** The job most recently queued by run() settles this (never rejects). */
  private lastJob: Promise<void> = Promise.resolve();

  private async runScoped<T>(job: () => Promise<T>): Promise<T> {
    this.checkAlive();
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
    let result: T | undefined;
    let failure: unknown;
    try {
      result = await job();
    } catch (e) {
      failure = e;
    }
    // A lost device may refuse to pop (or report nothing): its loss is the answer then.
    const pop = () => this.device.popErrorScope().catch(() => null);
    // popErrorScope pops when called (validation first, the scope pushed last); only its answer
    // waits for the GPU, so both are asked at once: one wait at the end of every job, not two.
    const [validation, oom] = await Promise.all([pop(), pop()]);
    if (failure !== undefined) {
      // A device lost mid-job fails the job with whatever WebGPU threw first (a rejected
      // mapAsync) before device.lost has settled: give it a moment to, and report the loss.
      if (!this.lost && !isProverError(failure)) await Promise.race([this.device.lost, new Promise((r) => setTimeout(r, LOSS_GRACE_MS))]);
      if (this.lost) this.checkAlive();
      throw failure;
    }
    if (oom) throw new ProverError('TOO_LARGE', `GPU out of memory: ${oom.message}. Use smaller batches.`);
    if (validation)
      throw new ProverError('GPU_ERROR', `GPU validation error (a bug in webgpu-prover; please report): ${validation.message}`);
    this.checkAlive();
    return result as T;
  }

  destroy(): void {
    this.destroyed = true;
    this.staging.destroy();
    this.pool.destroy();
    this.device.destroy();
  }
}
