/**
 * GPU Poseidon2 (prover.poseidon2) against Plonky3's own outputs (test/vectors/poseidon2.json:
 * default and seeded-RNG constant sets, widths 16 and 24) and against src/ref on random
 * batches; plus bad-input codes. Run by the dev page (`poseidon2-check`, headless Chromium)
 * and by `bench poseidon2` before timing. The caller passes the parsed vector file, so only
 * the modes that need it import the JSON.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { isProverError } from '../../src/errors.js';
import { BB_P } from '../../src/params/babybear.js';
import { poseidon2Batch, type Poseidon2Width } from '../../src/ref/poseidon2.js';
import { inputValues, vectorConstants, type ConstantsCase, type SeededInput } from './hash-vectors.js';
import { SplitMix64 } from './splitmix.js';

export interface CheckRow {
  step: string;
  ok: boolean;
  n: number;
  detail: string;
  ms: number;
}

type Case = {
  kind: string;
  set: string;
  width: Poseidon2Width;
  id?: string;
  input: SeededInput;
  output: number[];
} & Partial<ConstantsCase>;

const firstDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
};

/** Every permutation vector, one batch per (constant set, width); then `random` random states per width vs src/ref. */
export async function checkPoseidon2(prover: Prover, vectors: { cases: Case[] }, random = 256): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const perms = vectors.cases.filter((c) => c.kind === 'perm');
  for (const set of [...new Set(perms.map((c) => c.set))]) {
    for (const width of [16, 24] as const) {
      const cs = perms.filter((c) => c.set === set && c.width === width);
      const cc = vectors.cases.find((c) => c.kind === 'constants' && c.set === set && c.width === width) as ConstantsCase | undefined;
      if (cs.length === 0 || !cc) continue;
      const constants = set === 'default' ? undefined : vectorConstants(cc);
      const t0 = performance.now();
      const got = await prover.poseidon2(Uint32Array.from(cs.flatMap((c) => Array.from(inputValues(c.input)))), { width, constants });
      const want = cs.flatMap((c) => c.output);
      const d = firstDiff(got, want);
      const bad = d < 0 ? undefined : cs[Math.floor(d / width)];
      rows.push({
        step: `poseidon2 ${set} w${width}`,
        ok: d < 0,
        n: cs.length,
        ms: performance.now() - t0,
        detail: d < 0 ? `${cs.length} Plonky3 vectors equal` : `vector ${bad?.id}: lane ${d % width} gpu=${got[d]} plonky3=${want[d]}`,
      });
    }
  }
  for (const width of [16, 24] as const) {
    const states = new SplitMix64(0x9023 + width).fieldArray(random * width);
    states.fill(0, 0, width); // edge states: zero, all p-1
    states.fill(BB_P - 1, width, 2 * width);
    const t0 = performance.now();
    const got = await prover.poseidon2(states, { width });
    const d = firstDiff(got, poseidon2Batch(states, width));
    rows.push({
      step: `poseidon2 random w${width}`,
      ok: d < 0,
      n: random,
      ms: performance.now() - t0,
      detail: d < 0 ? `${random} states equal src/ref` : `state ${Math.floor(d / width)} lane ${d % width} differs`,
    });
  }
  return rows;
}

/** Call `f`, expect ProverError `code`, then check the prover still computes a permutation. */
export async function expectCode(prover: Prover, step: string, code: string, f: () => Promise<unknown>): Promise<CheckRow> {
  const t0 = performance.now();
  let got = 'no error';
  try {
    await f();
  } catch (e) {
    got = isProverError(e) ? e.code : `non-ProverError ${String(e)}`;
  }
  const zero = new Uint32Array(16);
  const after = await prover.poseidon2(zero, { width: 16 });
  const usable = after[0] === poseidon2Batch(zero, 16)[0];
  return {
    step: `error: ${step}`,
    ok: got === code && usable,
    n: 1,
    ms: performance.now() - t0,
    detail: `expected ${code}, got ${got}; usable after: ${usable}`,
  };
}

export async function checkPoseidon2Errors(prover: Prover): Promise<CheckRow[]> {
  const s16 = new Uint32Array(16);
  const good = {
    externalInitial: Array.from({ length: 4 }, () => Array(16).fill(1)),
    internal: Array(13).fill(2),
    externalFinal: Array.from({ length: 4 }, () => Array(16).fill(3)),
  };
  return [
    await expectCode(prover, 'poseidon2 length not a multiple of width', 'INVALID_LENGTH', () =>
      prover.poseidon2(new Uint32Array(17), { width: 16 }),
    ),
    await expectCode(prover, 'poseidon2 non-canonical', 'NON_CANONICAL', () =>
      prover.poseidon2(
        s16.map((_, i) => (i === 5 ? BB_P : 0)),
        { width: 16 },
      ),
    ),
    await expectCode(prover, 'poseidon2 width 20', 'INVALID_ARGUMENT', () => prover.poseidon2(new Uint32Array(20), { width: 20 as 16 })),
    await expectCode(prover, 'poseidon2 constants: 12 internal', 'INVALID_LENGTH', () =>
      prover.poseidon2(s16, { width: 16, constants: { ...good, internal: good.internal.slice(1) } }),
    ),
    await expectCode(prover, 'poseidon2 constants for width 16 at width 24', 'INVALID_LENGTH', () =>
      prover.poseidon2(new Uint32Array(24), { width: 24, constants: good }),
    ),
    await expectCode(prover, 'poseidon2 constants non-canonical', 'NON_CANONICAL', () =>
      prover.poseidon2(s16, { width: 16, constants: { ...good, internal: [...good.internal.slice(1), BB_P] } }),
    ),
  ];
}
