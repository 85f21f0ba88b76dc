/**
 * GPU Poseidon2 over KoalaBear (prover.poseidon2 with `field: 'koalabear'`: the generated
 * koalabear_poseidon2_s16/24_batch kernels) against p3-koala-bear's own outputs
 * (test/vectors/koalabear.json, default constants, widths 16 and 24) and against src/ref on
 * random batches, plus the field option's bad-input codes. Run by the dev page
 * (`poseidon2-koalabear-check`). The caller passes the parsed vector file.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { BB_P } from '../../src/params/babybear.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import { poseidon2Batch, type Poseidon2Width } from '../../src/ref/poseidon2.js';
import { SplitMix64 } from './splitmix.js';
import { expectCode, type CheckRow } from './poseidon2-check.js';

type Case = { op: string; width?: Poseidon2Width; id?: string; input?: number[]; output?: number[] };

const firstDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
};

/** The crate's permutation vectors per width, then `random` random states per width vs src/ref. */
export async function checkPoseidon2KoalaBear(prover: Prover, vectors: { cases: Case[] }, random = 64): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const field = 'koalabear' as const;
  for (const width of [16, 24] as const) {
    const cs = vectors.cases.filter((c) => c.op === 'poseidon2' && c.width === width);
    const t0 = performance.now();
    const got = await prover.poseidon2(Uint32Array.from(cs.flatMap((c) => c.input!)), { width, field });
    const want = cs.flatMap((c) => c.output!);
    const d = cs.length === 0 ? 0 : firstDiff(got, want);
    rows.push({
      step: `poseidon2 koalabear w${width}`,
      ok: d < 0,
      n: cs.length,
      ms: performance.now() - t0,
      detail:
        d < 0
          ? `${cs.length} p3-koala-bear vectors equal`
          : `vector ${cs[Math.floor(d / width)]?.id}: lane ${d % width} gpu=${got[d]} crate=${want[d]}`,
    });
  }
  for (const width of [16, 24] as const) {
    const states = new SplitMix64(0x4b42 + width).fieldArray(random * width, KOALA_BEAR.p);
    states.fill(0, 0, width); // edge states: zero, all p-1, values BabyBear would reject
    states.fill(KOALA_BEAR.p - 1, width, 2 * width);
    states.fill(BB_P + 5, 2 * width, 3 * width);
    const t0 = performance.now();
    const got = await prover.poseidon2(states, { width, field });
    const d = firstDiff(got, poseidon2Batch(states, width, undefined, KOALA_BEAR));
    rows.push({
      step: `poseidon2 koalabear random w${width}`,
      ok: d < 0,
      n: random,
      ms: performance.now() - t0,
      detail: d < 0 ? `${random} states equal src/ref` : `state ${Math.floor(d / width)} lane ${d % width} differs`,
    });
  }
  return rows;
}

export async function checkPoseidon2KoalaBearErrors(prover: Prover): Promise<CheckRow[]> {
  const s16 = new Uint32Array(16);
  const babyBearShaped = {
    externalInitial: Array.from({ length: 4 }, () => Array(16).fill(1)),
    internal: Array(13).fill(2),
    externalFinal: Array.from({ length: 4 }, () => Array(16).fill(3)),
  };
  return [
    await expectCode(prover, 'poseidon2 unknown field', 'INVALID_ARGUMENT', () =>
      prover.poseidon2(s16, { width: 16, field: 'goldilocks' as 'koalabear' }),
    ),
    await expectCode(prover, 'poseidon2 koalabear non-canonical', 'NON_CANONICAL', () =>
      prover.poseidon2(
        s16.map((_, i) => (i === 3 ? KOALA_BEAR.p : 0)),
        { width: 16, field: 'koalabear' },
      ),
    ),
    await expectCode(prover, 'poseidon2 koalabear constants with 13 internal', 'INVALID_LENGTH', () =>
      prover.poseidon2(s16, { width: 16, field: 'koalabear', constants: babyBearShaped }),
    ),
    await expectCode(prover, 'batchField unknown field', 'INVALID_ARGUMENT', () =>
      prover.batchField('mul', s16, s16, { field: 'mersenne31' as 'koalabear' }),
    ),
  ];
}
