/**
 * Public facet: BN254 G1 multi-scalar multiplication (prover.msm, prover.msmBases).
 * Inputs are validated here (NOT_ON_CURVE on the GPU during the bases upload), the GPU returns
 * one sum per c-bit window, and the host folds them by Horner (T <= 64 points, ~3 ms).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError } from '../errors.js';
import { FQ_P, FR_R, fromLimbs, fromMont, toLimbs } from '../params/bn254.js';
import { runMsm, uploadBases } from '../kernels/msm.js';
import { msmPlan, SCALAR_HALVES, type MsmPlan, type MsmTuning } from '../kernels/msm-plan.js';
import type { ProfileReport } from '../gpu/profiler.js';
import type { ApiEnv } from './env.js';

export type G1Point = InstanceType<typeof bn254.G1.Point>;
const G1 = bn254.G1.Point;

/** Points: noble G1 points, or 64 bytes each (x then y, 32-byte big-endian; all zeros = identity). */
export type MsmPoints = readonly G1Point[] | Uint8Array;
/** Scalars in [0, r): bigints, or 32 bytes each, big-endian. */
export type MsmScalars = readonly bigint[] | Uint8Array;

export interface MsmRunInfo {
  point: G1Point;
  plans: MsmPlan[];
  profiles: (ProfileReport | null)[];
  poolBytes: number;
}

export interface MsmBases {
  readonly n: number;
  /** sum_i scalars[i]·points[i] */
  msm(scalars: MsmScalars): Promise<G1Point>;
  /** msm() with the plan, per-pass GPU times (timestamp-query where available) and pool bytes. */
  msmProfiled(scalars: MsmScalars, tuning?: MsmTuning): Promise<MsmRunInfo>;
  destroy(): void;
}

export interface MsmMethods {
  /**
   * sum_i scalars[i]·points[i] on BN254 G1, equal to @noble/curves' pippenger.
   * @throws ProverError INVALID_LENGTH (empty, mismatch, bad byte length), NON_CANONICAL (coordinate >= p or scalar >= r), NOT_ON_CURVE, INVALID_ARGUMENT
   * @example const q = await prover.msm([G, G.double()], [2n, 3n]);
   */
  msm(points: MsmPoints, scalars: MsmScalars): Promise<G1Point>;
  /** Convert and upload the bases once (an SRS); then `handle.msm(scalars)` many times. */
  msmBases(points: MsmPoints): Promise<MsmBases>;
}

