// The tiled NTT's plan and index maths (src/kernels/ntt-tile-plan.ts), executed on the CPU
// workgroup by workgroup as wgsl/kernels/ntt_tile.wgsl does them (same load / DIF / store loops,
// Montgomery tables, canonical data), against src/ref/ntt.ts: a wrong tile split, lane index,
// pre-twiddle, DIF root or store order fails here, without a GPU. It also checks that the store
// order really writes runs of ≥ L contiguous words (the point of the variant) and covers every row once.
import { describe, it, expect } from 'vitest';
import * as ntt from '../../src/ref/ntt.js';
import { bbAdd, bbInv, bbSub, montMul } from '../../src/ref/babybear.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_INVERSE, NTT_FLAG_LAST, NTT_FLAG_SCALE, NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS,
  scaleTable, twiddleTable,
} from '../../src/kernels/ntt-plan.js';
import {
  NTT_TILE_ROOT_LOG, planTileTransform, tileCount, tileGeometry, tileRootTable, tileStoreSource, type NttTilePass, type NttTileShape,
} from '../../src/kernels/ntt-tile-plan.js';
import { tileJobPasses } from '../../src/kernels/ntt-tile.js';
import { SplitMix64 } from '../support/splitmix.js';

const TW = twiddleTable();
const ROOTS = tileRootTable();
const LO = 2 ** NTT_TW_LO_BITS;
const rev = (x: number, bits: number) => (bits === 0 ? 0 : parseInt(x.toString(2).padStart(bits, '0').split('').reverse().join(''), 2));
const rootPow = (e: number) => montMul(TW[NTT_TW_LO + (e % LO)], TW[NTT_TW_HI + Math.floor(e / LO)]);

/** One tile pass, workgroup by workgroup, as ntt_tile_pass runs it. Returns the destination addresses in store order. */
function runTilePass(p: NttTilePass, src: Uint32Array, dst: Uint32Array, W: number, sc: Uint32Array | null): number[][] {
  const T = 2 ** p.logT, cj = 2 ** p.logCj, L = cj * W, total = L * T, m = p.n / T;
  const stores: number[][] = [];
  for (let tileId = 0; tileId < tileCount(p); tileId++) {
    const j0 = tileId * cj;
    const tile = new Uint32Array(total);
    for (let i = 0; i < total; i++) {
      const r = Math.floor(i / L), lane = i - r * L, c = Math.floor(lane / W), j = j0 + c;
      let v = j + r * m < p.inRows ? src[j0 * W + lane + r * m * W] : 0;
      const k = j % p.ns;
      if (k !== 0 && r !== 0) v = montMul(v, rootPow(k * r * 2 ** p.twShift));
      tile[i] = v;
    }
    for (let lh = p.logT; lh > 0; lh--) {
      const logH = lh - 1, h = 2 ** logH;
      for (let b = 0; b < total / 2; b++) {
        const pp = Math.floor(b / L), lane = b - pp * L, i = pp % h;
        const r0 = Math.floor(pp / h) * 2 * h + i;
        const a0 = r0 * L + lane, a1 = a0 + h * L;
        const x = tile[a0], y = tile[a1];
        tile[a0] = bbAdd(x, y);
        let d = bbSub(x, y);
        if (i !== 0) d = montMul(d, ROOTS[i * 2 ** (NTT_TILE_ROOT_LOG - 1 - logH)]);
        tile[a1] = d;
      }
    }
    const addrs: number[] = [];
    for (let i = 0; i < total; i++) {
      const q = Math.floor(i / W), col = i - q * W;
      const { c, s } = tileStoreSource(q, p.ns, p.logCj, p.logT);
      const j = j0 + c, k = j % p.ns;
      let dest = (j - k) * T + k + s * p.ns;
      let val = tile[rev(s, p.logT) * L + c * W + col];
      if (p.flags & NTT_FLAG_LAST) {
        if (p.flags & NTT_FLAG_INVERSE) dest = (p.n - dest) % p.n;
        if (p.flags & NTT_FLAG_SCALE) val = montMul(val, montMul(sc![dest % LO], sc![LO + Math.floor(dest / LO)]));
        if (p.flags & NTT_FLAG_BITREV) dest = rev(dest, p.logN);
      }
      dst[dest * W + col] = val;
      addrs.push(dest * W + col);
    }
    stores.push(addrs);
  }
  return stores;
}

function runPlan(passes: NttTilePass[], input: Uint32Array, w: number, sc: Uint32Array | null): Uint32Array {
  let src = input;
  for (const p of passes) { const dst = new Uint32Array(p.n * w); runTilePass(p, src, dst, w, sc); src = dst; }
  return src;
}

