/**
 * createProver() and the Prover object: the owner of one GPU device and everything built on
 * it. Every method is async and takes plain typed arrays, so the same surface can later be
 * served from a Web Worker (the scheduler issue) without changing callers.
 * @module
 */
import { ProverError } from './errors.js';
import { GpuContext } from './gpu/context.js';
import type { PoolStats } from './gpu/buffer-pool.js';
import { FIELD_OPS, runFieldOp, type FieldOp } from './kernels/field.js';
import { requireCanonical, requireLength, requireMultipleOf, requireUint32Array } from './validate.js';

export interface ProverOptions {
  /**
   * The WebGPU entry point: `navigator.gpu` in browsers (the default); in Node,
   * `create([])` from the 'webgpu' package (keep that object alive as long as the prover).
   */
  gpu?: GPU;
  powerPreference?: GPUPowerPreference;
  /** Use the software fallback adapter (SwiftShader), for tests on machines without a GPU. */
  forceFallbackAdapter?: boolean;
}

export interface ProverInfo {
  adapter: string;
  timestampQuery: boolean;
  subgroups: boolean;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeWorkgroupStorageSize: number;
}

export interface Prover {
  readonly info: ProverInfo;
  /**
   * Element-wise BabyBear arithmetic on the GPU over canonical values: add, sub, mul (two
   * inputs), square, pow7, inv (one input; inv maps 0 to 0), and the degree-4 extension
   * (x^4 = 11) ext4Mul / ext4Inv where each element is 4 consecutive values [c0, c1, c2, c3].
   * @throws ProverError NON_CANONICAL, INVALID_LENGTH, INVALID_ARGUMENT, DEVICE_LOST, DESTROYED
   */
  batchField(op: FieldOp, a: Uint32Array, b?: Uint32Array): Promise<Uint32Array>;
  /** GPU memory held by the prover's buffer pool. */
  stats(): PoolStats & { pipelines: number };
  /** Resolves if the device is lost (then every call fails with DEVICE_LOST). */
  readonly lost: Promise<string>;
  /** Free every GPU resource; the prover is unusable afterwards. */
  destroy(): void;
}

/**
 * Acquire a GPU device and return a prover on it.
 * @throws ProverError NO_WEBGPU with a message saying what to do
 * @example
 *   const prover = await createProver();                       // browser
 *   const prover = await createProver({ gpu: create([]) });    // Node, `import { create } from 'webgpu'`
 */
export async function createProver(opts: ProverOptions = {}): Promise<Prover> {
  const gpu = opts.gpu ?? (globalThis.navigator as Navigator | undefined)?.gpu;
  const ctx = await GpuContext.create(gpu, opts);
  let destroyed = false;
  const alive = () => {
    if (destroyed) throw new ProverError('DESTROYED', 'This prover was destroyed; call createProver() again.');
  };

  const batchField = async (op: FieldOp, a: Uint32Array, b?: Uint32Array) => {
    alive();
    const spec = FIELD_OPS[op as FieldOp];
    if (!spec) throw new ProverError('INVALID_ARGUMENT', `unknown field op "${String(op)}"; one of ${Object.keys(FIELD_OPS).join(', ')}`);
    requireUint32Array('a', a);
    requireCanonical('a', a);
    if (spec.ext) requireMultipleOf('a', a, 4, 'ext4 elements are 4 consecutive values');
    if (spec.arity === 2) {
      if (b === undefined) throw new ProverError('INVALID_ARGUMENT', `field op "${op}" needs two inputs`);
      requireUint32Array('b', b);
      requireLength('b', b, a.length, 'b must have the length of a');
      requireCanonical('b', b);
    }
    const maxWords = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize) / 4;
    if (a.length > maxWords) {
      throw new ProverError('TOO_LARGE', `batchField: ${a.length} values exceed this device's ${maxWords}-value binding limit; split the batch`);
    }
    return ctx.run(() => runFieldOp(ctx, op, a, spec.arity === 2 ? b : undefined));
  };

  return {
    info: {
      adapter: ctx.description,
      timestampQuery: ctx.features.timestamps,
      subgroups: ctx.features.subgroups,
      maxStorageBufferBindingSize: ctx.limits.maxStorageBufferBindingSize,
      maxBufferSize: ctx.limits.maxBufferSize,
      maxComputeWorkgroupStorageSize: ctx.limits.maxComputeWorkgroupStorageSize,
    },
    batchField,
    stats: () => ({ ...ctx.pool.stats(), pipelines: ctx.pipelines.size }),
    lost: ctx.device.lost.then((i) => `${i.reason}: ${i.message}`),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      ctx.destroy();
    },
  };
}
