// BabyBear parameters (derived in code) and the CPU reference, against BigInt arithmetic.
import { describe, it, expect } from 'vitest';
import * as params from '../../src/params/babybear.js';
import * as ref from '../../src/field/babybear.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { EDGE_VALUES } from '../../bench/support/field-check.js';

const P = params.BB_P_BIG;
const R = 1n << 32n;
const RINV = params.powModBig(R, P - 2n, P);

describe('BabyBear parameters', () => {
  it('matches the constants Plonky3 documents', () => {
    expect(params.BB_P).toBe(0x78000001);
    expect(params.BB_MU).toBe(0x88000001);
    expect(params.BB_R).toBe(0x0ffffffe);
    expect(params.BB_R2).toBe(0x45dddde3);
    expect(params.BB_R3).toBe(0x12f37bfb);
    expect(params.BB_TWO_ADICITY).toBe(27);
    expect(params.BB_GENERATOR).toBe(31);
    expect(params.BB_TWO_ADIC_GENERATORS[27]).toBe(0x1a427a41);
    expect(params.BB_TWO_ADIC_GENERATORS[1]).toBe(params.BB_P - 1);
    expect(params.BB_TWO_ADIC_GENERATORS[2]).toBe(1728404513);
  });

  it('two-adic generators have exact order 2^bits and square down the table', () => {
    const g = params.BB_TWO_ADIC_GENERATORS;
    for (let bits = 1; bits <= 27; bits++) {
      expect(params.powModBig(BigInt(g[bits]), 1n << BigInt(bits), P)).toBe(1n);
      expect(params.powModBig(BigInt(g[bits]), 1n << BigInt(bits - 1), P)).toBe(P - 1n);
      expect(ref.bbSquare(g[bits])).toBe(g[bits - 1]);
    }
  });
});

describe('BabyBear reference vs BigInt', () => {
  const rng = new SplitMix64(42);
  const xs = [...EDGE_VALUES, ...rng.fieldArray(20000)];
  const ys = [...EDGE_VALUES.slice().reverse(), ...rng.fieldArray(20000)];

  it('add, sub, mul, square, pow7, neg', () => {
    for (let i = 0; i < xs.length; i++) {
      const [a, b] = [xs[i], ys[i]];
      const [A, B] = [BigInt(a), BigInt(b)];
      expect(BigInt(ref.bbAdd(a, b))).toBe((A + B) % P);
      expect(BigInt(ref.bbSub(a, b))).toBe((A - B + P) % P);
      expect(BigInt(ref.bbMul(a, b))).toBe((A * B) % P);
      expect(BigInt(ref.bbSquare(a))).toBe((A * A) % P);
      expect(BigInt(ref.bbPow7(a))).toBe(A ** 7n % P);
      expect(BigInt(ref.bbNeg(a))).toBe((P - A) % P);
    }
  });

  it('Montgomery steps: mulhi31, mulhiP, montMul = a·b·2^-32, to/from Montgomery', () => {
    for (let i = 0; i < xs.length; i++) {
      const [a, b] = [xs[i], ys[i]];
      const [A, B] = [BigInt(a), BigInt(b)];
      expect(BigInt(ref.mulhi31(a, b))).toBe((A * B) >> 32n);
      const t = (a * 2654435761 + b) >>> 0; // any u32
      expect(BigInt(ref.mulhiP(t))).toBe((BigInt(t) * P) >> 32n);
      expect(BigInt(ref.montMul(a, b))).toBe((A * B * RINV) % P);
      expect(ref.fromMonty(ref.toMonty(a))).toBe(a);
      expect(BigInt(ref.toMonty(a))).toBe((A * R) % P);
    }
  });

  it('inverse and batch inverse; zero is rejected', () => {
    const nonzero = xs.filter((x) => x !== 0).slice(0, 3000);
    const inv = ref.bbBatchInv(nonzero);
    nonzero.forEach((x, i) => {
      expect(ref.bbInv(x)).toBe(inv[i]);
      expect(ref.bbMul(x, inv[i])).toBe(1);
    });
    expect(() => ref.bbInv(0)).toThrow(RangeError);
    expect(() => ref.bbBatchInv([1, 0, 2])).toThrow(/index 1/);
    expect(ref.bbBatchInv([]).length).toBe(0);
  });

  it('pow agrees with BigInt for large exponents', () => {
    for (const x of xs.slice(0, 200)) {
      expect(BigInt(ref.bbPow(x, P - 2n))).toBe(params.powModBig(BigInt(x), P - 2n, P));
      expect(ref.bbPow(x, 0)).toBe(1);
    }
  });
});

