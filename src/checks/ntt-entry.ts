/**
 * One output value of an NTT, evaluated directly from its definition in O(h): a sound spot check
 * of a GPU result that shares no code with the GPU's passes or with the reference's butterflies.
 *   dft, encode: the column as coefficients at z = ω^i (ω of the output's order)
 *   idft: h^-1 · the column as coefficients at z = ω^-i
 *   lde: the column's interpolant on the subgroup of order h (barycentric form) at shift·ω'^i
 * @module
 */
import { bbAdd, bbBatchInv, bbInv, bbMul, bbPow, bbSub } from '../field/babybear.js';
import { log2Exact, reverseBits, twoAdicGenerator } from '../field/two-adic.js';
import { outputHeight, type NttJob } from '../kernels/ntt/job.js';

/** Σ_j x_j·z^j over column c of a row-major h × w matrix (Horner, from the top). */
function evalColumn(values: Uint32Array, h: number, w: number, c: number, z: number): number {
  let acc = 0;
  for (let j = h - 1; j >= 0; j--) acc = bbAdd(bbMul(acc, z), values[j * w + c]);
  return acc;
}

/** The interpolant of column c on the subgroup <ω> of order h, at z (barycentric). */
function interpolantAt(values: Uint32Array, h: number, w: number, c: number, z: number): number {
  const omega = twoAdicGenerator(log2Exact(h));
  const diffs = new Uint32Array(h);
  let wj = 1;
  for (let j = 0; j < h; j++) {
    if (wj === z) return values[j * w + c]; // z is a node: the interpolant is the value there
    diffs[j] = bbSub(z, wj);
    wj = bbMul(wj, omega);
  }
  const inv = bbBatchInv(diffs);
  let sum = 0;
  wj = 1;
  for (let j = 0; j < h; j++) {
    sum = bbAdd(sum, bbMul(bbMul(values[j * w + c], wj), inv[j]));
    wj = bbMul(wj, omega);
  }
  // p(z) = (z^h - 1)/h · Σ_j x_j·ω^j/(z - ω^j)
  return bbMul(bbMul(bbSub(bbPow(z, h), 1), bbInv(h)), sum);
}

/** Output row `row` (in the output's order), column `c`, of `spec` applied to `values`. */
export function nttEntry(spec: NttJob, values: Uint32Array, row: number, c: number): number {
  const { height: h, width: w } = spec;
  const outH = outputHeight(spec);
  const outBits = log2Exact(outH);
  const i = spec.bitReversed ? reverseBits(row, outBits) : row;
  const root = bbPow(twoAdicGenerator(outBits), i);
  switch (spec.op) {
    case 'dft':
    case 'encode':
      return evalColumn(values, h, w, c, root);
    case 'idft':
      return bbMul(evalColumn(values, h, w, c, bbInv(root)), bbInv(h));
    case 'lde':
      return interpolantAt(values, h, w, c, bbMul(spec.shift!, root));
  }
}
