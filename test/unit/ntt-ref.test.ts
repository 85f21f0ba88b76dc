// src/ref/ntt.ts against every case of test/vectors/dft.json (Plonky3 0.9.0-rc.2 dft_batch,
// idft_batch, coset_lde_batch with shifts 31 and 7, zero-padded encode), plus round trips.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import * as ntt from '../../src/ref/ntt.js';
import { caseInput, caseLabel, compareOutput, type DftCase, type DftVectors } from '../../bench/support/dft-vectors.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const vectors = JSON.parse(readFileSync(new URL('../vectors/dft.json', import.meta.url), 'utf8')) as DftVectors;

function runRef(c: DftCase, input: Uint32Array): Uint32Array {
  switch (c.op) {
    case 'dft':
      return ntt.dft(input, c.width);
    case 'idft':
      return ntt.idft(input, c.width);
    case 'coset_lde':
      return ntt.cosetLde(input, c.width, c.added_bits!, c.shift!);
    case 'encode':
      return ntt.encode(input, c.width, c.added_bits!);
  }
}

describe('src/ref/ntt.ts vs dft.json (Plonky3 0.9.0-rc.2)', () => {
  it('targets that Plonky3 version and has every op', () => {
    expect(vectors.plonky3).toBe('0.9.0-rc.2');
    const ops = new Set(vectors.cases.map((c) => c.op));
    expect([...ops].sort()).toEqual(['coset_lde', 'dft', 'encode', 'idft']);
  });

  for (const op of ['dft', 'idft', 'coset_lde', 'encode'] as const) {
    it(`${op}: every case`, async () => {
      const cases = vectors.cases.filter((c) => c.op === op);
      expect(cases.length).toBeGreaterThan(30);
      const bad: string[] = [];
      for (const c of cases) {
        const diff = await compareOutput(c, runRef(c, caseInput(c)));
        if (diff) bad.push(`${caseLabel(c)}: ${diff}`);
      }
      expect(bad).toEqual([]);
    });
  }

  it('a wrong answer is caught (one flipped value, head and hash)', async () => {
    const small = vectors.cases.find((c) => c.op === 'dft' && c.output.values && c.log_h >= 3)!;
    const big = vectors.cases.find((c) => c.op === 'dft' && c.output.sha256)!;
    for (const c of [small, big]) {
      const out = runRef(c, caseInput(c));
      out[out.length - 1] ^= 1;
      expect(await compareOutput(c, out)).not.toBeNull();
    }
  });

  it('idft(dft(x)) = x and bitReverseRows is an involution', () => {
    const rng = new SplitMix64(77);
    for (const [h, w] of [
      [1, 3],
      [2, 1],
      [64, 5],
      [1024, 2],
    ]) {
      const x = rng.fieldArray(h * w);
      expect(ntt.idft(ntt.dft(x, w), w)).toEqual(x);
      expect(ntt.bitReverseRows(ntt.bitReverseRows(x, w), w)).toEqual(x);
    }
  });
});
