/**
 * One output value of an NTT, evaluated directly from its definition in O(h): a sound spot check
 * of a GPU result that shares no code with the GPU's passes or with the reference's butterflies.
 *   dft, encode: the column as coefficients at z = ω^i (ω of the output's order)
 *   idft: h^-1 · the column as coefficients at z = ω^-i
 *   lde: the column's interpolant on the subgroup of order h (barycentric form) at shift·ω'^i
 * @module
 */
import { monty31Ops, type Monty31Ops } from '../field/monty31-ops.js';
import { log2Exact, reverseBits, twoAdicGenerator } from '../field/two-adic.js';
import { jobField, outputHeight, type NttJob } from '../kernels/ntt/job.js';

/** Σ_j x_j·z^j over column c of a row-major h × w matrix (Horner, from the top). */
function evalColumn(f: Monty31Ops, values: Uint32Array, h: number, w: number, c: number, z: number): number {
  let acc = 0;
  for (let j = h - 1; j >= 0; j--) acc = f.add(f.mul(acc, z), values[j * w + c]);
  return acc;
}

/** The interpolant of column c on the subgroup <ω> of order h, at z (barycentric). */
function interpolantAt(f: Monty31Ops, values: Uint32Array, h: number, w: number, c: number, z: number): number {
  const omega = twoAdicGenerator(log2Exact(h), f.field);
  const diffs = new Uint32Array(h);
  let wj = 1;
  for (let j = 0; j < h; j++) {
    if (wj === z) return values[j * w + c]; // z is a node: the interpolant is the value there
    diffs[j] = f.sub(z, wj);
    wj = f.mul(wj, omega);
  }
  const inv = f.batchInv(diffs);
  let sum = 0;
  wj = 1;
  for (let j = 0; j < h; j++) {
    sum = f.add(sum, f.mul(f.mul(values[j * w + c], wj), inv[j]));
    wj = f.mul(wj, omega);
  }
  // p(z) = (z^h - 1)/h · Σ_j x_j·ω^j/(z - ω^j)
  return f.mul(f.mul(f.sub(f.pow(z, h), 1), f.inv(h)), sum);
}

/** Output row `row` (in the output's order), column `c`, of `spec` applied to `values`, in the job's field. */
export function nttEntry(spec: NttJob, values: Uint32Array, row: number, c: number): number {
  const { height: h, width: w } = spec;
  const f = monty31Ops(jobField(spec));
  const outH = outputHeight(spec);
  const outBits = log2Exact(outH);
  const i = spec.bitReversed ? reverseBits(row, outBits) : row;
  const root = f.pow(twoAdicGenerator(outBits, f.field), i);
  switch (spec.op) {
    case 'dft':
    case 'encode':
      return evalColumn(f, values, h, w, c, root);
    case 'idft':
      return f.mul(evalColumn(f, values, h, w, c, f.inv(root)), f.inv(h));
    case 'lde':
      return interpolantAt(f, values, h, w, c, f.mul(spec.shift!, root));
  }
}