describe('tiled NTT plan (CPU run of the workgroup-memory kernel)', () => {
  it('geometry: 16 KiB tiles give 2 passes at 2^24 x 1 with 32-byte runs of 2 or 3 passes', () => {
    expect(tileGeometry(1, { tileWords: 4096, run: 1 })).toEqual({ logCj: 0, maxLogT: 12 });
    expect(tileGeometry(1)).toEqual({ logCj: 3, maxLogT: 9 });
    expect(tileGeometry(8)).toEqual({ logCj: 0, maxLogT: 9 });
    expect(tileGeometry(3)).toEqual({ logCj: 2, maxLogT: 8 });
    expect(planTileTransform(24, 2 ** 24, 0, 1, { run: 1 }).map((p) => p.logT)).toEqual([12, 12]);
    expect(planTileTransform(24, 2 ** 24, 0, 1).map((p) => p.logT)).toEqual([8, 8, 8]);
    expect(planTileTransform(25, 2 ** 24, 0, 1, { tileWords: 8192 }).map((p) => p.logT)).toEqual([9, 8, 8]);
  });

  it('every pass radix multiplies to 2^k, groups never exceed n/T, twiddle exponents stay < 2^27', () => {
    for (const w of [1, 3, 8, 64, 1024]) {
      for (let k = 0; k <= 27; k++) {
        const ps = planTileTransform(k, 2 ** k, 0, w);
        expect(ps.reduce((a, p) => a + p.logT, 0)).toBe(k);
        for (const p of ps) {
          expect(p.logCj).toBeLessThanOrEqual(k - p.logT);
          expect(2 ** (p.logCj + p.logT) * w).toBeLessThanOrEqual(4096);
          expect(p.ns * 2 ** p.logT * 2 ** p.twShift).toBe(2 ** 27);
        }
        expect(ps[ps.length - 1].flags & NTT_FLAG_LAST).toBe(NTT_FLAG_LAST);
      }
    }
  });

  it('stores write every output word once, in runs of ≥ L contiguous words', () => {
    const rng = new SplitMix64(7);
    for (const [logN, w, shape] of [[12, 1, {}], [10, 3, {}], [9, 2, { tileWords: 64, run: 4 }], [8, 1, { tileWords: 32, run: 8 }]] as Array<[number, number, NttTileShape]>) {
      const n = 2 ** logN;
      let src = rng.fieldArray(n * w);
      for (const p of planTileTransform(logN, n, 0, w, shape)) {
        const dst = new Uint32Array(n * w);
        const stores = runTilePass({ ...p, flags: 0 }, src, dst, w, null);
        const all = stores.flat().sort((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: n * w }, (_, i) => i));
        const L = 2 ** p.logCj * w;
        for (const addrs of stores) for (let i = 0; i < addrs.length; i += L) {
          for (let t = 1; t < L; t++) expect(addrs[i + t]).toBe(addrs[i] + t);
        }
        src = dst;
      }
    }
  });

  const rng = new SplitMix64(4243);
  const shapes: NttTileShape[] = [{}, { run: 1 }, { tileWords: 64, run: 2 }, { tileWords: 16, run: 4 }];
  for (const logN of [0, 1, 2, 3, 5, 7, 10, 13]) {
    for (const w of [1, 3]) {
      it(`dft / idft / encode / lde / bitrev at 2^${logN} x ${w}, four tile shapes`, () => {
        const n = 2 ** logN;
        const x = rng.fieldArray(n * w);
        const want = ntt.dft(x, w);
        for (const shape of shapes) {
          if (tileGeometry(w, shape).maxLogT < 1) continue;
          expect(runPlan(planTileTransform(logN, n, 0, w, shape), x, w, null)).toEqual(want);
        }
        const shape = shapes[2];
        const inv = runPlan(planTileTransform(logN, n, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, w, shape), x, w, scaleTable(bbInv(n), 1, n));
        expect(inv).toEqual(ntt.idft(x, w));
        expect(runPlan(planTileTransform(logN, n, NTT_FLAG_BITREV, w, shape), x, w, null)).toEqual(ntt.bitReverseRows(want, w));
        if (logN <= 10) {
          const job = { height: n, width: w, addedBits: 2 };
          expect(runPlan(tileJobPasses({ ...job, op: 'encode' }, shape), x, w, null)).toEqual(ntt.encode(x, w, 2));
          const lde = runPlan(tileJobPasses({ ...job, op: 'lde', addedBits: 1, bitReversed: true }, {}), x, w, scaleTable(bbInv(n), 7, n));
          expect(lde).toEqual(ntt.bitReverseRows(ntt.cosetLde(x, w, 1, 7), w));
        }
      });
    }
  }
});
