// The straight-line GPU Poseidon2 (scripts/gen-poseidon2-wgsl.ts): its cheap internal
// diagonal (src/ref/poseidon2-diag.ts) equals Plonky3's diagonal multiply on every lane, the
// exact x·2^-k formula holds on edge values, and the generated WGSL files are up to date.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BB_P } from '../../src/params/babybear.js';
import { bbMul, bbPow } from '../../src/field/babybear.js';
import { applyDiagOp, diagByMultiply, diagOp, diagOps, div2k, internalLayerCheap } from '../../src/ref/poseidon2-diag.js';
import { internalDiagonal, internalLayer, poseidon2Batch, type Poseidon2Width } from '../../src/ref/poseidon2.js';
import { poseidon2Wgsl } from '../../scripts/gen-poseidon2-wgsl.js';
import { montMulsPerPermutation } from '../../src/kernels/poseidon2.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const EDGES = [0, 1, 2, 3, 255, 256, 257, 2 ** 27 - 1, 2 ** 27, 2 ** 27 + 1, 2 ** 30, BB_P - 2, BB_P - 1];

describe('x·2^-k by shifts (p2s_div2k)', () => {
  it('equals x·(2^-1)^k mod p for k = 1..27 on edge and random values', () => {
    const xs = [...EDGES, ...new SplitMix64(41).fieldArray(300)];
    for (let k = 1; k <= 27; k++) {
      const inv = bbPow((BB_P + 1) / 2, k);
      for (const x of xs) expect(div2k(x, k), `x=${x} k=${k}`).toBe(Number((BigInt(x) * BigInt(inv)) % BigInt(BB_P)));
    }
  });
  it('stays canonical: every output < p', () => {
    for (let k = 1; k <= 27; k++) for (const x of EDGES) expect(div2k(x, k)).toBeLessThan(BB_P);
  });
});

describe('Plonky3 internal diagonals as cheap operations', () => {
  for (const w of [16, 24] as const) {
    it(`width ${w}: every lane's op equals the Montgomery multiply by V_i`, () => {
      const ops = diagOps(w);
      expect(ops.length).toBe(w);
      const xs = [...EDGES, ...new SplitMix64(77 + w).fieldArray(200)];
      for (let i = 0; i < w; i++) for (const x of xs) expect(applyDiagOp(ops[i], x), `lane ${i} x=${x}`).toBe(diagByMultiply(w, i, x));
    });
    it(`width ${w}: M_I with cheap ops equals src/ref internalLayer`, () => {
      const states = new SplitMix64(99 + w).fieldArray(50 * w);
      for (let j = 0; j < 50; j++) {
        const a = Array.from(states.subarray(j * w, (j + 1) * w)),
          b = a.slice();
        internalLayer(a, internalDiagonal(w));
        internalLayerCheap(b, diagOps(w));
        expect(b).toEqual(a);
      }
    });
  }
  it('rejects an entry that is not ±1..4 or ±2^-k (the generator would stop)', () => {
    expect(() => diagOp(5)).toThrow();
    expect(() => diagOp(bbMul(7, 9))).toThrow();
  });
  it('the reference permutation is unchanged (sanity: src/ref still matches itself on a zero state)', () => {
    const z = new Uint32Array(16);
    expect(poseidon2Batch(z, 16 as Poseidon2Width).length).toBe(16);
  });
});

describe('generated straight-line Poseidon2 WGSL', () => {
  it('wgsl files are what scripts/gen-poseidon2-wgsl.ts generates', () => {
    for (const [rel, text] of Object.entries(poseidon2Wgsl())) {
      expect(readFileSync(join(__dirname, '..', '..', rel), 'utf8'), rel).toBe(text);
    }
  });
  it('no state lane is indexed: the permutation libs hold no array type', () => {
    const files = poseidon2Wgsl();
    for (const w of [16, 24]) expect(files[`wgsl/lib/poseidon2_s${w}.gen.wgsl`]).not.toMatch(/array</);
  });
  it('multiply counts: 564 at width 16, 852 at width 24 (S-boxes only: the internal diagonal takes none)', () => {
    expect(montMulsPerPermutation(16)).toBe(564);
    expect(montMulsPerPermutation(24)).toBe(852);
  });
});
