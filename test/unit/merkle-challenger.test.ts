// Sponge, compression, MerkleTreeMmcs and DuplexChallenger CPU twins (src/ref/merkle.ts,
// src/ref/challenger.ts) against sponge.json, merkle.json and challenger.json (Plonky3 0.9.0-rc.2).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { compress, hashRow, merkleTree, type Matrix } from '../../src/ref/merkle.js';
import { verifyMerklePath } from '../../src/api/verify.js';
import { DuplexChallenger, grindBaseState } from '../../src/ref/challenger.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { isProverError } from '../../src/errors.js';
import { inputValues, type SeededInput } from '../../bench/support/hash-vectors.js';

type Case = Record<string, any>;
const load = (f: string) => (JSON.parse(readFileSync(new URL(`../vectors/${f}`, import.meta.url), 'utf8')) as { cases: Case[] }).cases;
const arr = (x: ArrayLike<number>) => Array.from(x);

describe('PaddingFreeSponge and TruncatedPermutation', () => {
  for (const c of load('sponge.json')) {
    it(`${c.op} ${c.id ?? `width ${c.width}`}`, () => {
      if (c.op === 'hash_rows') {
        const rows: number[][] =
          c.input.rows ??
          (() => {
            const v = inputValues(c.input as SeededInput);
            return Array.from({ length: c.input.height }, (_, i) => arr(v.subarray(i * c.input.width, (i + 1) * c.input.width)));
          })();
        expect(rows.map((r) => arr(hashRow(r)))).toEqual(c.digests);
      } else {
        expect(arr(compress(c.left, c.right))).toEqual(c.output);
      }
    });
  }
});

describe('MerkleTreeMmcs', () => {
  const cases = load('merkle.json');
  it('covers heights 2^0..2^12 and widths 1, 8, 16, 64', () => {
    for (const w of [1, 8, 16, 64]) expect(cases.filter((c) => c.width === w).map((c) => c.log_h)).toEqual([...Array(13).keys()]);
  });
  for (const c of cases) {
    it(`${c.id ?? `log_h ${c.log_h} width ${c.width}`}`, () => {
      const mats: Matrix[] = c.inputs.map((m: SeededInput & { width: number }) => ({ values: inputValues(m), width: m.width }));
      const tree = merkleTree(mats, c.cap_height);
      if (c.cap) expect(tree.cap.map(arr)).toEqual(c.cap);
      else expect(tree.cap.map(arr)).toEqual([c.root]);
      if (c.root) expect(arr(tree.root)).toEqual(c.root);
      for (const o of c.openings) {
        const got = tree.open(o.index);
        expect(got.openedValues).toEqual(o.opened_values);
        expect(got.proof.map(arr)).toEqual(o.proof);
        if (mats.length === 1 && c.cap_height === 0) {
          expect(verifyMerklePath(c.root, o.index, o.opened_values[0], o.proof)).toBe(true);
          // Any change must be rejected: another row value, another index, a flipped sibling.
          const bad = [...o.opened_values[0]];
          bad[0] = (bad[0] + 1) % 2013265921;
          expect(verifyMerklePath(c.root, o.index, bad, o.proof)).toBe(false);
          if (o.proof.length > 0) {
            expect(verifyMerklePath(c.root, o.index ^ 1, o.opened_values[0], o.proof)).toBe(false);
            const sib = o.proof.map((d: number[]) => [...d]);
            sib[sib.length - 1][7] ^= 1;
            expect(verifyMerklePath(c.root, o.index, o.opened_values[0], sib)).toBe(false);
          }
        }
      }
    });
  }
});

describe('DuplexChallenger', () => {
  const cases = load('challenger.json');
  const observed = (values: number[]) => {
    const ch = new DuplexChallenger();
    ch.observeSlice(values);
    return ch;
  };
  for (const c of cases.filter((c) => c.op === 'challenger')) {
    it(`script ${c.id}`, () => {
      const ch = new DuplexChallenger();
      const results = c.script.map((step: Record<string, any>) => {
        if ('observe' in step) {
          ch.observeSlice(step.observe);
          return null;
        }
        if ('sample' in step) return Array.from({ length: step.sample }, () => ch.sample());
        if ('sample_bits' in step) return ch.sampleBits(step.sample_bits);
        if ('sample_ext' in step) return Array.from({ length: step.sample_ext }, () => ch.sampleExt());
        throw new Error(`unknown step ${JSON.stringify(step)}`);
      });
      expect(results).toEqual(c.results);
    });
  }
  const grinds = cases.filter((c) => c.op === 'grind');
  it('grind vectors cover bits 1..12 and 7 prefixes', () => {
    expect(new Set(grinds.map((c) => c.bits))).toEqual(new Set([...Array(12).keys()].map((i) => i + 1)));
    expect(new Set(grinds.map((c) => c.observe.values.length)).size).toBeGreaterThanOrEqual(7);
  });
  for (const c of grinds) {
    it(`grind ${c.id ?? ''} prefix ${c.observe.values.length} bits ${c.bits}`, () => {
      const ch = observed(c.observe.values);
      // The base-state formula the GPU uses decides the same witness.
      const { base, slot } = grindBaseState(ch);
      base[slot] = c.witness;
      expect(poseidon2(base)[7] & (2 ** c.bits - 1)).toBe(0);
      expect(ch.grind(c.bits)).toBe(c.witness);
      expect(ch.sample()).toBe(c.next_sample);
    });
  }
  for (const c of cases.filter((c) => c.op === 'check_witness')) {
    it(`check_witness ${c.id}`, () => {
      expect(observed(c.observe.values).checkWitness(c.bits, c.witness)).toBe(c.valid);
    });
  }
  it('clone is independent; bad input throws ProverError codes', () => {
    const a = observed([1, 2, 3]);
    const b = a.clone();
    expect(a.sample()).toBe(b.sample());
    b.observe(4);
    expect(a.sample()).not.toBe(b.sample());
    const code = (f: () => unknown) => {
      try {
        f();
        return 'none';
      } catch (e) {
        return isProverError(e) ? e.code : String(e);
      }
    };
    expect(code(() => a.observe(2013265921))).toBe('NON_CANONICAL');
    expect(code(() => a.observe(-1))).toBe('INVALID_ARGUMENT');
    expect(code(() => a.sampleBits(31))).toBe('INVALID_ARGUMENT');
    expect(code(() => a.checkWitness(-1, 0))).toBe('INVALID_ARGUMENT');
    expect(a.checkWitness(0, 12345)).toBe(true);
  });
});
