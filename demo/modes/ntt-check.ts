// Autorun mode `ntt-check`: the GPU NTT against every Plonky3 dft.json case up to 2^12 rows
// (`?maxLogH=` lowers it), random-data properties, and bad-input codes (test/gpu/ntt-check.ts).
import type { ModeContext } from '../autorun.js';
import vectors from '../../test/vectors/dft.json' with { type: 'json' };
import type { DftCase, DftOp } from '../../test/support/dft-vectors.js';
import { checkNttErrors, checkNttProperties, checkNttVectors, type NttCheckRow } from '../../test/gpu/ntt-check.js';

export async function nttCheck({ prover, params, report }: ModeContext): Promise<void> {
  const maxLogH = Number(params.get('maxLogH') ?? 12);
  const cases = (vectors as { cases: DftCase[] }).cases;
  const emit = (r: NttCheckRow) => report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
  for (const op of ['dft', 'idft', 'coset_lde', 'encode'] as DftOp[]) emit(await checkNttVectors(prover, cases, op, maxLogH));
  emit(await checkNttProperties(prover, [[0, 1], [1, 2], [5, 3], [9, 1], [11, 5]]));
  emit(await checkNttErrors(prover));
}
