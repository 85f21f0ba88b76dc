/**
 * MSM inputs into the words the GPU reads: points as 16 LE words each (x then y), scalars as 16
 * half-planes (bits [16h, 16h + 16) of scalar i at h·n + i, see ScalarPlanes in
 * src/kernels/msm.ts). Both run on the CPU before every job, so they are written for speed:
 * at 2^20 a per-byte, per-scalar loop took ~100 ms, more than the GPU's whole MSM at its boost
 * clock, and left the GPU idle between back-to-back jobs. Range checks compare bytes only when
 * the leading byte could reach the modulus (p and r both start with 0x30).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { FpInvertBatch } from '@noble/curves/abstract/modular.js';
import { ProverError } from '../errors.js';
import { beBytes32, FQ_P, FR_R, toLimbs } from '../params/bn254.js';
import { SCALAR_HALVES } from '../kernels/msm-plan.js';
import { isTypedArray, plainView, requireDenseArray, show } from '../validate.js';

export type G1Point = InstanceType<typeof bn254.G1.Point>;
const G1 = bn254.G1.Point;

/** Points: noble G1 points, or 64 bytes each (x then y, 32-byte big-endian; all zeros = identity). */
export type MsmPoints = readonly G1Point[] | Uint8Array;
/** Scalars in [0, r): bigints, or 32 bytes each, big-endian. */
export type MsmScalars = readonly bigint[] | Uint8Array;

const P_BE = beBytes32(FQ_P);
const R_BE = beBytes32(FR_R);

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
      throw new ProverError('INVALID_LENGTH', `packed points have ${points.length} bytes; need a nonzero multiple of 64 (x, y as 32-byte big-endian)`);
    }
    return points.length / 64;
  }
  const n = requireDenseArray('points', points, POINTS_WHAT).length;
  if (n === 0) throw new ProverError('INVALID_LENGTH', 'msm needs at least one point; pass a non-empty array');
  return n;
}

