/**
 * CPU twin of the GPU NTT: Plonky3 `p3-dft` (0.9.0-rc.2) `dft_batch`, `idft_batch`,
 * `coset_lde_batch` and WHIR's zero-padded `encode`, on row-major h×w matrices of canonical
 * values of a 31-bit field (BabyBear unless a record is given; KoalaBear equals p3-koala-bear's
 * Radix2Dit), natural row order in and out (shared/notes/plonky3.md §5):
 *   dft:  out[i][c] = Σ_j in[j][c]·ω^(i·j), ω = two_adic_generator(log2 h) (positive exponent)
 *   idft: out[j][c] = h^-1 · Σ_i in[i][c]·ω^(−i·j)
 *   coset_lde(evals, a, s): coeffs = idft(evals); pad with zero rows to h·2^a; row j ·= s^j; dft
 *   encode(coeffs, a): pad with zero rows to h·2^a; dft
 * The algorithm is a plain iterative radix-2 (bit-reverse, then DIT butterflies): a different
 * shape from the GPU's Stockham passes, so agreement between them means something.
 * @module
 */
import { BABY_BEAR } from '../params/babybear.js';
import type { Monty31Params } from '../params/monty31.js';
import { monty31Ops } from '../field/monty31-ops.js';
import { log2Exact, reverseBits, twoAdicGenerator } from '../field/two-adic.js';

// Re-exported for the NTT kernels, which import them from here until their owner switches to src/field.
export { log2Exact, reverseBits, twoAdicGenerator };

/** In-place radix-2 DFT of one column (values at col, col + w, ...) with root `omega` of order h. */
function dftColumn(m: Uint32Array, h: number, w: number, col: number, omega: number, F: Monty31Params): void {
  const { add: bbAdd, sub: bbSub, mul: bbMul, pow: bbPow } = monty31Ops(F);
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
export function dft(values: Uint32Array, width: number, F: Monty31Params = BABY_BEAR): Uint32Array {
  const h = checkShape(values, width);
  const out = values.slice();
  const omega = twoAdicGenerator(log2Exact(h), F);
  for (let c = 0; c < width; c++) dftColumn(out, h, width, c, omega, F);
  return out;
}

/** Plonky3 idft_batch: the inverse of dft (root ω^-1, scaled by 1/h). */
export function idft(values: Uint32Array, width: number, F: Monty31Params = BABY_BEAR): Uint32Array {
  const { inv, mul } = monty31Ops(F);
  const h = checkShape(values, width);
  const out = values.slice();
  const omegaInv = inv(twoAdicGenerator(log2Exact(h), F));
  for (let c = 0; c < width; c++) dftColumn(out, h, width, c, omegaInv, F);
  const hInv = inv(h);
  for (let i = 0; i < out.length; i++) out[i] = mul(out[i], hInv);
  return out;
}

/** Zero rows appended up to h·2^addedBits, rows multiplied by shift^row, then dft. */
function padScaleDft(coeffs: Uint32Array, width: number, addedBits: number, shift: number, F: Monty31Params): Uint32Array {
  const { mul: bbMul } = monty31Ops(F);
  const h = coeffs.length / width;
  const padded = new Uint32Array(h * 2 ** addedBits * width);
  let s = 1;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < width; c++) padded[r * width + c] = bbMul(coeffs[r * width + c], s);
    s = bbMul(s, shift);
  }
  return dft(padded, width, F);
}

/** Plonky3 coset_lde_batch(evals, addedBits, shift): output row i is f(shift·ω'^i), natural order. */
export function cosetLde(evals: Uint32Array, width: number, addedBits: number, shift: number, F: Monty31Params = BABY_BEAR): Uint32Array {
  checkShape(evals, width);
  return padScaleDft(idft(evals, width, F), width, addedBits, shift, F);
}

/** WHIR Reed-Solomon encoding (p3_commit Encoder::encode_batch): zero-pad to h·2^addedBits rows, dft. */
export function encode(coeffs: Uint32Array, width: number, addedBits: number, F: Monty31Params = BABY_BEAR): Uint32Array {
  checkShape(coeffs, width);
  return padScaleDft(coeffs, width, addedBits, 1, F);
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
