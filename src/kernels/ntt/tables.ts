/**
 * The tables the NTT's kernels read, built on the CPU once per device (./record.ts caches them):
 * the lo/hi powers of the field's largest root ω_{2^A} (twiddleTable; A = 27 for BabyBear), an
 * inverse transform's scale c·g^i (scaleTable), a middle pass's twiddles (passTwiddleTable), a split table for passes too large for one
 * (passSplitTable), a two-level pass's inner twiddles (innerTwiddleTable); and NttTable, the
 * plan's description of one of them (./plan.ts), whose key names its buffer in the cache.
 * Every table is of one 31-bit field, given as its record (BabyBear when absent): its roots of
 * unity, its Montgomery form and its Shoup quotients.
 * @module
 */
import { BABY_BEAR } from '../../params/babybear.js';
import { MONTY31_FIELDS, type FieldName, type Monty31Params } from '../../params/fields.js';
import { monty31Ops } from '../../field/monty31-ops.js';
import { twoAdicGenerator } from '../../field/two-adic.js';
import { NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS, splitBits } from './passes.js';

/**
 * Twiddle table (Montgomery form), the same for every size: see the NTT_TW_* layout above; the hi
 * part has 2^(A − 14) entries, A = the field's two-adicity (BabyBear 2^13, KoalaBear 2^10).
 */
export function twiddleTable(F: Monty31Params = BABY_BEAR): Uint32Array {
  const { mul, toMonty } = monty31Ops(F);
  const t = new Uint32Array(NTT_TW_HI + (1 << (F.twoAdicity - NTT_TW_LO_BITS)));
  const pow = (g: number, count: number, at: number) => {
    let x = 1;
    for (let i = 0; i < count; i++, x = mul(x, g)) t[at + i] = toMonty(x);
  };
  const gTop = twoAdicGenerator(F.twoAdicity, F);
  pow(gTop, 1 << NTT_TW_LO_BITS, NTT_TW_LO);
  let gHi = gTop;
  for (let i = 0; i < NTT_TW_LO_BITS; i++) gHi = mul(gHi, gHi);
  pow(gHi, 1 << (F.twoAdicity - NTT_TW_LO_BITS), NTT_TW_HI);
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
  const { mul, pow, toMonty } = monty31Ops(F);
  const lo = 1 << NTT_TW_LO_BITS;
  const hiCount = Math.max(1, Math.ceil(n / lo));
  const t = new Uint32Array(lo + hiCount);
  let x = c;
  for (let i = 0; i < lo; i++, x = mul(x, g)) t[i] = toMonty(x);
  const step = pow(g, lo);
  let y = 1;
  for (let i = 0; i < hiCount; i++, y = mul(y, step)) t[lo + i] = toMonty(y);
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
  const { mul, pow, shoupQuotient } = monty31Ops(F);
  const h = splitBits(ns),
    L = 2 ** h,
    H = ns / L;
  const w = twoAdicGenerator(Math.round(Math.log2(ns * radix)), F);
  const t = new Uint32Array(2 * radix * (L + H));
  const g = scale ? scale.g : 1;
  // entry (r, k) = ω^(k·step·r) · first · ratio^k
  const fill = (base: number, count: number, step: number, first: number, ratio: number) => {
    const q = radix * count;
    const wStep = pow(w, step);
    for (let r = 0; r < radix; r++) {
      const wr = mul(pow(wStep, r), ratio);
      for (let k = 0, x = first; k < count; k++, x = mul(x, wr)) {
        t[base + r * count + k] = x;
        t[base + q + r * count + k] = shoupQuotient(x);
      }
    }
  };
  fill(0, L, 1, 1, g);
  fill(2 * radix * L, H, L, scale ? scale.c : 1, pow(g, L));
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
  for (let i = 0; i < half; i++) out.set([t[i], t[half + i], t[half + i] & 0xffff, t[half + i] >>> 16], 4 * i);
  return out;
}

/**
 * A middle pass's twiddles: entry (r − 1)·Ns + k = ω_{Ns·R}^(k·r) for 1 ≤ r < R, k < Ns
 * (consecutive k, i.e. consecutive threads, read consecutive words), in Montgomery form; with
 * `shoup`, plain values and then, (R − 1)·Ns words on, their Shoup quotients (shoupQuotient).
 * Ns·R multiplies on the CPU, once per (Ns, R, form) and device (./record.ts caches it).
 * `rowFactor` f multiplies row r by f^r too: an lde's dft first pass takes its scale's g^(Ns·q) so (SplitScale).
 */
export function passTwiddleTable(ns: number, radix: number, shoup = false, rowFactor = 1, F: Monty31Params = BABY_BEAR): Uint32Array {
  const { mul, toMonty, shoupQuotient } = monty31Ops(F);
  const size = ns * radix;
  const w = twoAdicGenerator(Math.round(Math.log2(size)), F);
  const pow = new Uint32Array(size);
  for (let e = 0, x = 1; e < size; e++, x = mul(x, w)) pow[e] = x;
  const half = (radix - 1) * ns;
  const t = new Uint32Array(shoup ? 2 * half : half);
  for (let r = 1, f = rowFactor; r < radix; r++, f = mul(f, rowFactor)) {
    for (let k = 0; k < ns; k++) {
      const x = mul(pow[k * r], f),
        i = (r - 1) * ns + k;
      if (!shoup) t[i] = toMonty(x);
      else {
        t[i] = x;
        t[half + i] = shoupQuotient(x);
      }
    }
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

/** The table's words. */
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
