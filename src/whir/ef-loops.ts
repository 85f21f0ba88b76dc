/**
 * The CPU sumcheck's inner loops over EfVec tables, without allocating: products of two
 * canonical values come from babybear-fast.ts (exact, canonical); a sum of up to a few reduced
 * products times W = 11 stays exact in a double, so an extension product costs 16 base products
 * and 4 reductions. Each function matches its allocating twin in multilinear.ts / sumcheck.ts.
 * @module
 */
import { BB_P } from '../params/babybear.js';
import { bbMulFast, bbReduceWide } from '../field/babybear-fast.js';
import type { EfVec, Ext4 } from './ext.js';

const P = BB_P;
// Module constants, not the imported bindings, which V8 reloads on every call in optimized code.
const mul = bbMulFast;
const red = bbReduceWide;

/** out[o..o+4] = a·b for a at a[ao..], b = (b0..b3). W = 11 is folded in before one reduction. */
function mulInto(
  out: EfVec,
  o: number,
  a0: number,
  a1: number,
  a2: number,
  a3: number,
  b0: number,
  b1: number,
  b2: number,
  b3: number,
): void {
  out[o] = red(mul(a0, b0) + 11 * (mul(a1, b3) + mul(a2, b2) + mul(a3, b1)));
  out[o + 1] = red(mul(a0, b1) + mul(a1, b0) + 11 * (mul(a2, b3) + mul(a3, b2)));
  out[o + 2] = red(mul(a0, b2) + mul(a1, b1) + mul(a2, b0) + 11 * mul(a3, b3));
  out[o + 3] = red(mul(a0, b3) + mul(a1, b2) + mul(a2, b1) + mul(a3, b0));
}

const scratch = new Uint32Array(4);

/** Bind the last variable of base-field evaluations to r: out[j] = e[2j] + r·(e[2j+1] - e[2j]). */
export function foldBase(evals: Uint32Array, r: Ext4): EfVec {
  const half = evals.length >>> 1;
  const out = new Uint32Array(4 * half);
  const [r0, r1, r2, r3] = r;
  for (let j = 0; j < half; j++) {
    const lo = evals[2 * j];
    let d = evals[2 * j + 1] - lo;
    if (d < 0) d += P;
    const o = 4 * j;
    const c0 = lo + mul(r0, d);
    out[o] = c0 >= P ? c0 - P : c0;
    out[o + 1] = mul(r1, d);
    out[o + 2] = mul(r2, d);
    out[o + 3] = mul(r3, d);
  }
  return out;
}

/** Bind the last variable of extension-field evaluations to r. */
export function foldExt(evals: EfVec, r: Ext4): EfVec {
  const half = evals.length >>> 3;
  const out = new Uint32Array(4 * half);
  const [r0, r1, r2, r3] = r;
  for (let j = 0; j < half; j++) {
    const lo = 8 * j;
    const hi = lo + 4;
    const d0 = sub(evals[hi], evals[lo]),
      d1 = sub(evals[hi + 1], evals[lo + 1]);
    const d2 = sub(evals[hi + 2], evals[lo + 2]),
      d3 = sub(evals[hi + 3], evals[lo + 3]);
    mulInto(scratch, 0, d0, d1, d2, d3, r0, r1, r2, r3);
    const o = 4 * j;
    out[o] = add(evals[lo], scratch[0]);
    out[o + 1] = add(evals[lo + 1], scratch[1]);
    out[o + 2] = add(evals[lo + 2], scratch[2]);
    out[o + 3] = add(evals[lo + 3], scratch[3]);
  }
  return out;
}

/** [h(0), h(∞)] for base evaluations against extension weights. */
export function roundMessageBase(e: Uint32Array, w: EfVec): [Ext4, Ext4] {
  const s = [0, 0, 0, 0, 0, 0, 0, 0];
  const half = e.length >>> 1;
  for (let j = 0; j < half; j++) {
    const e0 = e[2 * j];
    const de = sub(e[2 * j + 1], e0);
    const lo = 8 * j;
    for (let k = 0; k < 4; k++) {
      const w0 = w[lo + k];
      s[k] += mul(w0, e0);
      s[4 + k] += mul(sub(w[lo + 4 + k], w0), de);
    }
    if ((j & 0xffff) === 0xffff) for (let k = 0; k < 8; k++) s[k] = red(s[k]);
  }
  return [
    [red(s[0]), red(s[1]), red(s[2]), red(s[3])],
    [red(s[4]), red(s[5]), red(s[6]), red(s[7])],
  ];
}