const beWord = (b: Uint8Array, off: number) => ((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) >>> 0;

/**
 * 32 BE bytes at `off` into 8 LE words at `dst[at + k·stride]`; returns false if the value
 * >= `limit` (8 LE words).
 */
function beToWords(b: Uint8Array, off: number, dst: Uint32Array, at: number, limit: readonly number[], stride = 1): boolean {
  for (let k = 0; k < 8; k++) dst[at + k * stride] = beWord(b, off + 28 - 4 * k);
  for (let k = 7; k >= 0; k--) {
    const w = dst[at + k * stride];
    if (w !== limit[k]) return w < limit[k];
  }
  return false;
}

const P_LIMBS = toLimbs(FQ_P);
const R_LIMBS = toLimbs(FR_R);

/** The empty-input check, shared by msm's fail-fast pre-check and the bases encoding. */
function requirePoints(n: number): void {
  if (n === 0) throw new ProverError('INVALID_LENGTH', 'msm needs at least one point');
}

function encodePoints(points: MsmPoints): { words: Uint32Array; n: number; identity: number[] } {
  const identity: number[] = [];
  if (points instanceof Uint8Array) {
    if (points.length === 0 || points.length % 64 !== 0) {
      throw new ProverError('INVALID_LENGTH', `packed points have ${points.length} bytes; need a nonzero multiple of 64 (x, y as 32-byte big-endian)`);
    }
    const n = points.length / 64;
    const words = new Uint32Array(16 * n);
    for (let i = 0; i < n; i++) {
      const okx = beToWords(points, 64 * i, words, 16 * i, P_LIMBS);
      const oky = beToWords(points, 64 * i + 32, words, 16 * i + 8, P_LIMBS);
      if (!okx || !oky) throw new ProverError('NON_CANONICAL', `point ${i}: coordinate >= p; encode x, y reduced mod p`);
      if (words.subarray(16 * i, 16 * i + 16).every((w) => w === 0)) identity.push(i);
    }
    return { words, n, identity };
  }
  if (!Array.isArray(points)) throw new ProverError('INVALID_ARGUMENT', 'points must be an array of bn254 G1 points or a Uint8Array of 64-byte affine points');
  const n = points.length;
  requirePoints(n);
  const words = new Uint32Array(16 * n);
  points.forEach((p, i) => {
    if (!(p instanceof G1)) throw new ProverError('INVALID_ARGUMENT', `points[${i}] is not a bn254.G1.Point`);
    if (p.is0()) { identity.push(i); return; }
    const a = p.toAffine();
    words.set(toLimbs(a.x), 16 * i);
    words.set(toLimbs(a.y), 16 * i + 8);
  });
  return { words, n, identity };
}

/**
 * Scalars as 16 half-planes (bits [16h, 16h + 16) of scalar i at h·n + i, see ScalarPlanes in
 * src/kernels/msm.ts): written in that order here, so no transpose pass is needed. One spare
 * element at the end: uploads round each plane up to whole words.
 */
function encodeScalars(scalars: MsmScalars, n: number): Uint16Array<ArrayBuffer> {
  const halves = new Uint16Array(SCALAR_HALVES * n + 1);
  const put = (i: number, words: ArrayLike<number>) => {
    for (let k = 0; k < 8; k++) {
      halves[2 * k * n + i] = words[k] & 0xffff;
      halves[(2 * k + 1) * n + i] = words[k] >>> 16;
    }
  };
  if (scalars instanceof Uint8Array) {
    if (scalars.length !== 32 * n) throw new ProverError('INVALID_LENGTH', `packed scalars have ${scalars.length} bytes; need 32 per point (${32 * n})`);
    const w = new Uint32Array(8);
    for (let i = 0; i < n; i++) {
      if (!beToWords(scalars, 32 * i, w, 0, R_LIMBS)) throw new ProverError('NON_CANONICAL', `scalar ${i} is >= r; reduce it mod r`);
      put(i, w);
    }
    return halves;
  }
  if (!Array.isArray(scalars)) throw new ProverError('INVALID_ARGUMENT', 'scalars must be a bigint[] or a Uint8Array of 32-byte big-endian scalars');
  if (scalars.length !== n) throw new ProverError('INVALID_LENGTH', `${scalars.length} scalars for ${n} points`);
  scalars.forEach((k, i) => {
    if (typeof k !== 'bigint') throw new ProverError('INVALID_ARGUMENT', `scalars[${i}] is not a bigint`);
    if (k < 0n || k >= FR_R) throw new ProverError('NON_CANONICAL', `scalars[${i}] is not in [0, r); reduce it mod r`);
    put(i, toLimbs(k));
  });
  return halves;
}

/** Horner fold of the window sums: sum_j 2^(j·c) G_j. */
function foldWindows(win: Uint32Array, plan: MsmPlan): G1Point {
  let acc = G1.ZERO;
  for (let j = plan.T - 1; j >= 0; j--) {
    for (let i = 0; i < plan.c; i++) acc = acc.double();
    const o = 24 * j;
    const [x, y, z] = [0, 8, 16].map((k) => fromMont(fromLimbs(win, o + k)));
    acc = acc.add(z === 0n ? G1.ZERO : new G1(x, y, z));
  }
  return acc;
}

export function msmMethods({ ctx, alive }: ApiEnv): MsmMethods {
  async function msmBases(points: MsmPoints): Promise<MsmBases> {
    alive();
    const { words, n, identity } = encodePoints(points);
    // Bases bind as one storage buffer: split into chunks that fit the binding limit.
    const maxBytes = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    const chunk = Math.floor(maxBytes / 64);
    const chunks: { buf: GPUBuffer; start: number; n: number }[] = [];
    await ctx.run(async () => {
      try {
        for (let start = 0; start < n; start += chunk) {
          const m = Math.min(chunk, n - start);
          const { buf, bad } = await uploadBases(ctx, words.subarray(16 * start, 16 * (start + m)), m);
          chunks.push({ buf, start, n: m });
          if (bad >= 0) throw new ProverError('NOT_ON_CURVE', `point ${start + bad} is not on BN254 G1 (y^2 != x^3 + 3)`);
        }
      } catch (e) {
        for (const c of chunks) ctx.pool.release(c.buf);
        throw e;
      }
    });
    let destroyed = false;
    const run = async (scalars: MsmScalars, tuning: MsmTuning = {}, profile = false): Promise<MsmRunInfo> => {
      alive();
      if (destroyed) throw new ProverError('DESTROYED', 'this msmBases handle was destroyed');
      const sw = encodeScalars(scalars, n);
      for (const i of identity) for (let h = 0; h < SCALAR_HALVES; h++) sw[h * n + i] = 0;
      return ctx.run(async () => {
        let point = G1.ZERO;
        const plans: MsmPlan[] = [];
        const profiles: (ProfileReport | null)[] = [];
        let poolBytes = 0;
        for (const c of chunks) {
          const plan = msmPlan(c.n, tuning, ctx.workgroup);
          const r = await runMsm(ctx, c.buf, { halves: sw, stride: n, start: c.start }, plan, profile);
          point = point.add(foldWindows(r.windows, plan));
          plans.push(plan);
          profiles.push(r.profile);
          poolBytes = Math.max(poolBytes, r.poolBytes);
        }
        return { point, plans, profiles, poolBytes };
      });
    };
    return {
      n,
      msm: async (scalars) => (await run(scalars)).point,
      msmProfiled: (scalars, tuning) => run(scalars, tuning, true),
      destroy() {
        if (destroyed) return;
        destroyed = true;
        for (const c of chunks) ctx.pool.release(c.buf);
      },
    };
  }
  return {
    msmBases,
    async msm(points, scalars) {
      alive();
      // Check the scalars before the (slower) bases upload so bad input fails fast.
      const n = points instanceof Uint8Array ? points.length / 64 : Array.isArray(points) ? points.length : 0;
      requirePoints(n);
      if (Number.isInteger(n)) encodeScalars(scalars, n);
      const h = await msmBases(points);
      try {
        return await h.msm(scalars);
      } finally {
        h.destroy();
      }
    },
  };
}
