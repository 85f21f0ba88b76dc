// The fast host field products and Poseidon2-16 (src/field/babybear-fast.ts, poseidon2-bb16.ts)
// against their references: BigInt arithmetic, babybear.ts's ext4Mul / bbPow, src/ref's
// Poseidon2, sponge and compression, and Plonky3's own permutation outputs
// (test/vectors/poseidon2.json). Edge values include products that land just below and just above
// a multiple of p, where the float quotient is off by one.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bbMulFast, bbMulLazy, bbPowFast, bbReduceLazy, bbReduceWide, ext4MulFast, ext4ScaleFast } from '../../src/field/babybear-fast.js';
import { bbInv, bbPow, ext4Mul, type Ext4 } from '../../src/field/babybear.js';
import { compressBb16, compressPairsBb16, hashRowBb16, permuteBb16, permuteBb16Words } from '../../src/field/poseidon2-bb16.js';
import { BB_P } from '../../src/params/babybear.js';
import { compress, hashRow } from '../../src/ref/merkle.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { inputValues, type SeededInput } from '../../bench/support/hash-vectors.js';

const P = BB_P;
const PB = BigInt(P);
const EDGES = [0, 1, 2, 3, 11, 2 ** 15, 2 ** 16 - 1, 2 ** 16, 2 ** 27, 2 ** 27 + 1, 2 ** 30, (P - 1) / 2, (P + 1) / 2, P - 2, P - 1];
const rng = new SplitMix64(0x5eed);
const random = (n: number) => Array.from(rng.fieldArray(n));
const mulBig = (a: number, b: number) => Number((BigInt(a) * BigInt(b)) % PB);

