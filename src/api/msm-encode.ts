/**
 * MSM inputs into the words the GPU reads: points as 16 LE words each (x then y, converted and
 * curve-checked on the GPU at upload), scalars as the caller packed them, 8 words each
 * (scalarWords: no per-scalar host work for packed input; msm_split.wgsl makes the sort's
 * half-planes on the GPU, and encodeScalars here is its CPU twin). Point range checks compare
 * bytes only when the leading byte could reach p (0x30).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { FpInvertBatch } from '@noble/curves/abstract/modular.js';
import { ProverError } from '../errors.js';
import { beBytes32, FQ_P, FR_R } from '../params/bn254.js';
import { projectiveWords, putLimbs } from '../field/point-words.js';
import { firstAtLeastR } from '../field/fr-words.js';
import { SCALAR_HALVES } from '../params/msm-layout.js';
import { isTypedArray, plainView, requireDenseArray, requireInt, show } from '../validate.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import type { PointEncoding } from '../kernels/msm/bases.js';

export type G1Point = InstanceType<typeof bn254.G1.Point>;
const G1 = bn254.G1.Point;

/** Points: noble G1 points, or 64 bytes each (x then y, 32-byte big-endian; all zeros = identity). */
export type MsmPoints = readonly G1Point[] | Uint8Array;
/**
 * Scalars in [0, r): bigints, or 32 bytes each in a Uint8Array or a Uint32Array (its bytes as they
 * lie in memory), little-endian unless the call passes `endian: 'be'`.
 */
export type MsmScalars = readonly bigint[] | Uint8Array | Uint32Array;
/** Byte order of packed scalars. */
export type ScalarEndian = 'le' | 'be';

const P_BE = beBytes32(FQ_P);

/** Whether the 32 BE bytes at `off` are below `m` (BE bytes). */
function below(b: Uint8Array, off: number, m: Uint8Array): boolean {
  if (b[off] !== m[0]) return b[off] < m[0];
  for (let k = 1; k < 32; k++) if (b[off + k] !== m[k]) return b[off + k] < m[k];
  return false;
}

const isBytes = (v: unknown): v is Uint8Array => isTypedArray(v, 'Uint8Array');

const POINTS_WHAT = 'an array of bn254 G1 points or a Uint8Array of 64-byte affine points';

/**
 * The number of points `points` holds, for any input: INVALID_ARGUMENT for a wrong type or a
 * sparse array, INVALID_LENGTH for none or a byte length that is not whole points. msm() calls it
 * first so bad input fails before the bases upload, with the code msmBases() gives.
 */
export function pointCount(points: unknown): number {
  if (isBytes(points)) {
    if (points.length === 0 || points.length % 64 !== 0) {
      throw new ProverError(
        'INVALID_LENGTH',
        `packed points have ${points.length} bytes; need a nonzero multiple of 64 (x, y as 32-byte big-endian)`,
      );
    }
    return points.length / 64;
  }
  const n = requireDenseArray('points', points, POINTS_WHAT).length;
  if (n === 0) throw new ProverError('INVALID_LENGTH', 'msm needs at least one point; pass a non-empty array');
  return n;
}

/** `pts` as noble points: INVALID_ARGUMENT naming the first that is not one. */
function noblePoints(pts: readonly unknown[]): readonly G1Point[] {
  for (let i = 0; i < pts.length; i++) {
    if (!(pts[i] instanceof G1))
      throw new ProverError(
        'INVALID_ARGUMENT',
        `points[${i}] is ${show(pts[i])}, not a bn254.G1.Point; build points with bn254.G1.Point from @noble/curves`,
      );
  }
  return pts as readonly G1Point[];
}

/**
 * Points as 16 LE words each (x, y; the identity all zeros) and the indices of identities, checked
 * on the host (the CPU path; the GPU path takes packed points as they are, pointWords).
 */
export function encodePoints(points: MsmPoints): { words: Uint32Array; n: number; identity: number[] } {
  const identity: number[] = [];
  const n = pointCount(points);
  if (isBytes(points)) {
    const words = new Uint32Array(16 * n);
    const b = plainView(points);
    for (let i = 0, o = 0; i < n; i++, o += 64) {
      if (!below(b, o, P_BE) || !below(b, o + 32, P_BE))
        throw new ProverError('NON_CANONICAL', `point ${i}: coordinate >= p; encode x, y reduced mod p`);
      let any = 0;
      // Word k of a coordinate (LE) is BE bytes [28 - 4k, 32 - 4k) of it.
      for (let k = 0; k < 16; k++) {
        const q = o + (k < 8 ? 28 - 4 * k : 60 - 4 * (k - 8));
        const w = ((b[q] << 24) | (b[q + 1] << 16) | (b[q + 2] << 8) | b[q + 3]) >>> 0;
        words[16 * i + k] = w;
        any |= w;
      }
      if (any === 0) identity.push(i);
    }
    return { words, n, identity };
  }
  const ps = noblePoints(points as readonly unknown[]);
  // Points with Z = 1 (made from affine coordinates or bytes: an SRS as loaded) are affine already;
  // the others share one inversion (Montgomery's batch trick), not one each: 2^14 projective noble
  // points took 414 ms with a toAffine each (bench/encode-points-probe.ts). Z = 0 is the identity
  // (noble's is0() compares projectively: four multiplies a point).
  const projective = ps.filter((p) => p.Z !== 1n && p.Z !== 0n);
  const invZ =
    projective.length > 0
      ? FpInvertBatch(
          G1.Fp,
          projective.map((p) => p.Z),
        )
      : [];
  const words = new Uint32Array(16 * n);
  for (let i = 0, j = 0; i < n; i++) {
    const p = ps[i];
    if (p.Z === 1n) {
      putLimbs(words, 16 * i, p.X);
      putLimbs(words, 16 * i + 8, p.Y);
    } else if (p.Z === 0n) {
      identity.push(i);
    } else {
      const a = p.toAffine(invZ[j++]);
      putLimbs(words, 16 * i, a.x);
      putLimbs(words, 16 * i + 8, a.y);
    }
  }
  return { words, n, identity };
}

