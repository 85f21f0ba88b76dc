// The public `field: 'koalabear'` option on the CPU path (Node, no GPU): prover.poseidon2,
// prover.batchField and the NTT methods over KoalaBear equal p3-koala-bear's vectors (test/vectors/koalabear.json),
// values are range-checked against KoalaBear's p, and an unknown field is INVALID_ARGUMENT with
// the prover usable after. The GPU path of the same calls runs in test/e2e (field, hash specs).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { createProver, isProverError } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import { encode } from '../../src/ref/ntt.js';

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

describe("NTT methods with field: 'koalabear' on the CPU path", () => {
  type Matrix = { values: number[] };
  type DftCase = Case & { id: string; height: number; width: number; input: number[]; dft: Matrix; idft: Matrix };
  const dftCases = () => cases.filter((c) => c.op === 'dft') as DftCase[];

  it('dft, idft, lde equal p3-koala-bear; encode equals src/ref; a gpu: true result keeps its field', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const field = 'koalabear' as const;
    expect(dftCases().length).toBeGreaterThanOrEqual(5);
    for (const c of dftCases()) {
      const x = Uint32Array.from(c.input);
      const lde = c.lde as { added_bits: number; shift: number; output: Matrix };
      expect(Array.from(await p.dft(x, { width: c.width, field })), `${c.id} dft`).toEqual(c.dft.values);
      expect(Array.from(await p.idft(x, { width: c.width, field })), `${c.id} idft`).toEqual(c.idft.values);
      const got = await p.lde(x, { width: c.width, field, addedBits: lde.added_bits, shift: lde.shift });
      expect(Array.from(got), `${c.id} lde`).toEqual(lde.output.values);
    }
    const x = Uint32Array.from({ length: 64 }, (_, i) => (i * 2654435761) % KOALA_BEAR.p);
    const enc = await p.encode(x, { width: 2, addedBits: 2, field });
    expect(enc).toEqual(encode(x, 2, 2, KOALA_BEAR));
    const m = await p.dft(x, { width: 2, field, gpu: true });
    expect(m.field).toBe('koalabear');
    expect(await p.idft(m, { width: 2, field })).toEqual(x);
    p.destroy();
  });

  it('ranges and limits follow the field; a bad field or a matrix of the other field is refused; the prover stays usable', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const between = new Uint32Array(8).fill(BB_P + 1); // canonical in KoalaBear, not in BabyBear
    expect(await code(p.dft(between, { width: 1 }))).toBe('NON_CANONICAL');
    expect(await code(p.dft(between, { width: 1, field: 'koalabear' }))).toBe('resolved');
    expect(await code(p.dft(new Uint32Array(8).fill(KOALA_BEAR.p), { width: 1, field: 'koalabear' }))).toBe('NON_CANONICAL');
    expect(await code(p.lde(between, { width: 1, field: 'koalabear', addedBits: 1, shift: KOALA_BEAR.p }))).toBe('NON_CANONICAL');
    expect(await code(p.dft(between, { width: 1, field: 'goldilocks' as 'koalabear' }))).toBe('INVALID_ARGUMENT');
    expect(await code(p.encode(between, { width: 1, field: 'koalabear', addedBits: 25 }))).toBe('INVALID_ARGUMENT');
    // Past 2^24 output rows KoalaBear is TOO_LARGE, as BabyBear is past 2^27 (validated before any work).
    const big = new Uint32Array(2 ** 20);
    expect(await code(p.lde(big, { width: 1, field: 'koalabear', addedBits: 5, shift: 3 }))).toBe('TOO_LARGE');
    expect(await code(p.encode(big, { width: 1, addedBits: 8 }))).toBe('TOO_LARGE');
    const m = await p.dft(between, { width: 1, field: 'koalabear', gpu: true });
    expect(await code(p.idft(m, { width: 1 }))).toBe('INVALID_ARGUMENT');
    expect(await code(p.merkleCommit(m))).toBe('INVALID_ARGUMENT');
    expect(await code(p.idft(m, { width: 1, field: 'koalabear' }))).toBe('resolved');
    expect(Array.from(await p.dft(Uint32Array.from([1, 2]), { width: 1 }))).toEqual([3, BB_P - 1]);
    p.destroy();
  });
});
