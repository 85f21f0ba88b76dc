/**
 * The tables the NTT's kernels read, built on the CPU once per device (./record.ts caches them):
 * the lo/hi powers of ω_{2^27} (twiddleTable), an inverse transform's scale c·g^i (scaleTable),
 * a middle pass's twiddles (passTwiddleTable), a split table for passes too large for one
 * (passSplitTable), a two-level pass's inner twiddles (innerTwiddleTable); and NttTable, the
 * plan's description of one of them (./plan.ts), whose key names its buffer in the cache.
 * @module
 */
import { BB_TWO_ADICITY, bbShoupQuotient } from '../../params/babybear.js';
import { bbInv, bbMul, bbPow, toMonty } from '../../field/babybear.js';
import { twoAdicGenerator } from '../../field/two-adic.js';
import { NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS, NTT_TW_WORDS, splitBits } from './passes.js';

const TW_HI_BITS = BB_TWO_ADICITY - NTT_TW_LO_BITS;
/** Twiddle table (Montgomery form), the same for every size: see the NTT_TW_* layout above. */
export function twiddleTable(): Uint32Array {
  const t = new Uint32Array(NTT_TW_WORDS);
  const pow = (g: number, count: number, at: number) => {
    let x = 1;
    for (let i = 0; i < count; i++, x = bbMul(x, g)) t[at + i] = toMonty(x);
  };
  const g27 = twoAdicGenerator(BB_TWO_ADICITY);
  pow(g27, 1 << NTT_TW_LO_BITS, NTT_TW_LO);
  let gHi = g27;
  for (let i = 0; i < NTT_TW_LO_BITS; i++) gHi = bbMul(gHi, gHi);
  pow(gHi, 1 << TW_HI_BITS, NTT_TW_HI);
  return t;
}

/** An inverse transform's scale (c, g, n) for scaleTable: 1/n and ω_n, times shift^i for an lde's coset (NTT_FLAG_INVERSE). */
export function inverseScale(n: number, shift = 1): [number, number, number] {
  return [bbInv(n), bbMul(shift, twoAdicGenerator(Math.round(Math.log2(n)))), n];
}

/**
 * Scale table for out[dest] ·= c · g^dest, dest < n: lo[i] = c·g^i (i < 2^14), then
 * hi[i] = g^(i·2^14) for i < ceil(n / 2^14); Montgomery form. About 2^14 + n/2^14 multiplies.
 */
