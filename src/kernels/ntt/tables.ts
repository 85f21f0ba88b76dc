/**
 * The tables the NTT's kernels read, built on the CPU once per device (./record.ts caches them):
 * the lo/hi powers of the field's largest root ω_{2^A} (twiddleTable; A = 27 for BabyBear), an
 * inverse transform's scale c·g^i (scaleTable), a middle pass's twiddles (passTwiddleTable), a
 * split table for passes too large for one (passSplitTable), a two-level pass's inner twiddles
 * (innerTwiddleTable); and NttTable, the plan's description of one of them (./plan.ts), whose key
 * names its buffer in the cache. Every table is of one 31-bit field, given as its record
 * (BabyBear when absent).
 * @module
 */
import { BABY_BEAR } from '../../params/babybear.js';
import { MONTY31_FIELDS, type FieldName, type Monty31Params } from '../../params/fields.js';
import { monty31Ops } from '../../field/monty31-ops.js';
import { fastMul, fillPowers } from '../../field/power-runs.js';
import { twoAdicGenerator } from '../../field/two-adic.js';
import { NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS, splitBits } from './passes.js';

// Every table below is runs of powers (fillPowers: one product per entry, Shoup quotients without
// divisions, Montgomery form by starting a run at toMonty(first)), not a general multiply, a pow or
// a toMonty per entry: a first lde 2^22 x 8 after 2^17 x 8 builds a 2 M-word table, 21-26 ms that
// way and 3.5-6 ms this one on the same CPU (bench/ntt-tables.ts; bench/RESULTS.md, cold).

/** x in Montgomery form (x·2^32 mod p): the product with R mod p, F.one. */
const monty = (x: number, F: Monty31Params) => fastMul(x, F.one, F);

/**
 * Twiddle table (Montgomery form), the same for every size: see the NTT_TW_* layout above; the hi
 * part has 2^(A − 14) entries, A = the field's two-adicity (BabyBear 2^13, KoalaBear 2^10).
 */
export function twiddleTable(F: Monty31Params = BABY_BEAR): Uint32Array {
  const t = new Uint32Array(NTT_TW_HI + (1 << (F.twoAdicity - NTT_TW_LO_BITS)));
  const top = twoAdicGenerator(F.twoAdicity, F);
  fillPowers(t, NTT_TW_LO, 1 << NTT_TW_LO_BITS, F.one, top, F);
  let gHi = top;
  for (let i = 0; i < NTT_TW_LO_BITS; i++) gHi = fastMul(gHi, gHi, F);
  fillPowers(t, NTT_TW_HI, 1 << (F.twoAdicity - NTT_TW_LO_BITS), F.one, gHi, F);
  return t;
}

/** An inverse transform's scale (c, g, n) for scaleTable: 1/n and ω_n, times shift^i for an lde's coset (NTT_FLAG_INVERSE). */
export function inverseScale(n: number, shift = 1, F: Monty31Params = BABY_BEAR): [number, number, number] {
  const { inv, mul } = monty31Ops(F);
  return [inv(n), mul(shift, twoAdicGenerator(Math.round(Math.log2(n)), F)), n];
}

/**
 * Scale table for out[dest] ·= c · g^dest, dest < n: lo[i] = c·g^i (i < 2^14), then
 * hi[i] = g^(i·2^14) for i < ceil(n / 2^14); Montgomery form. About 2^14 + n/2^14 multiplies.
 */
export function scaleTable(c: number, g: number, n: number, F: Monty31Params = BABY_BEAR): Uint32Array {
  const lo = 1 << NTT_TW_LO_BITS;
  const hiCount = Math.max(1, Math.ceil(n / lo));
  const t = new Uint32Array(lo + hiCount);
  fillPowers(t, 0, lo, monty(c, F), g, F);
  let step = g;
  for (let i = 0; i < NTT_TW_LO_BITS; i++) step = fastMul(step, step, F);
  fillPowers(t, lo, hiCount, F.one, step, F);
  return t;
}

/**
 * The scale an lde folds into its tables instead of multiplying each idft output by c·g^i
 * (layout.ts scaleFold): c = 1/h and g = shift·ω_h (inverseScale). Coefficient i = a + q·Ns, a < Ns
 * (Ns of the idft's last pass): c·g^a goes into that pass's split table as a per-group factor,
 * g^(Ns·q) into the dft's first-pass table as a per-row factor (passTwiddleTable's rowFactor).
 */