/** [h(0), h(∞)] for extension evaluations against extension weights. */
export function roundMessageExt(e: EfVec, w: EfVec): [Ext4, Ext4] {
  const s = [0, 0, 0, 0, 0, 0, 0, 0];
  const half = e.length >>> 3;
  for (let j = 0; j < half; j++) {
    const lo = 8 * j;
    const hi = lo + 4;
    mulInto(scratch, 0, e[lo], e[lo + 1], e[lo + 2], e[lo + 3], w[lo], w[lo + 1], w[lo + 2], w[lo + 3]);
    s[0] += scratch[0];
    s[1] += scratch[1];
    s[2] += scratch[2];
    s[3] += scratch[3];
    mulInto(
      scratch,
      0,
      sub(e[hi], e[lo]),
      sub(e[hi + 1], e[lo + 1]),
      sub(e[hi + 2], e[lo + 2]),
      sub(e[hi + 3], e[lo + 3]),
      sub(w[hi], w[lo]),
      sub(w[hi + 1], w[lo + 1]),
      sub(w[hi + 2], w[lo + 2]),
      sub(w[hi + 3], w[lo + 3]),
    );
    s[4] += scratch[0];
    s[5] += scratch[1];
    s[6] += scratch[2];
    s[7] += scratch[3];
    if ((j & 0xffff) === 0xffff) for (let k = 0; k < 8; k++) s[k] = red(s[k]);
  }
  return [
    [red(s[0]), red(s[1]), red(s[2]), red(s[3])],
    [red(s[4]), red(s[5]), red(s[6]), red(s[7])],
  ];
}

/** weights += coeff·eq(point, ·), the eq table built in place variable by variable (MSB first). */
export function addEq(weights: EfVec, point: readonly Ext4[], coeff: Ext4): void {
  const size = 1 << point.length;
  const t = new Uint32Array(4 * size);
  t.set(coeff, 0);
  for (let v = 0, len = 1; v < point.length; v++, len *= 2) {
    const [p0, p1, p2, p3] = point[v];
    // Walk backwards so entry j is read before 2j and 2j+1 overwrite it.
    for (let j = len - 1; j >= 0; j--) {
      const a0 = t[4 * j],
        a1 = t[4 * j + 1],
        a2 = t[4 * j + 2],
        a3 = t[4 * j + 3];
      mulInto(t, 8 * j + 4, a0, a1, a2, a3, p0, p1, p2, p3);
      t[8 * j] = sub(a0, t[8 * j + 4]);
      t[8 * j + 1] = sub(a1, t[8 * j + 5]);
      t[8 * j + 2] = sub(a2, t[8 * j + 6]);
      t[8 * j + 3] = sub(a3, t[8 * j + 7]);
    }
  }
  for (let i = 0; i < 4 * size; i++) weights[i] = add(weights[i], t[i]);
}

/** weights[b] += coeff·x^b. */
export function addSelect(weights: EfVec, x: number, coeff: Ext4): void {
  const [c0, c1, c2, c3] = coeff;
  let pow = 1;
  for (let b = 0, o = 0; o < weights.length; b++, o += 4) {
    weights[o] = add(weights[o], mul(c0, pow));
    weights[o + 1] = add(weights[o + 1], mul(c1, pow));
    weights[o + 2] = add(weights[o + 2], mul(c2, pow));
    weights[o + 3] = add(weights[o + 3], mul(c3, pow));
    pow = mul(pow, x);
  }
}

function add(a: number, b: number): number {
  const s = a + b;
  return s >= P ? s - P : s;
}

function sub(a: number, b: number): number {
  const d = a - b;
  return d < 0 ? d + P : d;
}
