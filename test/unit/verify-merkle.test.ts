// The public verifier refuses every tampered opening of Plonky3's own trees (merkle.json):
// each single-value change to the row, a sibling or the root (±1, +p, +2^32 in a plain array),
// swapped or missing siblings, wrong indices; and it throws a ProverError only for arguments of
// the wrong type (issue 32: it used to reduce non-canonical values and say yes).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { verifyMerklePath } from '../../src/api/verify.js';
import { isProverError } from '../../src/errors.js';
import { BB_P } from '../../src/params/babybear.js';

type Opening = { index: number; opened_values: number[][]; proof: number[][] };
type Case = { root: number[]; cap_height: number; inputs: unknown[]; openings: Opening[] };
const cases = (JSON.parse(readFileSync(new URL('../vectors/merkle.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases.filter(
  (c) => c.inputs.length === 1 && c.cap_height === 0 && c.root,
);

/** Every way to change one value v: ±1 within the field, +p and +2^32 (non-canonical aliases). */
const edits = (v: number) => [v === BB_P - 1 ? 0 : v + 1, v === 0 ? BB_P - 1 : v - 1, v + BB_P, v + 2 ** 32];

describe('verifyMerklePath refuses tampered openings', () => {
  it('has Plonky3 single-matrix trees with paths to tamper with', () => {
    expect(cases.length).toBeGreaterThanOrEqual(5);
    expect(cases.some((c) => c.openings.some((o) => o.proof.length >= 4))).toBe(true);
  });
  for (const c of cases.slice(0, 8)) {
    it(`root ${c.root[0]}…: every single-value change is refused`, () => {
      for (const o of c.openings.slice(0, 2)) {
        const row = o.opened_values[0];
        expect(verifyMerklePath(c.root, o.index, row, o.proof)).toBe(true);
        expect(
          verifyMerklePath(
            Uint32Array.from(c.root),
            o.index,
            Uint32Array.from(row),
            o.proof.map((d) => Uint32Array.from(d)),
          ),
        ).toBe(true);
        row.forEach((v, i) => {
          for (const w of edits(v))
            expect(
              verifyMerklePath(
                c.root,
                o.index,
                row.map((x, j) => (j === i ? w : x)),
                o.proof,
              ),
              `row[${i}] ${v} -> ${w}`,
            ).toBe(false);
        });
        o.proof.forEach((d, l) =>
          d.forEach((v, k) => {
            for (const w of edits(v)) {
              const sib = o.proof.map((e, m) => (m === l ? e.map((x, j) => (j === k ? w : x)) : e));
              expect(verifyMerklePath(c.root, o.index, row, sib), `sibling ${l}[${k}] ${v} -> ${w}`).toBe(false);
            }
          }),
        );
        c.root.forEach((v, k) => {
          for (const w of edits(v))
            expect(
              verifyMerklePath(
                c.root.map((x, j) => (j === k ? w : x)),
                o.index,
                row,
                o.proof,
              ),
            ).toBe(false);
        });
        const n = 2 ** o.proof.length;
        for (const i of [o.index ^ 1, (o.index + 1) % n, o.index + n, -1, o.index + 0.5, NaN, Infinity]) {
          if (i !== o.index) expect(verifyMerklePath(c.root, i, row, o.proof), `index ${i}`).toBe(false);
        }
        if (o.proof.length >= 2) {
          const swapped = [o.proof[1], o.proof[0], ...o.proof.slice(2)];
          expect(verifyMerklePath(c.root, o.index, row, swapped)).toBe(false);
        }
        if (o.proof.length >= 1) {
          expect(verifyMerklePath(c.root, o.index, row, o.proof.slice(1))).toBe(false);
          expect(verifyMerklePath(c.root, o.index, row, [...o.proof, o.proof[0]])).toBe(false);
          expect(verifyMerklePath(c.root, o.index, row, [o.proof[0].slice(0, 7), ...o.proof.slice(1)])).toBe(false);
        }
        const dims = { width: row.length, height: 2 ** o.proof.length };
        expect(verifyMerklePath(c.root, o.index, row, o.proof, dims)).toBe(true);
        expect(verifyMerklePath(c.root, o.index, [...row, 0], o.proof, dims)).toBe(false);
        expect(verifyMerklePath(c.root, o.index, row, o.proof, { ...dims, height: dims.height * 2 })).toBe(false);
        expect(verifyMerklePath(c.root.slice(0, 7), o.index, row, o.proof)).toBe(false);
        expect(
          verifyMerklePath(
            c.root,
            o.index,
            row.map((x) => x + 0.5),
            o.proof,
          ),
        ).toBe(false);
      }
    });
  }
  it('a sparse row or sibling is refused, not read as zeros', () => {
    const c = cases.find((x) => x.openings[0].proof.length > 0)!;
    const o = c.openings[0];
    const holey = [...o.opened_values[0]];
    delete holey[0];
    expect(verifyMerklePath(c.root, o.index, holey, o.proof)).toBe(false);
  });
});

describe('verifyMerklePath throws only for arguments of the wrong type', () => {
  const c = cases[0];
  const o = c.openings[0];
  const code = (f: () => unknown) => {
    try {
      f();
      return 'none';
    } catch (e) {
      return isProverError(e) ? e.code : `raw ${String(e)}`;
    }
  };
  const bad: [string, () => unknown][] = [
    ['null root', () => verifyMerklePath(null as never, o.index, o.opened_values[0], o.proof)],
    ['null row', () => verifyMerklePath(c.root, o.index, null as never, o.proof)],
    ['null siblings', () => verifyMerklePath(c.root, o.index, o.opened_values[0], null as never)],
    ['a null sibling', () => verifyMerklePath(c.root, o.index, o.opened_values[0], [null as never])],
    ['a string row', () => verifyMerklePath(c.root, o.index, 'abc' as never, o.proof)],
    ['a symbol index', () => verifyMerklePath(c.root, Symbol('i') as never, o.opened_values[0], o.proof)],
    ['a bigint index', () => verifyMerklePath(c.root, 1n as never, o.opened_values[0], o.proof)],
    [
      'constants of the wrong shape',
      () =>
        verifyMerklePath(c.root, o.index, o.opened_values[0], o.proof, { externalInitial: [], internal: [], externalFinal: [] } as never),
    ],
    ['a string width', () => verifyMerklePath(c.root, o.index, o.opened_values[0], o.proof, { width: '8' as never })],
    ['options null', () => verifyMerklePath(c.root, o.index, o.opened_values[0], o.proof, null as never)],
  ];
  for (const [name, f] of bad) it(name, () => expect(code(f)).toMatch(/^(INVALID_ARGUMENT|INVALID_LENGTH)$/));
});