export interface SplitScale {
  c: number;
  g: number;
}

/**
 * Twiddles of a pass too large for one table, as two small ones: ω^(k·r) = ω^(kl·r) · ω^(kh·2^h·r)
 * with k = kh·2^h + kl, h = splitBits(Ns), ω = ω_{Ns·R}. Layout (L = 2^h, H = Ns / L, plain values
 * each followed by their Shoup quotients): lo[r·L + kl] for 0 ≤ r < R, quotients at + R·L; then from
 * 2R·L, hi[r·H + kh], quotients at + R·H.
 * Row 0 is ones unless scaled. 2^24's last two-level pass (Ns = 2^16, R = 256): 2 · 2 · 256 · 256
 * words = 1 MiB, read from L2.
 *
 * With `scale` (an lde's idft last pass, NTT_FLAG_FOLDED_SCALE) the pass's outputs in group k are
 * coefficients i ≡ k mod Ns, so the group's inputs also take c·g^k = [g^kl] · [c·g^(kh·L)], one
 * factor in each half (row 0 included), with no multiply of its own.
 */
export function passSplitTable(ns: number, radix: number, scale?: SplitScale, F: Monty31Params = BABY_BEAR): Uint32Array {
  const h = splitBits(ns),
    L = 2 ** h,
    H = ns / L;
  const w = twoAdicGenerator(Math.round(Math.log2(ns * radix)), F);
  const t = new Uint32Array(2 * radix * (L + H));
  const g = scale ? scale.g : 1;
  // row r = first · (ω^(step·r) · ratio)^k for k < count
  const rows = (base: number, count: number, step: number, first: number, ratio: number) => {
    let wStep = w;
    for (let s = 1; s < step; s *= 2) wStep = fastMul(wStep, wStep, F);
    for (let r = 0, wr = ratio; r < radix; r++, wr = fastMul(wr, wStep, F))
      fillPowers(t, base + r * count, count, first, wr, F, radix * count);
  };
  let gL = g;
  for (let s = 1; s < L; s *= 2) gL = fastMul(gL, gL, F);
  rows(0, L, 1, 1, g);
  rows(2 * radix * L, H, L, scale ? scale.c : 1, gL);
  return t;
}

/** Twiddle (plain value) of group k, row r from a split table, as the kernels index it (splitMul in scripts/gen-ntt-wgsl.ts). */
export function splitTwiddle(t: Uint32Array, ns: number, radix: number, k: number, r: number, F: Monty31Params = BABY_BEAR): number {
  const h = splitBits(ns),
    L = 2 ** h,
    H = ns / L;
  return monty31Ops(F).mul(t[r * L + (k % L)], t[2 * radix * L + r * H + Math.floor(k / L)]);
}

/**
 * A two-level pass's inner twiddles ω_T^(j·r) (T = R·R; passTwiddleTable(R, R) with Shoup
 * quotients), one vec4 per entry (r − 1)·R + j: the value, its quotient, and the quotient's low and
 * high 16 bits, so the kernel's one 16-byte load brings the halves its emulated mulhi needs.
 */
export function innerTwiddleTable(R: number, F: Monty31Params = BABY_BEAR): Uint32Array {
  const t = passTwiddleTable(R, R, true, 1, F),
    half = (R - 1) * R;
  const out = new Uint32Array(4 * half);
  for (let i = 0; i < half; i++) {
    const q = t[half + i];
    out[4 * i] = t[i];
    out[4 * i + 1] = q;
    out[4 * i + 2] = q & 0xffff;
    out[4 * i + 3] = q >>> 16;
  }
  return out;
}

/**
 * A middle pass's twiddles: entry (r − 1)·Ns + k = ω_{Ns·R}^(k·r) for 1 ≤ r < R, k < Ns
 * (consecutive k, i.e. consecutive threads, read consecutive words), in Montgomery form; with
 * `shoup`, plain values and then, (R − 1)·Ns words on, their Shoup quotients (bbShoupQuotient).
 * One row of powers of ω^r per r: Ns·R products, once per (Ns, R, form) and device (./record.ts caches it).
 * `rowFactor` f multiplies row r by f^r too: an lde's dft first pass takes its scale's g^(Ns·q) so (SplitScale).
 */
