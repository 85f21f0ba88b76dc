// src/params and src/ref against test/vectors/field.json, produced by Plonky3 0.9.0-rc.2 itself;
// and test/support/splitmix.ts against the generator's PRNG check values.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { BB_GENERATOR, BB_TWO_ADIC_GENERATORS } from '../../src/params/babybear.js';
import * as ref from '../../src/field/babybear.js';
import { SplitMix64 } from '../support/splitmix.js';

type Case = Record<string, unknown> & { op: string };
const vectors = JSON.parse(readFileSync(new URL('../vectors/field.json', import.meta.url), 'utf8')) as { plonky3: string; cases: Case[] };
const byOp = (op: string) => vectors.cases.filter((c) => c.op === op);

describe('field.json (Plonky3 0.9.0-rc.2)', () => {
  it('is the Plonky3 version we target', () => expect(vectors.plonky3).toBe('0.9.0-rc.2'));

  it('generator and two-adic generators', () => {
    expect(BB_GENERATOR).toBe(byOp('generator')[0].value);
    expect(BB_TWO_ADIC_GENERATORS).toEqual(byOp('two_adic_generators')[0].values);
  });

  it('base inverse, pow7 and arithmetic', () => {
    const base = byOp('base');
    expect(base.length).toBeGreaterThan(20);
    for (const c of base) {
      const x = c.x as number;
      expect(c.inv === null ? null : ref.bbInv(x)).toBe(x === 0 ? null : c.inv);
      expect(ref.bbPow7(x)).toBe(c.pow7);
    }
    for (const c of byOp('base_arith')) {
      const [a, b] = [c.a as number, c.b as number];
      expect([ref.bbMul(a, b), ref.bbAdd(a, b), ref.bbSub(a, b)]).toEqual([c.mul, c.add, c.sub]);
    }
  });

  it('ext4 multiply and inverse', () => {
    for (const c of byOp('ext_mul')) expect(ref.ext4Mul(c.a as ref.Ext4, c.b as ref.Ext4)).toEqual(c.c);
    for (const c of byOp('ext_inv')) {
      if (c.inv === null) expect(() => ref.ext4Inv(c.a as ref.Ext4)).toThrow(RangeError);
      else expect(ref.ext4Inv(c.a as ref.Ext4)).toEqual(c.inv);
    }
    expect(byOp('ext_mul').length + byOp('ext_inv').length).toBeGreaterThan(60);
  });
});

describe('SplitMix64 matches the vector generator', () => {
  it('raw outputs for seed 0 and field elements for seed 17', () => {
    const r = new SplitMix64(0);
    expect([r.next(), r.next(), r.next()]).toEqual([0xe220a8397b1dcdafn, 0x6e789e6aa1b965f4n, 0x06c45d188009454fn]);
    expect(Array.from(new SplitMix64(17).fieldArray(4))).toEqual([142898671, 1681194850, 1410165815, 961626826]);
  });
});
