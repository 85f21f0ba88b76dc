// The GPU NTT's plan and index formulas (src/kernels/ntt-plan.ts), executed on the CPU step for
// step as wgsl/kernels/ntt_stockham.gen.wgsl does them (Montgomery tables, canonical data), against
// src/ref/ntt.ts: a wrong radix split, twiddle exponent, output mapping or scale table fails here.
import { describe, it, expect } from 'vitest';
import * as ntt from '../../src/ref/ntt.js';
import { bbAdd, bbInv, bbSub, montMul } from '../../src/ref/babybear.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_INVERSE, NTT_FLAG_LAST, NTT_FLAG_SCALE, NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS, NTT_TW_ROOTS, NTT_MAX_RADIX,
  planTransform, radices, scaleTable, twiddleTable, type NttPass,
} from '../../src/kernels/ntt-plan.js';
import { SplitMix64 } from '../support/splitmix.js';
import { readFileSync } from 'node:fs';
import { NTT_RADICES, nttWgsl } from '../../scripts/gen-ntt-wgsl.js';

const TW = twiddleTable();
const rev = (x: number, bits: number) => (bits === 0 ? 0 : parseInt(x.toString(2).padStart(bits, '0').split('').reverse().join(''), 2));

/** One pass over all threads, as the kernel does it. */
function runPass(p: NttPass, src: Uint32Array, dst: Uint32Array, w: number, sc: Uint32Array | null): void {
  const R = p.radix, m = p.n / R, logR = Math.log2(R);
  for (let t = 0; t < m * w; t++) {
    const col = t % w, j = Math.floor(t / w), k = j % p.ns;
    const v: number[] = [];
    for (let r = 0; r < R; r++) { const row = j + r * m; v.push(row < p.inRows ? src[row * w + col] : 0); }
    const e = k * 2 ** p.twShift;
    const tw = montMul(TW[NTT_TW_LO + (e % 2 ** NTT_TW_LO_BITS)], TW[NTT_TW_HI + Math.floor(e / 2 ** NTT_TW_LO_BITS)]);
    let wr = tw;
    for (let r = 1; r < R; r++) { v[r] = montMul(v[r], wr); wr = montMul(wr, tw); }
    for (let half = R >> 1; half >= 1; half >>= 1) {
      for (let b = 0; b < R; b += 2 * half) for (let i = 0; i < half; i++) {
        const a = v[b + i], c = v[b + i + half];
        v[b + i] = bbAdd(a, c);
        v[b + i + half] = montMul(bbSub(a, c), TW[NTT_TW_ROOTS + i * (NTT_MAX_RADIX / (2 * half))]);
      }
    }
    for (let s = 0; s < R; s++) {
      let dest = (j - k) * R + k + s * p.ns;
      let val = v[rev(s, logR)];
      if (p.flags & NTT_FLAG_LAST) {
        if (p.flags & NTT_FLAG_INVERSE) dest = (p.n - dest) % p.n;
        if (p.flags & NTT_FLAG_SCALE) val = montMul(val, montMul(sc![dest % 2 ** NTT_TW_LO_BITS], sc![2 ** NTT_TW_LO_BITS + Math.floor(dest / 2 ** NTT_TW_LO_BITS)]));
        if (p.flags & NTT_FLAG_BITREV) dest = rev(dest, p.logN);
      }
      dst[dest * w + col] = val;
    }
  }
}

function runPlan(passes: NttPass[], input: Uint32Array, w: number, sc: Uint32Array | null): Uint32Array {
  let src = input;
  for (const p of passes) { const dst = new Uint32Array(p.n * w); runPass(p, src, dst, w, sc); src = dst; }
  return src;
}

describe('NTT plan (CPU run of the GPU index math)', () => {
  it('wgsl/kernels/ntt_stockham.gen.wgsl is what scripts/gen-ntt-wgsl.ts generates', () => {
    expect(readFileSync(new URL('../../wgsl/kernels/ntt_stockham.gen.wgsl', import.meta.url), 'utf8')).toBe(nttWgsl());
  });

  it('radices multiply to 2^k and each has an entry point', () => {
    for (let k = 0; k <= 27; k++) {
      const rs = radices(k);
      for (const r of rs) expect(NTT_RADICES).toContain(r);
      expect(rs.reduce((a, b) => a * b, 1)).toBe(2 ** k);
      expect(Math.max(...rs)).toBeLessThanOrEqual(32);
    }
  });

  const rng = new SplitMix64(4242);
  for (const logN of [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 13]) {
    for (const w of [1, 3]) {
      it(`dft / idft / encode / lde / bitrev at 2^${logN} x ${w}`, () => {
        const n = 2 ** logN;
        const x = rng.fieldArray(n * w);
        expect(runPlan(planTransform(logN, n, 0), x, w, null)).toEqual(ntt.dft(x, w));
        expect(runPlan(planTransform(logN, n, 0, 16), x, w, null)).toEqual(ntt.dft(x, w));
        const inv = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE), x, w, scaleTable(bbInv(n), 1, n));
        expect(inv).toEqual(ntt.idft(x, w));
        const br = runPlan(planTransform(logN, n, NTT_FLAG_BITREV), x, w, null);
        expect(br).toEqual(ntt.bitReverseRows(ntt.dft(x, w), w));
        if (logN <= 10) {
          const enc = runPlan(planTransform(logN + 2, n, 0), x, w, null);
          expect(enc).toEqual(ntt.encode(x, w, 2));
          const coeffs = runPlan(planTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE), x, w, scaleTable(bbInv(n), 31, n));
          expect(runPlan(planTransform(logN + 1, n, 0), coeffs, w, null)).toEqual(ntt.cosetLde(x, w, 1, 31));
        }
      });
    }
  }
});
