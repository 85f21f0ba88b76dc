// The bench cases' own checks (demo/bench/cases.ts), in Node on src/ref outputs: a right output
// passes, one wrong value in a sampled row fails, at sizes past the CPU path's.
import { describe, expect, it } from 'vitest';
import { grindCase, nttCase, poseidon2Case } from './cases.js';
import { dft } from '../../src/ref/ntt.js';
import { poseidon2Batch } from '../../src/ref/poseidon2.js';
import { DuplexChallenger } from '../../src/index.js';

describe('sampled checks', () => {
  it('ntt: direct evaluation of sampled rows', async () => {
    const c = nttCase(9, 3);
    const x = c.input();
    const out = dft(x, 3);
    expect(await c.sampled(out, x)).toMatchObject({ ok: true, full: false });
    const last = out.slice();
    last[last.length - 1] = (last[last.length - 1] + 1) % 2013265921; // the last row is always sampled
    expect((await c.sampled(last, x)).ok).toBe(false);
    expect(c.equal(out, last)).toMatchObject({ ok: false, detail: expect.stringMatching(/value 1535 is/) });
  });

  it('poseidon2: sampled states against src/ref', async () => {
    const c = poseidon2Case(6);
    const x = c.input();
    const out = poseidon2Batch(x, 16);
    expect((await c.sampled(out, x)).ok).toBe(true);
    out[5] ^= 1; // state 0 is always sampled
    expect((await c.sampled(out, x)).ok).toBe(false);
  });

  it("grind: the witness must pass check_witness, and equal the CPU path's", async () => {
    const c = grindCase(6);
    const ch: DuplexChallenger = c.input();
    const w = ch.clone().grind(6);
    expect((await c.sampled(w, ch)).ok).toBe(true);
    let bad = w + 1;
    while (ch.clone().checkWitness(6, bad)) bad++;
    expect((await c.sampled(bad, ch)).ok).toBe(false);
    expect(c.equal(w, bad).ok).toBe(false);
  });
});
