/**
 * WGSL expressions that move an integer between 8 x 32-bit words and narrower limbs, for the
 * generators that unroll those conversions (gen-bn254-fq13.ts: 13-bit limbs, gen-bn254-inv.ts:
 * 14-bit limbs). Pure string building; the generated files are checked by the unit tests.
 * @module
 */

/**
 * Bits [lo, lo + width) of the 8-word array `a` (width <= 32), masked: from word lo >> 5, plus the
 * next word when the range straddles a word boundary. A negative lo reads zeros below bit 0 (the
 * value shifted left by -lo).
 */
export function wordBits(a: string, lo: number, width: number): string {
  const mask = `0x${((1 << width) - 1).toString(16)}u`;
  if (lo < 0) return `(${a}[0] << ${-lo}u) & ${mask}`;
  const w = lo >> 5,
    sh = lo & 31;
  let e = sh ? `(${a}[${w}] >> ${sh}u)` : `${a}[${w}]`;
  if (sh + width > 32 && w + 1 < 8) e = `(${e} | (${a}[${w + 1}] << ${32 - sh}u))`;
  return `${e} & ${mask}`;
}

/**
 * Word w of 8 x 32 from `n` normalized limbs of `width` bits, limb k given as a u32 expression:
 * the OR of every limb that overlaps the word, shifted into place.
 */
export function packWord(w: number, n: number, width: number, limb: (k: number) => string): string {
  const parts: string[] = [];
  for (let k = 0; k < n; k++) {
    const lo = width * k,
      hi = lo + width;
    if (hi <= 32 * w || lo >= 32 * w + 32) continue;
    const d = lo - 32 * w;
    parts.push(d >= 0 ? (d ? `(${limb(k)} << ${d}u)` : limb(k)) : `(${limb(k)} >> ${-d}u)`);
  }
  return parts.join(' | ');
}