export function scaleTable(c: number, g: number, n: number): Uint32Array {
  const lo = 1 << NTT_TW_LO_BITS;
  const hiCount = Math.max(1, Math.ceil(n / lo));
  const t = new Uint32Array(lo + hiCount);
  let x = c;
  for (let i = 0; i < lo; i++, x = bbMul(x, g)) t[i] = toMonty(x);
  const step = bbPow(g, lo);
  let y = 1;
  for (let i = 0; i < hiCount; i++, y = bbMul(y, step)) t[lo + i] = toMonty(y);
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
export function passSplitTable(ns: number, radix: number, scale?: SplitScale): Uint32Array {
  const h = splitBits(ns),
    L = 2 ** h,
    H = ns / L;
  const w = twoAdicGenerator(Math.round(Math.log2(ns * radix)));
  const t = new Uint32Array(2 * radix * (L + H));
  const g = scale ? scale.g : 1;
  // entry (r, k) = ω^(k·step·r) · first · ratio^k
  const fill = (base: number, count: number, step: number, first: number, ratio: number) => {
    const q = radix * count;
    const wStep = bbPow(w, step);
    for (let r = 0; r < radix; r++) {
      const wr = bbMul(bbPow(wStep, r), ratio);
      for (let k = 0, x = first; k < count; k++, x = bbMul(x, wr)) {
        t[base + r * count + k] = x;
        t[base + q + r * count + k] = bbShoupQuotient(x);
      }
    }
  };
  fill(0, L, 1, 1, g);
  fill(2 * radix * L, H, L, scale ? scale.c : 1, bbPow(g, L));
  return t;
}

/** Twiddle (plain value) of group k, row r from a split table, as the kernels index it (splitMul in scripts/gen-ntt-wgsl.ts). */
export function splitTwiddle(t: Uint32Array, ns: number, radix: number, k: number, r: number): number {
  const h = splitBits(ns),
    L = 2 ** h,
    H = ns / L;
  return bbMul(t[r * L + (k % L)], t[2 * radix * L + r * H + Math.floor(k / L)]);
}

/**
 * A two-level pass's inner twiddles ω_T^(j·r) (T = R·R; passTwiddleTable(R, R) with Shoup
 * quotients), one vec4 per entry (r − 1)·R + j: the value, its quotient, and the quotient's low and
 * high 16 bits, so the kernel's one 16-byte load brings the halves its emulated mulhi needs.
 */
export function innerTwiddleTable(R: number): Uint32Array {
  const t = passTwiddleTable(R, R, true),
    half = (R - 1) * R;
  const out = new Uint32Array(4 * half);
  for (let i = 0; i < half; i++) out.set([t[i], t[half + i], t[half + i] & 0xffff, t[half + i] >>> 16], 4 * i);
  return out;
}

/**
 * A middle pass's twiddles: entry (r − 1)·Ns + k = ω_{Ns·R}^(k·r) for 1 ≤ r < R, k < Ns
 * (consecutive k, i.e. consecutive threads, read consecutive words), in Montgomery form; with
 * `shoup`, plain values and then, (R − 1)·Ns words on, their Shoup quotients (bbShoupQuotient).
 * Ns·R multiplies on the CPU, once per (Ns, R, form) and device (./record.ts caches it).
 * `rowFactor` f multiplies row r by f^r too: an lde's dft first pass takes its scale's g^(Ns·q) so (SplitScale).
 */
export function passTwiddleTable(ns: number, radix: number, shoup = false, rowFactor = 1): Uint32Array {
  const size = ns * radix;
  const w = twoAdicGenerator(Math.round(Math.log2(size)));
  const pow = new Uint32Array(size);
  for (let e = 0, x = 1; e < size; e++, x = bbMul(x, w)) pow[e] = x;
  const half = (radix - 1) * ns;
  const t = new Uint32Array(shoup ? 2 * half : half);
  for (let r = 1, f = rowFactor; r < radix; r++, f = bbMul(f, rowFactor)) {
    for (let k = 0; k < ns; k++) {
      const x = bbMul(pow[k * r], f),
        i = (r - 1) * ns + k;
      if (!shoup) t[i] = toMonty(x);
      else {
        t[i] = x;
        t[half + i] = bbShoupQuotient(x);
      }
    }
  }
  return t;
}

/**
 * One table a pass binds, as the plan names it: the shared lo/hi powers, an inverse transform's
 * scale, a middle pass's twiddles (Montgomery or Shoup form), a split table, a two-level pass's
 * inner twiddles, or a table with an lde's / idft's scale folded in (the split table of the idft's
 * last pass, the row table of the dft's first: ./layout.ts scaleFold).
 */
export type NttTable =
  | { readonly kind: 'powers' }
  | { readonly kind: 'scale'; readonly c: number; readonly g: number; readonly n: number }
  | { readonly kind: 'montgomery' | 'shoup' | 'split'; readonly ns: number; readonly radix: number }
  | { readonly kind: 'inner'; readonly radix: number }
  | { readonly kind: 'folded-split'; readonly ns: number; readonly radix: number; readonly scale: SplitScale }
  | { readonly kind: 'folded-rows'; readonly ns: number; readonly radix: number; readonly scale: SplitScale; readonly rowFactor: number };

/**
 * Where the recording caches a table's buffer: 'fixed' tables (the powers, per-(Ns, R) twiddles:
 * a handful per device) are kept; 'scaled' ones (one per scale c, g: per shift and size) are
 * dropped together past a bound.
 */
export function tableCache(t: NttTable): 'fixed' | 'scaled' {
  return t.kind === 'scale' || t.kind === 'folded-split' || t.kind === 'folded-rows' ? 'scaled' : 'fixed';
}

/** The table's buffer label, which is also its cache key. */
export function tableLabel(t: NttTable): string {
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
  switch (t.kind) {
    case 'powers':
      return twiddleTable();
    case 'scale':
      return scaleTable(t.c, t.g, t.n);
    case 'inner':
      return innerTwiddleTable(t.radix);
    case 'split':
      return passSplitTable(t.ns, t.radix);
    case 'folded-split':
      return passSplitTable(t.ns, t.radix, t.scale);
    case 'folded-rows':
      return passTwiddleTable(t.ns, t.radix, true, t.rowFactor);
    default:
      return passTwiddleTable(t.ns, t.radix, t.kind === 'shoup');
  }
}
