/**
 * The BN254 Fr NTT's plan (wgsl/kernels/fr_ntt.wgsl): which radix-2^k passes a transform of 2^n
 * points takes, each pass's uniform words, and the device limits it must fit. Plain records, made
 * without a GPU (test/unit/fr-ntt-plan.test.ts runs a plan's index arithmetic in bigints against
 * src/ref/fr-ntt.ts).
 *
 * One Fr value is 32 bytes, so WebGPU's default 16 KiB of workgroup memory holds a tile of 2^9
 * values; a pass does 9 radix-2 stages in it. 2^20 points take 3 passes over global memory (7, 7 and
 * 6 stages), 2^24 also 3 (8 + 8 + 8), 2^9 or fewer one. The stages are spread evenly over the passes
 * (not 9 + 9 + 2) so every pass loads runs of J = TILE/R ≥ 8 consecutive values: same arithmetic,
 * longer coalesced runs. The passes are bound by the multiplies (fr_mul13, ~14 G/s on the H200),
 * not by memory: a larger tile where a device allows it would save a pass's traffic, not its time.
 * @module
 */
import { ProverError } from '../../errors.js';
import { FR_TWO_ADICITY } from '../../params/bn254-fr.js';

/** Bytes of one Fr value (8 x 32-bit limbs). */
export const FR_BYTES = 32;
/** The largest tile: 2^9 values = 16 KiB (WebGPU's default maxComputeWorkgroupStorageSize), 256 threads. */
export const FR_TILE_LOG_MAX = 9;
/** Uniform words of one pass (FrNttParams in fr_ntt.wgsl: 8 u32, then the scale's 8 limbs). */
export const FR_NTT_PARAM_WORDS = 16;

/** What a plan must fit: FrNttLimits.of(ctx) reads them from the device. */
export interface FrNttLimits {
  /** Workgroup memory in bytes (maxComputeWorkgroupStorageSize). */
  tileBytes: number;
  /** Threads per workgroup (the smaller of maxComputeInvocationsPerWorkgroup and maxComputeWorkgroupSizeX). */
  threads: number;
  /** maxStorageBufferBindingSize and maxBufferSize, the smaller. */
  maxBinding: number;
}

/** What the first pass multiplies each input by, and what the last multiplies each output by. */
export type FrPre = 'none' | 'scale' | 'coset';
export type FrPost = 'none' | 'coset';

export interface FrNttPass {
  /** log2 of the pass's radix R */
  rLog: number;
  /** log2 of Ns, the size of the sub-transforms done before this pass */
  nsLog: number;
}

export interface FrNttPlan {
  logN: number;
  /** log2 of the values one workgroup holds: 2^tileLog ≤ 2^FR_TILE_LOG_MAX, = N when N fits one tile */
  tileLog: number;
  /**
   * log2 of the tile the pass pipeline is built for (frTileLogMax): a smaller transform fills part
   * of it, so one pipeline serves every size on a device (a first proof compiled one per size:
   * the self-check's 2^3 and the caller's key).
   */
  kernelTileLog: number;
  /** threads per workgroup: one butterfly each per stage of the kernel's tile */
  workgroupSize: number;
  /** workgroups per pass */
  groups: number;
  passes: readonly FrNttPass[];
  /** bytes of one buffer of N values */
  bytes: number;
}

/** The largest tile (log2) the limits allow: 32 bytes a value in workgroup memory, one thread per two values. */
export function frTileLogMax(limits: FrNttLimits): number {
  const byMemory = Math.floor(Math.log2(limits.tileBytes / FR_BYTES));
  const byThreads = Math.floor(Math.log2(2 * limits.threads));
  return Math.min(FR_TILE_LOG_MAX, byMemory, byThreads);
}

