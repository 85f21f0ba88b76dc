/**
 * GPU proof-of-work (prover.grind) against Plonky3 DuplexChallenger::grind (test/vectors/
 * challenger.json: 7 observed prefixes x bits 1..12, smallest witness and the next sample),
 * plus bad-input codes. Run by the `grind-check` mode and `bench grind`.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { DuplexChallenger } from '../../src/ref/challenger.js';
import { expectCode, type CheckRow } from './poseidon2-check.js';

type GrindCase = { op: string; id?: string; observe: { values: number[] }; bits: number; witness: number; next_sample: number };

export async function checkGrind(prover: Prover, vectors: { cases: GrindCase[] }, maxBits = 12): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const cases = vectors.cases.filter((c) => c.op === 'grind' && c.bits <= maxBits);
  // One row per observed-prefix length keeps the table short (7 rows, about 12 vectors each).
  for (const len of [...new Set(cases.map((c) => c.observe.values.length))]) {
    const group = cases.filter((c) => c.observe.values.length === len);
    const t0 = performance.now();
    const bad: string[] = [];
    for (const c of group) {
      const ch = new DuplexChallenger();
      ch.observeSlice(c.observe.values);
      const w = await prover.grind(ch, c.bits);
      const next = ch.sample();
      if (w !== c.witness || next !== c.next_sample)
        bad.push(`${c.id ?? ''} bits ${c.bits}: w=${w} (plonky3 ${c.witness}) next=${next} (plonky3 ${c.next_sample})`);
    }
    rows.push({
      step: `grind prefix ${len}`,
      ok: bad.length === 0,
      n: group.length,
      ms: performance.now() - t0,
      detail: bad.length
        ? bad[0]
        : `${group.length} witnesses (bits ${Math.min(...group.map((c) => c.bits))}..${Math.max(...group.map((c) => c.bits))}) and next samples equal Plonky3`,
    });
  }
  return rows;
}

export async function checkGrindErrors(prover: Prover): Promise<CheckRow[]> {
  const ch = new DuplexChallenger();
  const zeroBits = await prover.grind(ch.clone(), 0);
  return [
    await expectCode(prover, 'grind bits 31', 'INVALID_ARGUMENT', () => prover.grind(ch, 31)),
    await expectCode(prover, 'grind bits -1', 'INVALID_ARGUMENT', () => prover.grind(ch, -1)),
    await expectCode(prover, 'grind bits 2.5', 'INVALID_ARGUMENT', () => prover.grind(ch, 2.5)),
    await expectCode(prover, 'grind without a DuplexChallenger', 'INVALID_ARGUMENT', () => prover.grind({} as DuplexChallenger, 4)),
    {
      step: 'grind bits 0 returns 0',
      ok: zeroBits === 0 && ch.sample() === new DuplexChallenger().sample(),
      n: 1,
      ms: 0,
      detail: `w=${zeroBits}, challenger untouched`,
    },
  ];
}
