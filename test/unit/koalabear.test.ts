// KoalaBear as a parameter record (src/params/koalabear.ts) through the generic host math, the
// Poseidon2 and NTT CPU twins, against test/vectors/koalabear.json (produced by p3-koala-bear
// 0.9.0-rc.2 itself: test/vectors/gen/src/koalabear.rs) and BigInt arithmetic.
import { beforeAll, describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import { BABY_BEAR } from '../../src/params/babybear.js';
import { powModBig } from '../../src/params/monty31.js';
import { KB_POSEIDON2_DEFAULT_16, KB_POSEIDON2_DEFAULT_24 } from '../../src/params/poseidon2-koalabear.js';
import { constantsProblem, poseidon2Params } from '../../src/params/poseidon2.js';
import { monty31Ops } from '../../src/field/monty31-ops.js';
import { ext4Ops, type Ext4 } from '../../src/field/ext4.js';
import { poseidon2, poseidon2Batch, internalLayer } from '../../src/ref/poseidon2.js';
import { applyDiagOp, diagOps, div2k } from '../../src/ref/poseidon2-diag.js';
import * as ntt from '../../src/ref/ntt.js';
import { FIELD_SPECS, render } from '../../scripts/gen-poseidon2.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { kernelSource, loadAllFamilies } from '../../src/gpu/wgsl.js';
import { wgslParamConsts } from '../../src/params/wgsl-consts.js';
import { BN254_WGSL_CONSTS } from '../../src/params/bn254.js';

type Case = Record<string, unknown> & { op: string };
const vectors = JSON.parse(readFileSync(new URL('../vectors/koalabear.json', import.meta.url), 'utf8')) as { crate: string; cases: Case[] };
const byOp = (op: string) => vectors.cases.filter((c) => c.op === op);
const KB = monty31Ops(KOALA_BEAR);
const P = KOALA_BEAR.pBig;
type Matrix = { height: number; width: number; values?: number[] };

describe('KoalaBear record', () => {
  it('is p3-koala-bear 0.9.0-rc.2', () => expect(vectors.crate).toBe('p3-koala-bear 0.9.0-rc.2'));

  it('equals the crate: p, MONTY_MU, generator, two-adicity and generators, W, R mod p', () => {
    const c = byOp('constants')[0];
    expect(KOALA_BEAR.p).toBe(c.p);
    expect(KOALA_BEAR.p).toBe(0x7f000001);
    expect(KOALA_BEAR.mu).toBe(0x81000001); // KoalaBearParameters::MONTY_MU
    expect(KOALA_BEAR.generator).toBe(c.generator);
    expect(KOALA_BEAR.twoAdicity).toBe(c.two_adicity);
    expect(KOALA_BEAR.twoAdicGenerators).toEqual(c.two_adic_generators);
    expect(KOALA_BEAR.ext4W).toBe(c.ext4_w);
    expect(KOALA_BEAR.one).toBe(c.monty_one);
    expect(BigInt(KOALA_BEAR.r2)).toBe((1n << 64n) % P);
    expect(BigInt(KOALA_BEAR.r3)).toBe((1n << 96n) % P);
    expect((BigInt(KOALA_BEAR.mu) * P) % (1n << 32n)).toBe(1n);
  });

  it('is not BabyBear: the records differ where the fields do', () => {
    expect([KOALA_BEAR.shiftLo, BABY_BEAR.shiftLo]).toEqual([24, 27]);
    expect(KOALA_BEAR.p).not.toBe(BABY_BEAR.p);
  });
});

describe('KoalaBear host math vs p3-koala-bear', () => {
  it('add, sub, mul, x^3, inverse on edge x edge and random pairs', () => {
    const c = byOp('base')[0] as Case & Record<'a' | 'b' | 'add' | 'sub' | 'mul' | 'cube', number[]> & { inv: (number | null)[] };
    expect(c.a.length).toBeGreaterThan(400);
    const got = { add: [] as number[], sub: [] as number[], mul: [] as number[], cube: [] as number[], inv: [] as (number | null)[] };
    c.a.forEach((a, i) => {
      const b = c.b[i];
      got.add.push(KB.add(a, b));
      got.sub.push(KB.sub(a, b));
      got.mul.push(KB.mul(a, b));
      got.cube.push(KB.mul(KB.square(a), a));
      got.inv.push(a === 0 ? null : KB.inv(a));
    });
    expect(got).toEqual({ add: c.add, sub: c.sub, mul: c.mul, cube: c.cube, inv: c.inv });
    expect(() => KB.inv(0)).toThrow(/KoalaBear: inverse of zero/);
  });

  it('Montgomery steps (the GPU multiply with KoalaBear shifts) equal a·b·2^-32 mod p', () => {
    const rng = new SplitMix64(7);
    const Rinv = powModBig(1n << 32n, P - 2n, P);
    const edge = [0, 1, 2, KOALA_BEAR.p - 1, KOALA_BEAR.p - 2, (1 << 24) - 1, 1 << 24, KOALA_BEAR.one, 0x7effffff];
    const xs = [...edge, ...Array.from({ length: 5000 }, () => Number(rng.next() >> 32n) % KOALA_BEAR.p)];
    for (let i = 0; i < xs.length; i++) {
      const a = xs[i],
        b = xs[(i * 7 + 3) % xs.length];
      expect(BigInt(KB.montMul(a, b))).toBe((BigInt(a) * BigInt(b) * Rinv) % P);
      expect(KB.fromMonty(KB.toMonty(a))).toBe(a);
      const t = Number(rng.next() >> 32n);
      expect(BigInt(KB.mulhiP(t))).toBe((BigInt(t) * P) >> 32n);
      const q = KB.shoupQuotient(a);
      expect(BigInt(q)).toBe((BigInt(a) << 31n) / P);
    }
  });

  it('ext4 (X^4 - 3) multiply and inverse', () => {
    const E = ext4Ops(KOALA_BEAR);
    const cases = byOp('ext4');
    expect(cases.length).toBe(12);
    for (const c of cases) {
      expect(E.mul(c.a as Ext4, c.b as Ext4)).toEqual(c.mul);
      expect(E.inv(c.a as Ext4)).toEqual(c.inv_a);
    }
  });
});

describe('KoalaBear Poseidon2 vs p3-koala-bear', () => {
  it("the generated constants file is up to date and equals the crate's KOALABEAR_POSEIDON2_RC_*", () => {
    expect(readFileSync(new URL('../../src/params/poseidon2-koalabear.ts', import.meta.url), 'utf8')).toBe(render(FIELD_SPECS.koalabear));
    for (const [w, ours] of [
      [16, KB_POSEIDON2_DEFAULT_16],
      [24, KB_POSEIDON2_DEFAULT_24],
    ] as const) {
      const v = byOp('poseidon2_constants').find((c) => c.width === w)!;
      expect(ours.externalInitial).toEqual(v.external_initial);
      expect(ours.internal).toEqual(v.internal);
      expect(ours.externalFinal).toEqual(v.external_final);
    }
  });

  it('record: x^3 S-box, 20 / 23 partial rounds', () => {
    expect([
      poseidon2Params(16, KOALA_BEAR).sboxDegree,
      poseidon2Params(16, KOALA_BEAR).roundsP,
      poseidon2Params(24, KOALA_BEAR).roundsP,
    ]).toEqual([3, 20, 23]);
  });

  it('permutations at widths 16 and 24 (one by one and batched)', () => {
    const cases = byOp('poseidon2');
    expect(cases.length).toBe(16);
    for (const c of cases) expect(Array.from(poseidon2(c.input as number[], undefined, KOALA_BEAR))).toEqual(c.output);
    for (const w of [16, 24] as const) {
      const mine = cases.filter((c) => c.width === w);
      const batch = poseidon2Batch(Uint32Array.from(mine.flatMap((c) => c.input as number[])), w, undefined, KOALA_BEAR);
      expect(Array.from(batch)).toEqual(mine.flatMap((c) => c.output as number[]));
    }
  });

  it("BabyBear's permutation differs on the same input (the field parameter is used)", () => {
    const c = byOp('poseidon2')[1];
    expect(Array.from(poseidon2(c.input as number[]))).not.toEqual(c.output);
  });

  it('the cheap diagonal ops (±1..4, ±2^-k, k <= 24) equal the multiply by V_i', () => {
    const rng = new SplitMix64(11);
    for (const w of [16, 24] as const) {
      const ops = diagOps(w, KOALA_BEAR);
      const diag = poseidon2Params(w, KOALA_BEAR).diag;
      for (let t = 0; t < 200; t++) {
        const x = t < 3 ? [0, 1, KOALA_BEAR.p - 1][t] : Number(rng.next() >> 32n) % KOALA_BEAR.p;
        for (let i = 0; i < w; i++) expect(applyDiagOp(ops[i], x, KOALA_BEAR)).toBe(KB.mul(diag[i], x));
      }
      const s = Array.from({ length: w }, (_, i) => (i * 123456789) % KOALA_BEAR.p);
      const a = s.slice();
      internalLayer(a, diag, KOALA_BEAR);
      expect(a.every((v) => v < KOALA_BEAR.p)).toBe(true);
    }
    for (let k = 1; k <= 24; k++) expect(KB.mul(div2k(KOALA_BEAR.p - 1, k, KOALA_BEAR), KB.pow(2, k))).toBe(KOALA_BEAR.p - 1);
  });

  it("constantsProblem checks values against KoalaBear's p and round count", () => {
    expect(constantsProblem(16, KB_POSEIDON2_DEFAULT_16, KOALA_BEAR)).toBeUndefined();
    expect(constantsProblem(16, KB_POSEIDON2_DEFAULT_16)?.code).toBe('INVALID_LENGTH'); // 20 internal, BabyBear has 13
    const big = { ...KB_POSEIDON2_DEFAULT_16, internal: [KOALA_BEAR.p, ...KB_POSEIDON2_DEFAULT_16.internal.slice(1)] };
    expect(constantsProblem(16, big, KOALA_BEAR)?.code).toBe('NON_CANONICAL');
  });
});

describe('KoalaBear reference NTT vs p3-koala-bear Radix2Dit', () => {
  const full = (m: Matrix) => {
    expect(m.values, 'vector output stored in full').toBeDefined();
    return m.values!;
  };
  it('dft, idft, coset_lde for every case', () => {
    const cases = byOp('dft');
    expect(cases.length).toBe(6);
    for (const c of cases) {
      const input = Uint32Array.from(c.input as number[]);
      const w = c.width as number;
      expect(Array.from(ntt.dft(input, w, KOALA_BEAR)), `${c.id} dft`).toEqual(full(c.dft as Matrix));
      expect(Array.from(ntt.idft(input, w, KOALA_BEAR)), `${c.id} idft`).toEqual(full(c.idft as Matrix));
      const lde = c.lde as { added_bits: number; shift: number; output: Matrix };
      expect(Array.from(ntt.cosetLde(input, w, lde.added_bits, lde.shift, KOALA_BEAR)), `${c.id} lde`).toEqual(full(lde.output));
    }
  });
  it('two-adic roots run out at 2^24', () => {
    expect(() => ntt.twoAdicGenerator(25, KOALA_BEAR)).toThrow(/KoalaBear/);
    expect(ntt.twoAdicGenerator(27)).toBe(BABY_BEAR.twoAdicGenerators[27]);
  });
});

describe('KoalaBear on the GPU side: the WGSL preamble a pipeline request naming it gets', () => {
  beforeAll(loadAllFamilies);

  it("field_check's module carries KoalaBear's constants; BabyBear's text is the default's", () => {
    const kb = kernelSource('field_check', { FIELD_WG: 256 }, undefined, 'koalabear');
    for (const [name, v] of [
      ['BB_P', KOALA_BEAR.p],
      ['BB_MU', KOALA_BEAR.mu],
      ['BB_ONE', KOALA_BEAR.one],
      ['BB_R2', KOALA_BEAR.r2],
      ['BB_SHIFT_HI', 31],
      ['BB_SHIFT_LO', 24],
    ] as const) {
      expect(kb).toContain(`const ${name}: u32 = ${v}u;`);
    }
    expect(kernelSource('field_check', { FIELD_WG: 256 }, 'field_mul', 'babybear')).toBe(
      kernelSource('field_check', { FIELD_WG: 256 }, 'field_mul'),
    );
    expect(kernelSource('field_check', { FIELD_WG: 256 }, 'field_mul')).toContain(`const BB_P: u32 = ${BABY_BEAR.p}u;`);
  });

  it('BB_ROOTS_32 (Montgomery form) are KoalaBear powers of a primitive 32nd root; EXT4_W_MONTY is 3·R', () => {
    const c = wgslParamConsts('koalabear');
    const roots = (c.BB_ROOTS_32 as number[]).map(KB.fromMonty);
    expect(roots).toEqual(c.BB_ROOTS_32_PLAIN);
    expect(KB.pow(roots[1], 32)).toBe(1);
    expect(KB.pow(roots[1], 16)).toBe(KOALA_BEAR.p - 1);
    roots.forEach((w, i) => expect(w).toBe(KB.pow(KOALA_BEAR.twoAdicGenerators[5], i)));
    expect(KB.fromMonty(c.EXT4_W_MONTY as number)).toBe(3);
    for (const k of Object.keys(BN254_WGSL_CONSTS)) expect(c[k]).toEqual(wgslParamConsts()[k]); // BN254's are the same
  });
});