/**
 * The passes of a transform of 2^logN values (1 ≤ logN ≤ 27: the coset shift ω_{2N} needs a 2N-th
 * root, and r's two-adicity is 28). Throws TOO_LARGE past one storage binding (2^22 values at
 * WebGPU's default 128 MiB; a device with larger limits granted takes more).
 */
export function planFrNtt(logN: number, limits: FrNttLimits): FrNttPlan {
  if (!Number.isInteger(logN) || logN < 1 || logN >= FR_TWO_ADICITY) {
    throw new ProverError('INVALID_LENGTH', `an Fr NTT takes 2^1 .. 2^${FR_TWO_ADICITY - 1} values, got 2^${logN}`);
  }
  const bytes = 2 ** logN * FR_BYTES;
  if (bytes > limits.maxBinding) {
    const most = Math.floor(Math.log2(limits.maxBinding / FR_BYTES));
    throw new ProverError(
      'TOO_LARGE',
      `an Fr NTT of 2^${logN} values needs ${bytes} B in one storage binding; this device allows ${limits.maxBinding} B (2^${most} values). ` +
        `Create the prover with limits: 'adapter' (or a larger maxStorageBufferBindingSize and maxBufferSize) on a GPU that grants more.`,
    );
  }
  const tileMax = frTileLogMax(limits);
  const tileLog = Math.min(logN, tileMax);
  const count = Math.ceil(logN / tileLog);
  const passes: FrNttPass[] = [];
  let nsLog = 0;
  for (let p = 0; p < count; p++) {
    // Even split: the first (logN mod count) passes take one stage more.
    const rLog = Math.floor(logN / count) + (p < logN % count ? 1 : 0);
    passes.push({ rLog, nsLog });
    nsLog += rLog;
  }
  return { logN, tileLog, kernelTileLog: tileMax, workgroupSize: 2 ** (tileMax - 1), groups: 2 ** (logN - tileLog), passes, bytes };
}

/** Plan constants of the fr_ntt pipeline for a plan (one pipeline per kernel tile: per device, but for capped tiles in tests). */
export function frNttPlanConsts(plan: FrNttPlan): Record<string, number> {
  return { FR_TILE_LOG: plan.kernelTileLog, FR_TILE_WORDS: 8 * 2 ** plan.kernelTileLog, FR_NTT_WG: plan.workgroupSize };
}

/** One transform's options: direction, first-pass scale (Montgomery limbs) and the coset shift ω_{2N}. */
export interface FrNttRun {
  inverse: boolean;
  /** limbs of a constant the first pass multiplies by (Montgomery form), e.g. 1/N for an inverse */
  scale?: readonly number[];
  /** forward: evaluate on ω_{2N}·<ω_N> (input j times ω_{2N}^j); inverse: output j times ω_{2N}^j */
  coset?: boolean;
}

/** Each pass's uniform words (FrNttParams) for one transform; tLog is the root table's log size (≥ logN). */
export function frNttParams(plan: FrNttPlan, run: FrNttRun, tLog: number): Uint32Array[] {
  if (tLog < plan.logN) throw new RangeError(`root table 2^${tLog} is shorter than the transform 2^${plan.logN}`);
  if (run.coset && run.scale && !run.inverse)
    throw new RangeError('a forward transform takes a scale or the coset shift on its first pass, not both');
  const pre: FrPre = run.scale ? 'scale' : run.coset && !run.inverse ? 'coset' : 'none';
  const post: FrPost = run.coset && run.inverse ? 'coset' : 'none';
  return plan.passes.map((p, i) => {
    const w = new Uint32Array(FR_NTT_PARAM_WORDS);
    w.set([plan.logN, p.rLog, p.nsLog, tLog, run.inverse ? 1 : 0]);
    w[5] = i === 0 ? { none: 0, scale: 1, coset: 2 }[pre] : 0;
    w[6] = i === plan.passes.length - 1 && post === 'coset' ? 1 : 0;
    if (run.scale) w.set(run.scale, 8);
    return w;
  });
}
