/**
 * The WHIR prover's host math against its definitions: multilinear evaluation = Σ evals·eq,
 * the sumcheck's messages and sum against the folded tables, select weights against the
 * univariate reading, and the pruned multiproof against the reference Merkle tree.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BB_P } from '../../src/params/babybear.js';
import { compress, merkleTree } from '../../src/ref/merkle.js';
import { efAdd, efGet, efMul, efScale, efSub, efVecFromList, type Ext4 } from '../../src/whir/ext.js';
import {
  addEqWeights,
  addSelectWeights,
  eqAt,
  eqTable,
  evalBase,
  evalExt,
  evalUnivariateExt,
  expandFromUnivariate,
  foldLastExt,
} from '../../src/whir/multilinear.js';
import { SumcheckState, extrapolate01Inf } from '../../src/whir/sumcheck.js';
import { prunedSiblings, restoreRoot } from '../../src/whir/multiproof.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const field = fc.integer({ min: 0, max: BB_P - 1 });
const ext = fc.tuple(field, field, field, field) as fc.Arbitrary<Ext4>;

function randomExt(rng: SplitMix64): Ext4 {
  return [rng.nextField(), rng.nextField(), rng.nextField(), rng.nextField()];
}

describe('WHIR multilinear math', () => {
  it('evaluation equals the eq-weighted sum, for base and extension tables', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer(), (m, seed) => {
        const rng = new SplitMix64(seed);
        const evals = rng.fieldArray(2 ** m);
        const point = Array.from({ length: m }, () => randomExt(rng));
        const eq = eqTable(point);
        let dot: Ext4 = [0, 0, 0, 0];
        for (let b = 0; b < 2 ** m; b++) dot = efAdd(dot, efScale(efGet(eq, b), evals[b]));
        expect(evalBase(evals, point)).toEqual(dot);
        const lifted = efVecFromList([...evals].map((x) => [x, 0, 0, 0] as Ext4));
        expect(evalExt(lifted, point)).toEqual(dot);
      }),
      { numRuns: 30 },
    );
  });

  it('a point on the hypercube picks its entry (x_0 is the most significant bit)', () => {
    const evals = Uint32Array.from([10, 11, 12, 13, 14, 15, 16, 17]);
    const bit = (v: number): Ext4 => [v, 0, 0, 0];
    expect(evalBase(evals, [bit(1), bit(0), bit(1)])).toEqual([15, 0, 0, 0]);
    expect(eqAt([bit(1), bit(0)], [bit(1), bit(0)])).toEqual([1, 0, 0, 0]);
    expect(eqAt([bit(1), bit(0)], [bit(0), bit(0)])).toEqual([0, 0, 0, 0]);
  });

  it('expand_from_univariate lists z^(2^(m-1)) .. z^2, z', () => {
    fc.assert(
      fc.property(ext, (z) => {
        const p = expandFromUnivariate(z, 3);
        expect(p[2]).toEqual(z);
        expect(p[1]).toEqual(efMul(z, z));
        expect(p[0]).toEqual(efMul(p[1], p[1]));
      }),
      { numRuns: 10 },
    );
  });

  it('select weights read the table as univariate coefficients', () => {
    const rng = new SplitMix64(7);
    const evals = efVecFromList(Array.from({ length: 8 }, () => randomExt(rng)));
    const x = rng.nextField();
    const coeff = randomExt(rng);
    const w = new Uint32Array(32);
    addSelectWeights(w, x, coeff);
    let dot: Ext4 = [0, 0, 0, 0];
    for (let b = 0; b < 8; b++) dot = efAdd(dot, efMul(efGet(w, b), efGet(evals, b)));
    expect(dot).toEqual(efMul(coeff, evalUnivariateExt(evals, x)));
  });
});

describe('WHIR sumcheck', () => {
  it("after every round the claimed sum equals the folded tables' dot product", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer(), (m, seed) => {
        const rng = new SplitMix64(seed);
        const evals = rng.fieldArray(2 ** m);
        const weights = eqTable(Array.from({ length: m }, () => randomExt(rng)));
        const state = new SumcheckState({ base: evals }, weights, [0, 0, 0, 0]);
        state.sum = state.dot();
        for (let i = 0; i < m; i++) {
          state.advance(state.roundMessage(), randomExt(rng));
          expect(state.sum).toEqual(state.dot());
        }
        expect(state.numVariables).toBe(0);
      }),
      { numRuns: 30 },
    );
  });

  it('extrapolate01Inf interpolates a quadratic from h(0), h(1) and its leading coefficient', () => {
    fc.assert(
      fc.property(ext, ext, ext, ext, (a, b, c, r) => {
        // h(x) = a + b x + c x^2: h(0) = a, h(1) = a + b + c, leading c.
        const h = (x: Ext4) => efAdd(efAdd(a, efMul(b, x)), efMul(c, efMul(x, x)));
        expect(extrapolate01Inf(h([0, 0, 0, 0]), h([1, 0, 0, 0]), c, r)).toEqual(h(r));
      }),
      { numRuns: 20 },
    );
  });

  it('h(0) + h(1) equals the claimed sum in every round', () => {
    const rng = new SplitMix64(3);
    const m = 5;
    const state = new SumcheckState(
      { base: rng.fieldArray(2 ** m) },
      eqTable(Array.from({ length: m }, () => randomExt(rng))),
      [0, 0, 0, 0],
    );
    state.sum = state.dot();
    for (let i = 0; i < m; i++) {
      const [h0] = state.roundMessage();
      // h(1) is Σ e[2j+1] w[2j+1]: compute it directly.
      const e = state.evals();
      let h1: Ext4 = [0, 0, 0, 0];
      for (let j = 0; j < e.length / 8; j++) h1 = efAdd(h1, efMul(efGet(e, 2 * j + 1), efGet(state.weights, 2 * j + 1)));
      expect(efAdd(h0, h1)).toEqual(state.sum);
      const r = randomExt(rng);
      const [c0, cInf] = state.roundMessage();
      state.sum = extrapolate01Inf(c0, efSub(state.sum, c0), cInf, r);
      state.bind(r);
    }
  });
});

describe('WHIR pruned multiproof', () => {
  const compressAll = (pairs: Uint32Array) => {
    const out = new Uint32Array(pairs.length / 2);
    for (let j = 0; 16 * j < pairs.length; j++)
      out.set(compress(pairs.subarray(16 * j, 16 * j + 8), pairs.subarray(16 * j + 8, 16 * j + 16)), 8 * j);
    return out;
  };
  it('prunes to the siblings no queried leaf covers and restores the root', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        fc.integer(),
        (levels, raw, seed) => {
          const rng = new SplitMix64(seed);
          const height = 2 ** levels;
          const rows = rng.fieldArray(height * 3);
          const tree = merkleTree([{ values: rows, width: 3 }]);
          const indices = raw.map((x) => x % height);
          const paths = new Map(indices.map((i) => [i, tree.open(i).proof] as const));
          const siblings = prunedSiblings(indices, levels, paths);
          const unique = new Set(indices).size;
          expect(siblings.length).toBeLessThanOrEqual(unique * levels);
          const leaves = new Map([...new Set(indices)].map((i) => [i, tree.layers[0][i]] as const));
          expect(restoreRoot(leaves, levels, siblings, compressAll)).toEqual(tree.root);
          if (siblings.length > 0) {
            const bad = siblings.map((s, k) => (k === 0 ? Uint32Array.from(s, (v, j) => (j === 0 ? (v + 1) % BB_P : v)) : s));
            expect(restoreRoot(leaves, levels, bad, compressAll)).not.toEqual(tree.root);
            expect(restoreRoot(leaves, levels, [siblings[0].subarray(0, 7), ...siblings.slice(1)], compressAll)).toBeNull();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('WHIR CPU loops against their allocating definitions', () => {
  it('addEq equals eqTable, foldExt equals the definition, round messages equal the pairwise sums', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer(), (m, seed) => {
        const rng = new SplitMix64(seed);
        const point = Array.from({ length: m }, () => randomExt(rng));
        const coeff = randomExt(rng);
        const w = new Uint32Array(4 * 2 ** m);
        addEqWeights(w, point, coeff);
        expect(w).toEqual(eqTable(point, coeff));
        const e = efVecFromList(Array.from({ length: 2 ** m }, () => randomExt(rng)));
        const r = randomExt(rng);
        const folded = foldLastExt(e, r);
        for (let j = 0; j < 2 ** (m - 1); j++) {
          const lo = efGet(e, 2 * j);
          expect(efGet(folded, j)).toEqual(efAdd(lo, efMul(r, efSub(efGet(e, 2 * j + 1), lo))));
        }
        let c0: Ext4 = [0, 0, 0, 0];
        let cInf: Ext4 = [0, 0, 0, 0];
        for (let j = 0; j < 2 ** (m - 1); j++) {
          c0 = efAdd(c0, efMul(efGet(e, 2 * j), efGet(w, 2 * j)));
          cInf = efAdd(cInf, efMul(efSub(efGet(e, 2 * j + 1), efGet(e, 2 * j)), efSub(efGet(w, 2 * j + 1), efGet(w, 2 * j))));
        }
        expect(new SumcheckState({ ext: e }, w, [0, 0, 0, 0]).roundMessage()).toEqual([c0, cInf]);
      }),
      { numRuns: 25 },
    );
  });
});