/** Points as 16 LE words each (x, y; the identity all zeros) and the indices of identities. */
export function encodePoints(points: MsmPoints): { words: Uint32Array; n: number; identity: number[] } {
  const identity: number[] = [];
  const n = pointCount(points);
  if (isBytes(points)) {
    const words = new Uint32Array(16 * n);
    const b = plainView(points);
    for (let i = 0, o = 0; i < n; i++, o += 64) {
      if (!below(b, o, P_BE) || !below(b, o + 32, P_BE)) throw new ProverError('NON_CANONICAL', `point ${i}: coordinate >= p; encode x, y reduced mod p`);
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
  const pts = points as readonly unknown[];
  for (let i = 0; i < n; i++) {
    if (!(pts[i] instanceof G1)) throw new ProverError('INVALID_ARGUMENT', `points[${i}] is ${show(pts[i])}, not a bn254.G1.Point; build points with bn254.G1.Point from @noble/curves`);
  }
  const ps = pts as readonly G1Point[];
  // One inversion for all Z (Montgomery's batch trick), not one per point: 2^14 projective noble
  // points took 414 ms with a toAffine each (bench/encode-points-probe.ts).
  const invZ = FpInvertBatch(G1.Fp, ps.map((p) => p.Z));
  const words = new Uint32Array(16 * n);
  for (let i = 0; i < n; i++) {
    const p = ps[i];
    if (p.is0()) { identity.push(i); continue; }
    const a = p.toAffine(invZ[i]);
    words.set(toLimbs(a.x), 16 * i);
    words.set(toLimbs(a.y), 16 * i + 8);
  }
  return { words, n, identity };
}

/** Scalars per block of the transpose: their 64-128 KiB of input stays in cache across the planes. */
const BLOCK = 2048;

const swapLow = (w: number) => ((w & 0xff) << 8) | ((w >>> 8) & 0xff); // BE bytes 0, 1 of a word read LE
const swapHigh = (w: number) => ((w >>> 8) & 0xff00) | (w >>> 24); // BE bytes 2, 3

/**
 * 32-byte BE scalars, read as LE words (WebGPU hosts are little-endian, as every upload here
 * assumes), into half-planes. Word j holds BE bytes 4j..4j + 3: halves 15 - 2j (bytes 4j, 4j + 1)
 * and 14 - 2j. Blocked so each plane's writes are sequential; with n even two scalars' halves go
 * out as one u32 (planes start at even offsets): ~30 ms at 2^20 on a slow CI core, 3x the
 * per-half loop.
 */
function transposeScalars(words: Uint32Array, halves: Uint16Array, n: number): void {
  if (n % 2 === 0) {
    const pairs = new Uint32Array(halves.buffer, 0, 8 * n);
    const m = n / 2;
    for (let i0 = 0; i0 < m; i0 += BLOCK) {
      const i1 = Math.min(m, i0 + BLOCK);
      for (let j = 0; j < 8; j++) {
        const lo = (14 - 2 * j) * m, hi = lo + m;
        for (let i = i0, q = 16 * i0 + j; i < i1; i++, q += 16) {
          const a = words[q], b = words[q + 8];
          pairs[hi + i] = swapLow(a) | (swapLow(b) << 16);
          pairs[lo + i] = swapHigh(a) | (swapHigh(b) << 16);
        }
      }
    }
    return;
  }
  for (let i0 = 0; i0 < n; i0 += BLOCK) {
    const i1 = Math.min(n, i0 + BLOCK);
    for (let j = 0; j < 8; j++) {
      const lo = (14 - 2 * j) * n, hi = lo + n;
      for (let i = i0, q = 8 * i0 + j; i < i1; i++, q += 8) {
        halves[hi + i] = swapLow(words[q]);
        halves[lo + i] = swapHigh(words[q]);
      }
    }
  }
}

/**
 * Scalars as 16 half-planes, one spare element at the end (uploads round each plane up to whole
 * words), into `reuse` where it has that length. Packed scalars are range-checked first (bytes compared only where the leading one
 * could reach r's), then transposed.
 */
export function encodeScalars(scalars: MsmScalars, n: number, reuse?: Uint16Array<ArrayBuffer>): Uint16Array<ArrayBuffer> {
  // Every element but the spare is written below; the spare is never read as a digit.
  const halves = reuse?.length === SCALAR_HALVES * n + 1 ? reuse : new Uint16Array(SCALAR_HALVES * n + 1);
  if (isBytes(scalars)) {
    if (scalars.length !== 32 * n) throw new ProverError('INVALID_LENGTH', `packed scalars have ${scalars.length} bytes; need 32 per point (${32 * n})`);
    const b = plainView(scalars);
    for (let i = 0, o = 0; i < n; i++, o += 32) {
      if (b[o] >= R_BE[0] && !below(b, o, R_BE)) throw new ProverError('NON_CANONICAL', `scalar ${i} is >= r; reduce it mod r`);
    }
    const aligned = b.byteOffset % 4 === 0 ? b : b.slice();
    transposeScalars(new Uint32Array(aligned.buffer, aligned.byteOffset, 8 * n), halves, n);
    return halves;
  }
  const ks = requireDenseArray('scalars', scalars, 'a bigint[] or a Uint8Array of 32-byte big-endian scalars');
  if (ks.length !== n) throw new ProverError('INVALID_LENGTH', `${ks.length} scalars for ${n} points; pass one scalar per point`);
  for (let i = 0; i < n; i++) {
    const k = ks[i];
    if (typeof k !== 'bigint') throw new ProverError('INVALID_ARGUMENT', `scalars[${i}] is ${show(k)}, not a bigint; convert with BigInt(...)`);
    if (k < 0n || k >= FR_R) throw new ProverError('NON_CANONICAL', `scalars[${i}] is not in [0, r); reduce it mod r`);
    const words = toLimbs(k);
    for (let w = 0; w < 8; w++) {
      halves[2 * w * n + i] = words[w] & 0xffff;
      halves[(2 * w + 1) * n + i] = words[w] >>> 16;
    }
  }
  return halves;
}
