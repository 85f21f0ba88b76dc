/**
 * CPU twin of the GPU NTT: Plonky3 `p3-dft` (0.9.0-rc.2) `dft_batch`, `idft_batch`,
 * `coset_lde_batch` and WHIR's zero-padded `encode`, on row-major h×w matrices of canonical
 * BabyBear values, natural row order in and out (shared/notes/plonky3.md §5):
 *   dft:  out[i][c] = Σ_j in[j][c]·ω^(i·j), ω = two_adic_generator(log2 h) (positive exponent)
 *   idft: out[j][c] = h^-1 · Σ_i in[i][c]·ω^(−i·j)
 *   coset_lde(evals, a, s): coeffs = idft(evals); pad with zero rows to h·2^a; row j ·= s^j; dft
 *   encode(coeffs, a): pad with zero rows to h·2^a; dft
 * The algorithm is a plain iterative radix-2 (bit-reverse, then DIT butterflies): a different
 * shape from the GPU's Stockham passes, so agreement between them means something.
 * @module
 */
import { BB_TWO_ADIC_GENERATORS, BB_TWO_ADICITY } from '../params/babybear.js';
import { bbAdd, bbInv, bbMul, bbPow, bbSub } from './babybear.js';

/** log2 of a power of two, or -1. */
export function log2Exact(n: number): number {
  if (!Number.isInteger(n) || n < 1 || (n & (n - 1)) !== 0 || n > 2 ** 30) return -1;
  return Math.round(Math.log2(n));
}

/** two_adic_generator(bits): a primitive 2^bits-th root of unity, as Plonky3 defines it. */
export function twoAdicGenerator(bits: number): number {
  if (bits < 0 || bits > BB_TWO_ADICITY) throw new RangeError(`no 2^${bits}-th root of unity in BabyBear (two-adicity ${BB_TWO_ADICITY})`);
  return BB_TWO_ADIC_GENERATORS[bits];
}

/** The low `bits` bits of x, reversed (0 for bits = 0). */
export function reverseBits(x: number, bits: number): number {
  let r = 0;
  for (let i = 0; i < bits; i++) r = (r << 1) | ((x >>> i) & 1);
  return r >>> 0;
}

/** In-place radix-2 DFT of one column (values at col, col + w, ...) with root `omega` of order h. */
function dftColumn(m: Uint32Array, h: number, w: number, col: number, omega: number): void {
  const bits = log2Exact(h);
  for (let i = 0; i < h; i++) {
    const j = reverseBits(i, bits);
    if (j > i) {
      const a = m[i * w + col];
      m[i * w + col] = m[j * w + col];
      m[j * w + col] = a;
    }
  }
  for (let len = 2; len <= h; len <<= 1) {
    const wLen = bbPow(omega, h / len); // primitive len-th root
    const half = len >> 1;
    const tw = new Array<number>(half);
    tw[0] = 1;
    for (let k = 1; k < half; k++) tw[k] = bbMul(tw[k - 1], wLen);
    for (let start = 0; start < h; start += len) {
      for (let k = 0; k < half; k++) {
        const iu = (start + k) * w + col;
        const iv = (start + k + half) * w + col;
        const u = m[iu];
        const v = bbMul(m[iv], tw[k]);
        m[iu] = bbAdd(u, v);
        m[iv] = bbSub(u, v);
      }
    }
  }
}

function checkShape(values: Uint32Array, width: number): number {
  if (!Number.isInteger(width) || width < 1 || values.length % width !== 0) {
    throw new RangeError(`ntt ref: length ${values.length} is not a multiple of width ${width}`);
  }
  const h = values.length / width;
  if (log2Exact(h) < 0) throw new RangeError(`ntt ref: height ${h} is not a power of two`);
  return h;
}

/** Plonky3 dft_batch: natural order in and out. */
export function dft(values: Uint32Array, width: number): Uint32Array {
  const h = checkShape(values, width);
  const out = values.slice();
  const omega = twoAdicGenerator(log2Exact(h));
  for (let c = 0; c < width; c++) dftColumn(out, h, width, c, omega);
  return out;
}

/** Plonky3 idft_batch: the inverse of dft (root ω^-1, scaled by 1/h). */
export function idft(values: Uint32Array, width: number): Uint32Array {
  const h = checkShape(values, width);
  const out = values.slice();
  const omegaInv = bbInv(twoAdicGenerator(log2Exact(h)));
  for (let c = 0; c < width; c++) dftColumn(out, h, width, c, omegaInv);
  const hInv = bbInv(h);
  for (let i = 0; i < out.length; i++) out[i] = bbMul(out[i], hInv);
  return out;
}

/** Zero rows appended up to h·2^addedBits, rows multiplied by shift^row, then dft. */
function padScaleDft(coeffs: Uint32Array, width: number, addedBits: number, shift: number): Uint32Array {
  const h = coeffs.length / width;
  const padded = new Uint32Array(h * 2 ** addedBits * width);
  let s = 1;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < width; c++) padded[r * width + c] = bbMul(coeffs[r * width + c], s);
    s = bbMul(s, shift);
  }
  return dft(padded, width);
}

/** Plonky3 coset_lde_batch(evals, addedBits, shift): output row i is f(shift·ω'^i), natural order. */
export function cosetLde(evals: Uint32Array, width: number, addedBits: number, shift: number): Uint32Array {
  checkShape(evals, width);
  return padScaleDft(idft(evals, width), width, addedBits, shift);
}

/** WHIR Reed-Solomon encoding (p3_commit Encoder::encode_batch): zero-pad to h·2^addedBits rows, dft. */
export function encode(coeffs: Uint32Array, width: number, addedBits: number): Uint32Array {
  checkShape(coeffs, width);
  return padScaleDft(coeffs, width, addedBits, 1);
}

/** Rows permuted to bit-reversed order: out row i = in row reverseBits(i, log2 h). */
export function bitReverseRows(values: Uint32Array, width: number): Uint32Array {
  const h = checkShape(values, width);
  const bits = log2Exact(h);
  const out = new Uint32Array(values.length);
  for (let i = 0; i < h; i++) {
    const j = reverseBits(i, bits);
    out.set(values.subarray(j * width, (j + 1) * width), i * width);
  }
  return out;
}