describe('ext4 reference (x^4 = 11)', () => {
  const rng = new SplitMix64(7);
  const el = (): ref.Ext4 => [rng.nextField(), rng.nextField(), rng.nextField(), rng.nextField()];

  it('mul by BigInt schoolbook; X · X^3 = 11', () => {
    expect(ref.ext4Mul([0, 1, 0, 0], [0, 0, 0, 1])).toEqual([11, 0, 0, 0]);
    for (let k = 0; k < 2000; k++) {
      const a = el(),
        b = el();
      const c = new Array(7).fill(0n);
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) c[i + j] += BigInt(a[i]) * BigInt(b[j]);
      const want = [0, 1, 2, 3].map((i) => Number((c[i] + 11n * (c[i + 4] ?? 0n)) % P));
      expect(ref.ext4Mul(a, b)).toEqual(want);
    }
  });

  it('inverse: a · a^-1 = 1, including single-coefficient elements', () => {
    const cases: ref.Ext4[] = [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
      [params.BB_P - 1, 0, 0, 0],
      [5, 0, 7, 0],
    ];
    for (let k = 0; k < 2000; k++) cases.push(el());
    for (const a of cases) expect(ref.ext4Mul(a, ref.ext4Inv(a))).toEqual([1, 0, 0, 0]);
    expect(() => ref.ext4Inv([0, 0, 0, 0])).toThrow(RangeError);
  });
});

describe('field_bench CPU twin', () => {
  it('montMul chain matches a BigInt chain', () => {
    for (const i of [0, 1, 12345, 4_000_000]) {
      let x = BigInt((Math.imul(i, 2654435761) >>> 0) % params.BB_P);
      let y = BigInt(((Number(x) ^ 0x9e3779b9) >>> 0) % params.BB_P);
      for (let k = 0; k < 16; k++) {
        x = (x * y * RINV) % P;
        y = (y * x * RINV) % P;
      }
      expect(ref.fieldBenchThread(i, 16)).toBe((Number(x) ^ Number(y)) >>> 0);
    }
  });
});

// bb_mul_shoup (wgsl/lib/babybear.wgsl) step for step in u32 arithmetic, and the min() forms of
// bb_add / bb_sub: every claim their comments make (q off by at most one, r < 2p, no overflow).
describe('Shoup multiply and min-reduced add/sub (WGSL u32 steps)', () => {
  const P = params.BB_P;
  const shoup = (x: number, w: number, wq: number) => {
    const q = ((ref.mulhi31(x, wq) << 1) | (Math.imul(x, wq) >>> 31)) >>> 0;
    const r = (Math.imul(x, w) - Math.imul(q, P)) >>> 0;
    expect(r).toBeLessThan(2 * P);
    return Math.min(r, (r - P) >>> 0);
  };
  const add = (a: number, b: number) => {
    const s = (a + b) >>> 0;
    return Math.min(s, (s - P) >>> 0);
  };
  const sub = (a: number, b: number) => {
    const d = (a - b) >>> 0;
    return Math.min(d, (d + P) >>> 0);
  };

  it("bb_mul_shoup equals x·w mod p, with w' = bbShoupQuotient(w) < 2^31", () => {
    const rng = new SplitMix64(0x5400);
    const ws = [...EDGE_VALUES, ...rng.fieldArray(200)];
    const xs = [...EDGE_VALUES, ...rng.fieldArray(200)];
    for (const w of ws) {
      const wq = params.bbShoupQuotient(w);
      expect(wq).toBeLessThan(2 ** 31);
      for (const x of xs) expect(shoup(x, w, wq)).toBe(Number((BigInt(x) * BigInt(w)) % BigInt(P)));
    }
  });

  it('bbShoupQuotient equals floor(w·2^31 / p) by BigInt, also where the remainder is near 0 or p', () => {
    const rng = new SplitMix64(0x5402);
    const ws = [...EDGE_VALUES, ...rng.fieldArray(20000)];
    // w·2^31 mod p within a few units of 0: where a rounded floating quotient would be one too big
    for (let k = 1; k < 4000; k++) for (const d of [-1, 0, 1]) ws.push(Math.min(P - 1, Math.max(0, Math.floor((k * P) / 2 ** 31) + d)));
    for (const w of ws) expect(params.bbShoupQuotient(w)).toBe(Number((BigInt(w) << 31n) / BigInt(P)));
  });

  it('min-reduced add and sub equal the reference on edge and random values', () => {
    const rng = new SplitMix64(0x5401);
    const vs = [...EDGE_VALUES, ...rng.fieldArray(300)];
    for (const a of vs)
      for (const b of vs) {
        expect(add(a, b)).toBe(ref.bbAdd(a, b));
        expect(sub(a, b)).toBe(ref.bbSub(a, b));
      }
  });
});
