// The public `field: 'koalabear'` option on the CPU path (Node, no GPU): prover.poseidon2 and
// prover.batchField over KoalaBear equal p3-koala-bear's vectors (test/vectors/koalabear.json),
// values are range-checked against KoalaBear's p, and an unknown field is INVALID_ARGUMENT with
// the prover usable after. The GPU path of the same calls runs in test/e2e (field, hash specs).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { createProver, isProverError } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';

type Case = Record<string, unknown> & { op: string };
const cases = (JSON.parse(readFileSync(new URL('../vectors/koalabear.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases;
const noAdapter = { requestAdapter: async () => null };

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isProverError(e) ? e.code : `raw ${String(e)}`;
  }
}

describe("field: 'koalabear' on the CPU path", () => {
  it('poseidon2 at widths 16 and 24 equals p3-koala-bear', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    for (const width of [16, 24] as const) {
      const cs = cases.filter((c) => c.op === 'poseidon2' && c.width === width);
      expect(cs.length).toBe(8);
      const got = await p.poseidon2(Uint32Array.from(cs.flatMap((c) => c.input as number[])), { width, field: 'koalabear' });
      expect(Array.from(got)).toEqual(cs.flatMap((c) => c.output as number[]));
    }
    p.destroy();
  });

  it('batchField mul / add / sub / inv and ext4 (X^4 - 3) equal p3-koala-bear', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const base = cases.find((c) => c.op === 'base') as Case &
      Record<'a' | 'b' | 'add' | 'sub' | 'mul', number[]> & { inv: (number | null)[] };
    const a = Uint32Array.from(base.a),
      b = Uint32Array.from(base.b);
    const job = { field: 'koalabear' as const };
    expect(Array.from(await p.batchField('mul', a, b, job))).toEqual(base.mul);
    expect(Array.from(await p.batchField('add', a, b, job))).toEqual(base.add);
    expect(Array.from(await p.batchField('sub', a, b, job))).toEqual(base.sub);
    expect(Array.from(await p.batchField('inv', a, undefined, job))).toEqual(base.inv.map((v) => v ?? 0));
    const ext = cases.filter((c) => c.op === 'ext4');
    const ea = Uint32Array.from(ext.flatMap((c) => c.a as number[])),
      eb = Uint32Array.from(ext.flatMap((c) => c.b as number[]));
    expect(Array.from(await p.batchField('ext4Mul', ea, eb, job))).toEqual(ext.flatMap((c) => c.mul as number[]));
    expect(Array.from(await p.batchField('ext4Inv', ea, undefined, job))).toEqual(ext.flatMap((c) => c.inv_a as number[]));
    p.destroy();
  });

  it('ranges follow the field; an unknown field is INVALID_ARGUMENT and the prover stays usable', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const between = new Uint32Array(16).fill(BB_P + 1); // canonical in KoalaBear, not in BabyBear
    expect(await code(p.poseidon2(between, { width: 16 }))).toBe('NON_CANONICAL');
    expect(await code(p.poseidon2(between, { width: 16, field: 'koalabear' }))).toBe('resolved');
    expect(await code(p.poseidon2(new Uint32Array(16).fill(KOALA_BEAR.p), { width: 16, field: 'koalabear' }))).toBe('NON_CANONICAL');
    expect(await code(p.poseidon2(new Uint32Array(16), { width: 16, field: 'goldilocks' as 'koalabear' }))).toBe('INVALID_ARGUMENT');
    expect(await code(p.batchField('mul', between, between, { field: 'KoalaBear' as 'koalabear' }))).toBe('INVALID_ARGUMENT');
    expect(await code(p.batchField('mul', between, between, { field: 'koalabear' }))).toBe('resolved');
    expect(await code(p.batchField('mul', between, between))).toBe('NON_CANONICAL');
    p.destroy();
  });
});
