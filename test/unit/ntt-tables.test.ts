// The NTT's tables (src/kernels/ntt/tables.ts), built from runs of powers with float-quotient
// products (src/field/power-runs.ts), against a slow reference written from each table's
// documented layout in BigInt: every entry a pow of the generator, Montgomery form x·2^32 mod p,
// Shoup's quotient floor(x·2^31 / p). Small tables are compared whole; large ones (the 2^22 and
// 2^24 jobs' tables) at their first and last entries and 2048 seeded ones. The arithmetic itself
// is checked on the inputs where a float quotient could round wrong: products and quotients within
// a few units of a multiple of p, on both fields.
import { describe, expect, it } from 'vitest';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { fastMul, fastShoupQuotient, fillPowers } from '../../src/field/power-runs.js';
import { twoAdicGenerator } from '../../src/field/two-adic.js';
import { BABY_BEAR } from '../../src/params/babybear.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import { powModBig, type Monty31Params } from '../../src/params/monty31.js';
import { NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS, NTT_TW_WORDS, splitBits } from '../../src/kernels/ntt/passes.js';
import {
  innerTwiddleTable,
  inverseScale,
  passSplitTable,
  passTwiddleTable,
  scaleTable,
  twiddleTable,
} from '../../src/kernels/ntt/tables.js';

const P = BABY_BEAR.pBig;
const big = BigInt;
const pow = (x: number | bigint, e: number | bigint) => powModBig(big(x), big(e), P);
const mont = (x: bigint) => Number((x << 32n) % P);
const shoup = (x: bigint) => Number((x << 31n) / P);
const omega = (n: number) => twoAdicGenerator(Math.round(Math.log2(n)));

/** Compare t[i] with want(i) for every i, or for a large table its ends and 2048 seeded indices. */
function expectEntries(t: Uint32Array, length: number, want: (i: number) => number): void {
  expect(t.length).toBe(length);
  const rng = new SplitMix64(length);
  const at =
    length <= 8192
      ? Array.from({ length }, (_, i) => i)
      : [
          ...Array.from({ length: 256 }, (_, i) => i),
          ...Array.from({ length: 256 }, (_, i) => length - 1 - i),
          ...Array.from({ length: 2048 }, () => Number(rng.next() % big(length))),
        ];
  const bad = at.filter((i) => t[i] !== want(i)).slice(0, 5);
  expect(bad.map((i) => [i, t[i], want(i)])).toEqual([]);
}

describe('table arithmetic: exact products and Shoup quotients', () => {
  // Inputs whose exact quotient sits just above or below an integer are where a float rounds wrong.
  for (const F of [BABY_BEAR, KOALA_BEAR] as Monty31Params[]) {
    const p = F.pBig;
    it(`${F.label}: a·b mod p at edge values and products within 50 of a multiple of p`, () => {
      const rng = new SplitMix64(7);
      const pairs: Array<[number, number]> = [];
      const edges = [0, 1, 2, F.p - 1, F.p - 2, 2 ** 30, F.one, F.r2];
      for (const a of edges) for (const b of edges) pairs.push([a, b]);
      for (let i = 0; i < 4000; i++) {
        const b = 1 + rng.nextField(F.p - 1);
        const target = big(i % 100 < 50 ? i % 50 : F.p - 1 - (i % 50)); // a·b ≡ target: remainder near 0 or p
        pairs.push([Number((target * powModBig(big(b), p - 2n, p)) % p), b]);
        pairs.push([rng.nextField(F.p), rng.nextField(F.p)]);
      }
      const bad = pairs.filter(([a, b]) => fastMul(a, b, F) !== Number((big(a) * big(b)) % p)).slice(0, 5);
      expect(bad).toEqual([]);
    });

    it(`${F.label}: floor(x·2^31 / p) at edge values and x·2^31 within 50 of a multiple of p`, () => {
      const rng = new SplitMix64(11);
      const inv231 = powModBig(1n << 31n, p - 2n, p);
      const xs = [0, 1, 2, F.p - 1, F.p - 2, 2 ** 30, F.one];
      for (let j = 0; j < 2000; j++) {
        xs.push(Number((big(j) * inv231) % p), Number((big(F.p - 1 - j) * inv231) % p)); // x·2^31 ≡ j, ≡ −1 − j
        xs.push(rng.nextField(F.p));
      }
      const bad = xs.filter((x) => fastShoupQuotient(x, F) !== Number((big(x) << 31n) / p)).slice(0, 5);
      expect(bad).toEqual([]);
    });
  }

  it('fillPowers: every count 0-9 (the four chains and their tail), with quotients', () => {
    const g = 1234567,
      first = 89;
    for (let count = 0; count <= 9; count++) {
      const t = new Uint32Array(3 + 2 * count + 2).fill(7);
      fillPowers(t, 3, count, first, g, BABY_BEAR, count + 1);
      const want = [7, 7, 7];
      const vals = Array.from({ length: count }, (_, i) => Number((big(first) * pow(g, i)) % P));
      want.push(...vals, 7, ...vals.map((v) => shoup(big(v))), ...Array(t.length - 4 - 2 * count).fill(7));
      expect(Array.from(t)).toEqual(want);
    }
  });
});