describe('bbMulFast', () => {
  it('equals the BigInt product on every pair of edge values and 200k random pairs', () => {
    for (const a of EDGES) for (const b of EDGES) expect(bbMulFast(a, b), `${a}·${b}`).toBe(mulBig(a, b));
    const xs = random(400_000);
    for (let i = 0; i < xs.length; i += 2)
      if (bbMulFast(xs[i], xs[i + 1]) !== mulBig(xs[i], xs[i + 1])) expect([xs[i], xs[i + 1]]).toBe('equal');
  });

  it('is exact where a·b lies just above or below a multiple of p (the float quotient off by one)', () => {
    let checked = 0;
    for (const a of random(2000).filter((x) => x > 1)) {
      const inv = bbInv(a);
      // b = k/a gives a·b ≡ k: a·b/p sits within k/p of an integer.
      for (const k of [0, 1, 2, 5, 1000, 2 ** 11, P - 1, P - 2, P - 1000]) {
        const b = mulBig(inv, k);
        expect(bbMulFast(a, b), `${a}·${b}`).toBe(k);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('bbReduceWide, bbPowFast, ext4MulFast, ext4ScaleFast', () => {
  it('bbReduceWide reduces and bbReduceLazy lands in [0, 2p), for integers 0 <= x < 2^52', () => {
    const xs = [0, 1, P - 1, P, P + 1, 2 * P - 1, 2 * P, 2 ** 37 - 1, 80 * P + 7, 2 ** 52 - 1];
    for (let k = 1; k < 2000; k++) xs.push(k * P - 1, k * P, k * P + 1);
    for (let i = 0; i < 20_000; i++) xs.push(Number(rng.next() >> BigInt(12 + (i % 40))));
    for (const x of xs) {
      const want = Number(BigInt(x) % PB);
      expect(bbReduceWide(x), String(x)).toBe(want);
      const lazy = bbReduceLazy(x);
      expect(lazy === want || lazy === want + P, String(x)).toBe(true);
    }
  });

  it('bbMulLazy lands in [0, 2p) for unreduced inputs up to 2^37 (a·b < 2^75)', () => {
    const big = [2 ** 37 - 1, 71 * P - 1, 70 * P, 35 * P + 12345, 2 ** 36, 2 * P - 1, P, 0, 1];
    for (let i = 0; i < 3000; i++) big.push(Number(rng.next() >> 27n));
    for (let i = 0; i < big.length; i++) {
      const a = big[i],
        b = big[(i * 31 + 7) % big.length];
      const want = Number((BigInt(a) * BigInt(b)) % PB);
      const r = bbMulLazy(a, b);
      if (!(r === want || r === want + P)) expect([a, b, r]).toBe(want);
    }
    // a·b just above and below multiples of p, with one factor unreduced.
    for (const a of random(300).filter((x) => x > 1)) {
      const b = mulBig(bbInv(a), 3);
      for (const [x, y] of [
        [a + 60 * P, b],
        [a, P - b + 50 * P],
        [a + 70 * P, b + 70 * P],
      ]) {
        const want = Number((BigInt(x) * BigInt(y)) % PB);
        const r = bbMulLazy(x, y);
        expect(r === want || r === want + P, `${x}·${y}`).toBe(true);
      }
    }
  });

  it('bbMulLazy lands in [0, 2p) for inputs in [0, 2p), next to multiples of p included', () => {
    const ins = [0, 1, 2, P - 1, P, P + 1, 2 * P - 2, 2 * P - 1, ...random(300), ...random(300).map((x) => x + P)];
    for (const a of ins) {
      for (const b of ins.slice(0, 60)) {
        const want = mulBig(a % P, b % P);
        const r = bbMulLazy(a, b);
        if (!(r === want || r === want + P)) expect([a, b, r]).toBe(want);
      }
      // b ≡ k/a makes a·b sit just above a multiple of p; p - b just below.
      if (a % P > 1) {
        const b = mulBig(bbInv(a % P), 3);
        for (const bb of [b, b + P, P - b, 2 * P - b].filter((x) => x < 2 * P)) {
          const r = bbMulLazy(a, bb);
          expect(r === mulBig(a % P, bb % P) || r === mulBig(a % P, bb % P) + P).toBe(true);
        }
      }
    }
  });

  it('bbPowFast equals bbPow', () => {
    for (const x of [...EDGES, ...random(50)])
      for (const e of [0, 1, 2, 7, 2 ** 19, 2 ** 31 + 5, P - 2, 2 ** 52 + 3]) expect(bbPowFast(x, e)).toBe(bbPow(x, e));
  });

  it('ext4MulFast and ext4ScaleFast equal ext4Mul on edge and random elements', () => {
    const elems: Ext4[] = [];
    for (const a of EDGES) elems.push([a, a, a, a], [a, 0, 0, P - 1], [0, a, P - 1, a]);
    for (let i = 0; i < 500; i++) elems.push(random(4) as Ext4);
    for (let i = 0; i < elems.length; i++) {
      const a = elems[i];
      const b = elems[(i * 7 + 3) % elems.length];
      expect(ext4MulFast(a, b)).toEqual(ext4Mul(a, b));
      expect(ext4ScaleFast(a, b[0])).toEqual(ext4Mul(a, [b[0], 0, 0, 0]));
    }
  });
});

type PermCase = { kind: string; set: string; width: number; input: SeededInput; output: number[] };
const vectors = (JSON.parse(readFileSync(new URL('../vectors/poseidon2.json', import.meta.url), 'utf8')) as { cases: PermCase[] }).cases;

describe('permuteBb16 (Poseidon2-16)', () => {
  it("gives Plonky3's outputs for its default constants", () => {
    const perms = vectors.filter((c) => c.kind === 'perm' && c.set === 'default' && c.width === 16);
    expect(perms.length).toBeGreaterThanOrEqual(1);
    for (const c of perms) {
      const s = Float64Array.from(inputValues(c.input));
      permuteBb16(s);
      expect(Array.from(s)).toEqual(c.output);
    }
  });

  it('equals src/ref on edge states and 2000 random ones', () => {
    const states = [new Array(16).fill(0), new Array(16).fill(P - 1), new Array(16).fill(1), EDGES.concat([P - 1])];
    for (let i = 0; i < 2000; i++) states.push(random(16));
    for (const st of states) {
      const want = Array.from(poseidon2(st));
      const s = Float64Array.from(st);
      permuteBb16(s);
      expect(Array.from(s)).toEqual(want);
      const words = Uint32Array.from(st);
      permuteBb16Words(words);
      expect(Array.from(words)).toEqual(want);
    }
  });

  it('hashRowBb16 and compressBb16 equal src/ref/merkle.ts for every row length 0..40', () => {
    for (let len = 0; len <= 40; len++) {
      for (const row of [random(len), new Array(len).fill(P - 1)]) expect(hashRowBb16(row)).toEqual(hashRow(row));
    }
    for (let i = 0; i < 200; i++) {
      const [l, r] = [random(8), random(8)];
      expect(compressBb16(l, r)).toEqual(compress(l, r));
    }
    expect(compressBb16(new Array(8).fill(0), new Array(8).fill(P - 1))).toEqual(compress(new Array(8).fill(0), new Array(8).fill(P - 1)));
  });

  it('compressPairsBb16 equals compress on every pair, for any count', () => {
    for (let count = 0; count <= 5; count++) {
      const pairs = Uint32Array.from(random(16 * count));
      const want = Array.from({ length: count }, (_, j) => [
        ...compress(pairs.subarray(16 * j, 16 * j + 8), pairs.subarray(16 * j + 8, 16 * j + 16)),
      ]);
      expect(Array.from(compressPairsBb16(pairs))).toEqual(want.flat());
    }
  });
});
