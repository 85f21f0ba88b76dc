// requireCanonical's branch-free first pass: every out-of-range value is found, at its index,
// whatever the array's length and offset; every canonical value passes.
import { describe, expect, it } from 'vitest';
import { optionalOut, requireCanonical } from '../../src/validate.js';
import { BB_P } from '../../src/params/babybear.js';

function fault(v: Uint32Array): string {
  try {
    requireCanonical('v', v);
    return 'ok';
  } catch (e) {
    return `${(e as { code: string }).code} ${(e as Error).message.split(' ')[0]}`;
  }
}

describe('requireCanonical', () => {
  it('passes the largest canonical values and zero', () => {
    expect(fault(Uint32Array.of(0, BB_P - 1, BB_P - 1, 0, 2 ** 31 - 1 - 2 ** 27 * 1, 5))).toBe('ok');
    expect(fault(new Uint32Array(0))).toBe('ok');
  });

  for (const bad of [BB_P, BB_P + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1]) {
    it(`finds ${bad} at every position, in views at any offset`, () => {
      for (const len of [1, 3, 4, 5, 9, 64]) {
        for (let at = 0; at < len; at++) {
          const base = new Uint32Array(len + 3).fill(BB_P - 1);
          const v = base.subarray(3);
          v[at] = bad;
          expect(fault(v)).toBe(`NON_CANONICAL v[${at}]`);
        }
      }
    });
  }
});

describe('optionalOut', () => {
  it('takes a Uint32Array of the exact length only', () => {
    const out = new Uint32Array(4);
    expect(optionalOut(out, 4)).toBe(out);
    expect(optionalOut(undefined, 4)).toBeUndefined();
    expect(() => optionalOut(new Uint32Array(3), 4)).toThrow(/out has 3 elements/);
    expect(() => optionalOut([0, 0, 0, 0], 4)).toThrow(/must be a Uint32Array/);
  });
});
