// Poseidon2 constants and permutation (src/params/poseidon2-babybear.ts, src/ref/poseidon2.ts)
// against test/vectors/poseidon2.json, produced by Plonky3 0.9.0-rc.2 itself.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { render, grainConstants, OUT_PATH } from '../../scripts/gen-poseidon2.js';
import { POSEIDON2_DEFAULT_16, POSEIDON2_DEFAULT_24, POSEIDON2_DIAG_16, POSEIDON2_DIAG_24 } from '../../src/params/poseidon2-babybear.js';
import { constantsProblem, poseidon2, poseidon2Batch, internalLayer, type Poseidon2Width } from '../../src/ref/poseidon2.js';
import { inputValues, vectorConstants, type ConstantsCase } from '../../bench/support/hash-vectors.js';

type Case = Record<string, unknown> & { kind: string; set: string; width: Poseidon2Width };
const cases = (JSON.parse(readFileSync(new URL('../vectors/poseidon2.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases;
const constantsOf = (set: string, width: number) =>
  cases.find((c) => c.kind === 'constants' && c.set === set && c.width === width) as unknown as Case & ConstantsCase;

describe('Poseidon2 constants', () => {
  it('the generated file is up to date with scripts/gen-poseidon2.ts', () => {
    expect(readFileSync(OUT_PATH, 'utf8')).toBe(render());
  });
  for (const [w, ours] of [
    [16, POSEIDON2_DEFAULT_16],
    [24, POSEIDON2_DEFAULT_24],
  ] as const) {
    it(`width ${w}: Grain LFSR output equals Plonky3's default_babybear_poseidon2_${w} dump`, () => {
      const v = constantsOf('default', w);
      expect(ours.externalInitial).toEqual(v.external_initial);
      expect(ours.internal).toEqual(v.internal);
      expect(ours.externalFinal).toEqual(v.external_terminal);
      expect(grainConstants(w, v.internal.length)).toEqual([...v.external_initial.flat(), ...v.internal, ...v.external_terminal.flat()]);
    });
  }
  it('internal diagonals equal plonky3.md §2 (Plonky3 constants op), and M_I = J + diag(V)', () => {
    expect(POSEIDON2_DIAG_16).toEqual([
      2013265919, 1, 2, 1006632961, 3, 4, 1006632960, 2013265918, 2013265917, 2005401601, 1509949441, 1761607681, 2013265906, 7864320,
      125829120, 15,
    ]);
    expect(POSEIDON2_DIAG_24).toEqual([
      2013265919, 1, 2, 1006632961, 3, 4, 1006632960, 2013265918, 2013265917, 2005401601, 1509949441, 1761607681, 1887436801, 1997537281,
      2009333761, 2013265906, 7864320, 503316480, 251658240, 125829120, 62914560, 31457280, 15728640, 15,
    ]);
    const e3 = new Uint32Array(16);
    e3[3] = 1;
    internalLayer(e3, POSEIDON2_DIAG_16);
    expect(e3[0]).toBe(1);
    expect(e3[3]).toBe(1006632962); // 1 + 1/2
  });
  it('constantsProblem accepts the default and the RNG set, rejects wrong shapes', () => {
    expect(constantsProblem(16, POSEIDON2_DEFAULT_16)).toBeUndefined();
    expect(constantsProblem(24, vectorConstants(constantsOf('xoroshiro128plus-seed1', 24)))).toBeUndefined();
    expect(constantsProblem(24, POSEIDON2_DEFAULT_16)).toMatchObject({
      code: 'INVALID_LENGTH',
      message: expect.stringMatching(/externalInitial/),
    });
    expect(constantsProblem(16, { ...POSEIDON2_DEFAULT_16, internal: [1, 2] })).toMatchObject({
      code: 'INVALID_LENGTH',
      message: expect.stringMatching(/internal/),
    });
    expect(
      constantsProblem(16, { ...POSEIDON2_DEFAULT_16, internal: [...POSEIDON2_DEFAULT_16.internal.slice(1), 2013265921] }),
    ).toMatchObject({ code: 'NON_CANONICAL', message: expect.stringMatching(/canonical/) });
    expect(constantsProblem(16, { ...POSEIDON2_DEFAULT_16, internal: [...POSEIDON2_DEFAULT_16.internal.slice(1), 1.5] })).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('Poseidon2 permutation equals Plonky3', () => {
  const perms = cases.filter((c) => c.kind === 'perm');
  it('covers both widths and both constant sets', () => {
    for (const set of ['default', 'xoroshiro128plus-seed1'])
      for (const w of [16, 24]) {
        expect(perms.filter((c) => c.set === set && c.width === w).length).toBeGreaterThanOrEqual(5);
      }
  });
  for (const c of perms) {
    it(`${c.set} width ${c.width} ${String(c.id)}`, () => {
      const constants = c.set === 'default' ? undefined : vectorConstants(constantsOf(c.set, c.width));
      const out = poseidon2(inputValues(c.input as never), constants);
      expect(Array.from(out)).toEqual(c.output);
    });
  }
  it('batch = one permutation per state', () => {
    const a = perms.filter((c) => c.set === 'default' && c.width === 16).slice(0, 3);
    const batch = poseidon2Batch(Uint32Array.from(a.flatMap((c) => Array.from(inputValues(c.input as never)))), 16);
    expect(Array.from(batch)).toEqual(a.flatMap((c) => c.output as number[]));
  });
});
