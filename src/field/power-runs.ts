/**
 * Runs of powers first·ratio^i of a 31-bit prime field written straight into a Uint32Array, with
 * their Shoup quotients: what the NTT's twiddle and scale tables are made of
 * (src/kernels/ntt/tables.ts). A first call at a new size builds a table of up to 2 M words, and
 * the field's general multiply (monty31-ops.ts mul: two float reductions per product) made
 * that the largest CPU cost of the call (bench/ntt-tables.ts).
 *
 * Here a product costs one float quotient and two 32-bit multiplies: q = floor(a·b·(1/p)⁻),
 * with (1/p)⁻ just below 1/p, is the true quotient or one less, so a·b − q·p lies in [0, 2p),
 * below 2^32 for p < 2^31, and its low 32 bits (Math.imul) are exact; one conditional
 * subtraction reduces it. Shoup's quotient floor(x·2^31 / p) takes the same steps. Values are
 * exact, so tables equal those built with any other exact arithmetic, bit for bit.
 * @module
 */
import type { Monty31Params } from '../params/monty31.js';

/**
 * 1/p and 2^31/p scaled down by 2^-50: with every double rounding (2^-53 each) they stay below
 * the exact quotients and within 2^-48 of them, so for operands below 2^62 the floor of a·b·INV
 * is off by at most one, downwards (a product below 2^62 over p is below 2^31: error < 2^-17).
 */
const BELOW = 1 - 2 ** -50;

// Both corrections are computed before the select, not inside its branch: they are needed about
// once in 2^17 values, so small tables never run them, and V8 then compiled the branch as a
// deoptimization that a first large table hit (its build took ~4x its steady time here).

/** a·b mod p for canonical a, b < p < 2^31; invP = (1/p)·BELOW. */
function mulMod(a: number, b: number, p: number, invP: number): number {
  const q = Math.floor(a * b * invP);
  const r = (Math.imul(a, b) - Math.imul(q, p)) >>> 0;
  const s = r - p;
  return s < 0 ? r : s;
}

/** floor(x·2^31 / p) for canonical x; k31 = (2^31/p)·BELOW. x·2^31 mod 2^32 is (x & 1) << 31. */
function shoupOf(x: number, p: number, k31: number): number {
  const q = Math.floor(x * k31);
  const r = ((x << 31) - Math.imul(q, p)) >>> 0;
  const up = q + 1;
  return r < p ? q : up;
}

/** a·b mod p in field F, by the float quotient above (canonical inputs and output). */
export function fastMul(a: number, b: number, F: Monty31Params): number {
  return mulMod(a, b, F.p, BELOW / F.p);
}

/** Shoup's quotient floor(x·2^31 / p) of a canonical x in field F (params/monty31.ts shoupQuotient, without divisions). */
export function fastShoupQuotient(x: number, F: Monty31Params): number {
  return shoupOf(x, F.p, (2 ** 31 / F.p) * BELOW);
}

/**
 * Write first·ratio^i for i < count at out[at + i] (canonical values of F; pass first in
 * Montgomery form for a Montgomery-form run: ratio is plain). With `quotientOffset`, each value's
 * Shoup quotient also goes `quotientOffset` words after it. Four interleaved chains (each
 * multiplying by ratio^4) instead of one: a chain waits for each product, four overlap, ~2.5x
 * faster here on V8.
 */
export function fillPowers(
  out: Uint32Array,
  at: number,
  count: number,
  first: number,
  ratio: number,
  F: Monty31Params,
  quotientOffset?: number,
): void {
  const p = F.p,
    invP = BELOW / p,
    k31 = (2 ** 31 / p) * BELOW;
  const q = quotientOffset ?? -1;
  const r2 = mulMod(ratio, ratio, p, invP),
    r4 = mulMod(r2, r2, p, invP);
  let x0 = first,
    x1 = mulMod(first, ratio, p, invP),
    x2 = mulMod(first, r2, p, invP),
    x3 = mulMod(x2, ratio, p, invP);
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const j = at + i;
    out[j] = x0;
    out[j + 1] = x1;
    out[j + 2] = x2;
    out[j + 3] = x3;
    if (q >= 0) {
      out[q + j] = shoupOf(x0, p, k31);
      out[q + j + 1] = shoupOf(x1, p, k31);
      out[q + j + 2] = shoupOf(x2, p, k31);
      out[q + j + 3] = shoupOf(x3, p, k31);
    }
    x0 = mulMod(x0, r4, p, invP);
    x1 = mulMod(x1, r4, p, invP);
    x2 = mulMod(x2, r4, p, invP);
    x3 = mulMod(x3, r4, p, invP);
  }
  // At most three left: x0..x2 hold exactly their values.
  const rest = [x0, x1, x2];
  for (let k = 0; i < count; i++, k++) {
    out[at + i] = rest[k];
    if (q >= 0) out[q + at + i] = shoupOf(rest[k], p, k31);
  }
}