describe('NTT tables equal their definitions', () => {
  it('twiddleTable: ω_{2^27}^i for i < 2^14, then ω_{2^27}^(i·2^14), Montgomery form', () => {
    const w = omega(2 ** 27);
    const lo = 1 << NTT_TW_LO_BITS;
    expectEntries(twiddleTable(), NTT_TW_WORDS, (i) => {
      if (i >= NTT_TW_LO && i < NTT_TW_LO + lo) return mont(pow(w, i - NTT_TW_LO));
      return i >= NTT_TW_HI && i < NTT_TW_HI + 2 ** (27 - NTT_TW_LO_BITS) ? mont(pow(w, (i - NTT_TW_HI) * lo)) : 0;
    });
  });

  for (const [n, shift] of [
    [32, 1],
    [2 ** 17, 31],
    [2 ** 22, 31],
    [2 ** 27, 7],
  ]) {
    it(`scaleTable(inverseScale(2^${Math.log2(n)}, ${shift})): c·g^i, then g^(i·2^14), Montgomery form`, () => {
      const [c, g] = inverseScale(n, shift);
      const lo = 1 << NTT_TW_LO_BITS;
      const hi = Math.max(1, Math.ceil(n / lo));
      expectEntries(scaleTable(c, g, n), lo + hi, (i) => mont(i < lo ? (big(c) * pow(g, i)) % P : pow(g, (i - lo) * lo)));
    });
  }

  for (const [ns, R, rowFactor] of [
    [1, 2, 1],
    [2, 4, 1],
    [32, 32, 1],
    [1024, 32, 1],
    [4, 16, 5],
    [256, 32, 977],
    [32768, 32, 1],
  ]) {
    const size = (R - 1) * ns;
    const entry = (i: number) => (pow(omega(ns * R), (i % ns) * (Math.floor(i / ns) + 1)) * pow(rowFactor, Math.floor(i / ns) + 1)) % P;
    it(`passTwiddleTable(${ns}, ${R}), row factor ${rowFactor}: ω^(k·r)·f^r, Montgomery form and Shoup form`, () => {
      expectEntries(passTwiddleTable(ns, R, false, rowFactor), size, (i) => mont(entry(i)));
      expectEntries(passTwiddleTable(ns, R, true, rowFactor), 2 * size, (i) => (i < size ? Number(entry(i)) : shoup(entry(i - size))));
    });
  }

  for (const [ns, R, scaled] of [
    [32, 32, false],
    [1024, 16, true],
    [2 ** 16, 256, false],
    [2 ** 16, 256, true],
    [2 ** 20, 32, true],
  ] as const) {
    it(`passSplitTable(2^${Math.log2(ns)}, ${R})${scaled ? ' with a folded scale' : ''}: lo and hi halves, values then quotients`, () => {
      const [c, g] = scaled ? inverseScale(2 ** 22, 31) : [1, 1];
      const L = 2 ** splitBits(ns),
        H = ns / L;
      const w = omega(ns * R);
      // lo[r·L + kl] = ω^(kl·r)·g^kl; hi[r·H + kh] = ω^(kh·L·r)·c·g^(kh·L)
      const value = (i: number) => {
        if (i < R * L) return (pow(w, (i % L) * Math.floor(i / L)) * pow(g, i % L)) % P;
        const j = i - 2 * R * L,
          kh = j % H,
          r = Math.floor(j / H);
        return (((pow(w, kh * L * r) * big(c)) % P) * pow(g, kh * L)) % P;
      };
      const t = scaled ? passSplitTable(ns, R, { c, g }) : passSplitTable(ns, R);
      expectEntries(t, 2 * R * (L + H), (i) => {
        if (i < 2 * R * L) return i < R * L ? Number(value(i)) : shoup(value(i - R * L));
        const j = i - 2 * R * L;
        return j < R * H ? Number(value(i)) : shoup(value(i - R * H));
      });
    });
  }

  for (const R of [4, 16, 32]) {
    it(`innerTwiddleTable(${R}): (value, quotient, its low and high 16 bits) of ω_{R²}^(j·r)`, () => {
      const w = omega(R * R);
      expectEntries(innerTwiddleTable(R), 4 * (R - 1) * R, (i) => {
        const e = Math.floor(i / 4),
          x = pow(w, (e % R) * (Math.floor(e / R) + 1)),
          q = shoup(x);
        return [Number(x), q, q & 0xffff, q >>> 16][i % 4];
      });
    });
  }
});