export function passTwiddleTable(ns: number, radix: number, shoup = false, rowFactor = 1, F: Monty31Params = BABY_BEAR): Uint32Array {
  const w = twoAdicGenerator(Math.round(Math.log2(ns * radix)), F);
  const half = (radix - 1) * ns;
  const t = new Uint32Array(shoup ? 2 * half : half);
  let wr = w,
    f = rowFactor;
  for (let r = 1; r < radix; r++) {
    fillPowers(t, (r - 1) * ns, ns, shoup ? f : monty(f, F), wr, F, shoup ? half : undefined);
    wr = fastMul(wr, w, F);
    f = fastMul(f, rowFactor, F);
  }
  return t;
}

/**
 * One table a pass binds, as the plan names it: the shared lo/hi powers, an inverse transform's
 * scale, a middle pass's twiddles (Montgomery or Shoup form), a split table, a two-level pass's
 * inner twiddles, or a table with an lde's / idft's scale folded in (the split table of the idft's
 * last pass, the row table of the dft's first: ./layout.ts scaleFold). `field`: the values' field,
 * BabyBear when absent (BabyBear's tables keep the labels they always had).
 */
export type NttTable = { readonly field?: FieldName } & (
  | { readonly kind: 'powers' }
  | { readonly kind: 'scale'; readonly c: number; readonly g: number; readonly n: number }
  | { readonly kind: 'montgomery' | 'shoup' | 'split'; readonly ns: number; readonly radix: number }
  | { readonly kind: 'inner'; readonly radix: number }
  | { readonly kind: 'folded-split'; readonly ns: number; readonly radix: number; readonly scale: SplitScale }
  | { readonly kind: 'folded-rows'; readonly ns: number; readonly radix: number; readonly scale: SplitScale; readonly rowFactor: number }
);

/**
 * Where the recording caches a table's buffer: 'fixed' tables (the powers, per-(Ns, R) twiddles:
 * a handful per device) are kept; 'scaled' ones (one per scale c, g: per shift and size) are
 * dropped together past a bound.
 */
export function tableCache(t: NttTable): 'fixed' | 'scaled' {
  return t.kind === 'scale' || t.kind === 'folded-split' || t.kind === 'folded-rows' ? 'scaled' : 'fixed';
}

/** The table's buffer label, which is also its cache key: another field's tables carry its name first. */
export function tableLabel(t: NttTable): string {
  return t.field && t.field !== 'babybear' ? `${t.field} ${fieldlessLabel(t)}` : fieldlessLabel(t);
}

function fieldlessLabel(t: NttTable): string {
  switch (t.kind) {
    case 'powers':
      return 'ntt twiddles';
    case 'scale':
      return `ntt scale ${t.c},${t.g},${t.n}`;
    case 'inner':
      return `ntt twiddles inner ${t.radix},${t.radix}`;
    case 'folded-split':
      return `ntt folded split ${t.ns},${t.radix} c${t.scale.c} g${t.scale.g}`;
    case 'folded-rows':
      return `ntt folded rows ${t.ns},${t.radix} c${t.scale.c} g${t.scale.g}`;
    default:
      return `ntt twiddles ${t.kind} ${t.ns},${t.radix}`;
  }
}

/** The table's words, in the table's field. */
export function tableWords(t: NttTable): Uint32Array {
  const F = MONTY31_FIELDS[t.field ?? 'babybear'];
  switch (t.kind) {
    case 'powers':
      return twiddleTable(F);
    case 'scale':
      return scaleTable(t.c, t.g, t.n, F);
    case 'inner':
      return innerTwiddleTable(t.radix, F);
    case 'split':
      return passSplitTable(t.ns, t.radix, undefined, F);
    case 'folded-split':
      return passSplitTable(t.ns, t.radix, t.scale, F);
    case 'folded-rows':
      return passTwiddleTable(t.ns, t.radix, true, t.rowFactor, F);
    default:
      return passTwiddleTable(t.ns, t.radix, t.kind === 'shoup', 1, F);
  }
}