/** Packed points for the GPU: 16 words each, read as `encoding` says; z: projective points' Z (8 LE words each). */
export interface PointWords {
  words: Uint32Array;
  n: number;
  encoding: PointEncoding;
  z?: Uint32Array;
}

/**
 * Points as the GPU path uploads them (msm_to_mont): packed bytes as they are (a view; copied only
 * where WebGPU cannot read it or it is not 4-byte aligned), their range and curve checked on the
 * GPU; noble points as their projective coordinates' LE limbs (field/point-words.ts), Z only where
 * some point is not affine. INVALID_ARGUMENT / INVALID_LENGTH as pointCount.
 */
export function pointWords(points: MsmPoints): PointWords {
  const n = pointCount(points);
  if (!isBytes(points)) return { ...projectiveWords(noblePoints(points as readonly unknown[])), n, encoding: 'le' };
  const v = plainView(points);
  const aligned = v.byteOffset % 4 === 0 ? v : v.slice();
  return { words: new Uint32Array(aligned.buffer, aligned.byteOffset, 16 * n), n, encoding: 'be' };
}

/** Scalars per block of the transpose: their 64-128 KiB of input stays in cache across the planes. */
const BLOCK = 2048;

const swapLow = (w: number) => ((w & 0xff) << 8) | ((w >>> 8) & 0xff); // BE bytes 0, 1 of a word read LE
const swapHigh = (w: number) => ((w >>> 8) & 0xff00) | (w >>> 24); // BE bytes 2, 3
const bswap = (w: number) => (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;

const SCALARS_WHAT = "a bigint[], or a Uint8Array or Uint32Array of 32-byte scalars (little-endian; endian: 'be' for big-endian)";

/** The number of scalars `scalars` holds: INVALID_ARGUMENT for a wrong type or a sparse array, INVALID_LENGTH for a byte length that is not whole scalars. */
export function scalarCount(scalars: unknown): number {
  if (isBytes(scalars) || isTypedArray(scalars, 'Uint32Array')) {
    if (scalars.byteLength % 32 !== 0)
      throw new ProverError('INVALID_LENGTH', `packed scalars have ${scalars.byteLength} bytes; need 32 per scalar`);
    return scalars.byteLength / 32;
  }
  return requireDenseArray('scalars', scalars, SCALARS_WHAT).length;
}

/** 'le' (the default) or 'be': how the bytes of packed scalars are ordered. */
export function requireEndian(v: unknown): ScalarEndian {
  if (v === undefined || v === 'le' || v === 'be') return v ?? 'le';
  throw new ProverError('INVALID_ARGUMENT', `msm option endian must be 'le' or 'be', got ${show(v)}`);
}

/**
 * Scalars as the GPU takes them: 8 words each, the 32 bytes as they lie (`be`: big-endian bytes).
 * Packed input is used as it is (copied only where WebGPU cannot read its view, or it is not
 * 4-byte aligned), so the host's work per call is the one copy into the GPU queue; bigints are
 * range-checked here (NON_CANONICAL) and written as little-endian limbs. Packed scalars are
 * range-checked on the GPU (msm_split.wgsl). INVALID_LENGTH unless there are exactly n.
 */
export function scalarWords(scalars: MsmScalars, n: number, endian: ScalarEndian = 'le'): { words: Uint32Array; be: boolean } {
  const count = scalarCount(scalars);
  if (count !== n) throw new ProverError('INVALID_LENGTH', `${count} scalars for ${n} points; pass one scalar per point`);
  if (isBytes(scalars) || isTypedArray(scalars, 'Uint32Array')) {
    const v = plainView(scalars);
    const aligned = v.byteOffset % 4 === 0 ? v : v.slice();
    return { words: new Uint32Array(aligned.buffer, aligned.byteOffset, 8 * n), be: endian === 'be' };
  }
  const ks = scalars as readonly unknown[];
  const words = new Uint32Array(8 * n);
  for (let i = 0; i < n; i++) {
    const k = ks[i];
    if (typeof k !== 'bigint')
      throw new ProverError('INVALID_ARGUMENT', `scalars[${i}] is ${show(k)}, not a bigint; convert with BigInt(...)`);
    if (k < 0n || k >= FR_R) throw new ProverError('NON_CANONICAL', `scalars[${i}] is not in [0, r); reduce it mod r`);
    putLimbs(words, 8 * i, k);
  }
  return { words, be: false };
}

/** Scalar i of words (as scalarWords gives them) as a bigint. */
export function scalarAt(words: Uint32Array, be: boolean, i: number): bigint {
  let k = 0n;
  for (let j = 7; j >= 0; j--) k = (k << 32n) | BigInt(be ? bswap(words[8 * i + 7 - j]) : words[8 * i + j]);
  return k;
}

/** The first packed scalar >= r, or -1: limbs compared only where the top one could reach r's. */
export function firstScalarAtLeastR(words: Uint32Array, be: boolean, n: number): number {
  if (!be) return firstAtLeastR(words, n);
  const top = Number(FR_R >> 224n);
  for (let i = 0; i < n; i++) {
    const hi = be ? bswap(words[8 * i]) : words[8 * i + 7];
    if (hi >= top && scalarAt(words, be, i) >= FR_R) return i;
  }
  return -1;
}

/**
 * The host's twin of msm_split.wgsl (tests compare the two): scalars as 16 half-planes, bits
 * [16h, 16h + 16) of scalar i at h·n + i, with one spare element at the end, range-checked
 * (NON_CANONICAL). Blocked so each plane's writes are sequential.
 */
export function encodeScalars(scalars: MsmScalars, n: number, endian: ScalarEndian = 'le'): Uint16Array<ArrayBuffer> {
  const { words, be } = scalarWords(scalars, n, endian);
  const bad = firstScalarAtLeastR(words, be, n);
  if (bad >= 0) throw new ProverError('NON_CANONICAL', `scalar ${bad} is >= r; reduce it mod r`);
  const halves = new Uint16Array(SCALAR_HALVES * n + 1);
  for (let i0 = 0; i0 < n; i0 += BLOCK) {
    const i1 = Math.min(n, i0 + BLOCK);
    for (let j = 0; j < 8; j++) {
      const lo = (be ? 14 - 2 * j : 2 * j) * n;
      const hi = lo + n;
      for (let i = i0, q = 8 * i0 + j; i < i1; i++, q += 8) {
        const w = words[q];
        // BE: word j holds bytes 4j..4j + 3 of the big-endian scalar, halves 15 - 2j and 14 - 2j.
        halves[hi + i] = be ? swapLow(w) : w >>> 16;
        halves[lo + i] = be ? swapHigh(w) : w & 0xffff;
      }
    }
  }
  return halves;
}

/** Per-call options of the MSM calls: the job's, and where the scalars go and how they are packed. */
export interface MsmOptions extends JobOptions {
  /** bases.msm and msmBatch: scalars[i] multiplies point offset + i of the bases (default 0) */
  offset?: number;
  /** byte order of packed scalars: 'le' (the default) or 'be' */
  endian?: ScalarEndian;
}

/** A checked MSM call: its job options, offset and byte order. */
export interface MsmCall {
  job: JobOptions;
  offset: number;
  endian: ScalarEndian;
}

/** The options of an MSM call over `n` bases, checked (the CPU path takes them the same way). */
export function requireMsmOptions(o: unknown, n: number): MsmCall {
  const job = requireJobOptions('msm options', o);
  const { offset, endian } = (o ?? {}) as MsmOptions;
  return {
    job,
    offset:
      offset === undefined ? 0 : requireInt('msm options.offset', offset, 0, n - 1, `the first of the ${n} bases the scalars go with`),
    endian: requireEndian(endian),
  };
}

/** The one-shot prover.msm's options: requireMsmOptions, and no offset (its points are the whole vector). */
export function requireOneShotOptions(o: unknown, n: number): MsmCall {
  const call = requireMsmOptions(o, n);
  if (call.offset !== 0)
    throw new ProverError(
      'INVALID_ARGUMENT',
      'prover.msm takes no offset (its points are the whole vector); use prover.msmBases(points) and bases.msm(scalars, { offset })',
    );
  return call;
}

/** INVALID_LENGTH unless m scalars from `offset` fit n bases. */
export function requireSlice(m: number, offset: number, n: number): void {
  if (m === 0) throw new ProverError('INVALID_LENGTH', 'msm needs at least one scalar; pass a non-empty vector');
  if (offset + m > n)
    throw new ProverError(
      'INVALID_LENGTH',
      `${m} scalars from offset ${offset} pass the end of the ${n} bases; pass at most ${n - offset}`,
    );
}

/** The scalar vectors of a batch: a dense non-empty array. */
export function requireBatch(list: unknown): readonly MsmScalars[] {
  const v = requireDenseArray('msmBatch scalars', list, 'an array of scalar vectors') as readonly MsmScalars[];
  if (v.length === 0) throw new ProverError('INVALID_LENGTH', 'msmBatch needs at least one scalar vector');
  return v;
}
