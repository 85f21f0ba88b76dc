// Autorun mode `fr-check` (not in all-check; test/e2e/fr.spec.ts runs it): BN254 Fr on the GPU on a
// GpuContext of its own (bench/support/fr-check.ts): the WGSL field ops against bigint on edge and
// random values; the Fr NTT (forward, inverse, both on snarkjs's coset) against src/ref/fr-ntt.ts
// at 2^1 .. 2^maxLog (default 12: one- and two-pass plans) and with the tile capped (three- and
// four-pass plans, every pass shape: J = 1, J > Ns, Ns ≥ J, uneven radices); Groth16's polynomial
// stage (QapStage.h) against src/ref/groth16-h.ts on random keys at 2^2 .. 2^10 with empty rows,
// duplicate records and shuffled order; bad input rejected with its codes.
import type { ModeContext } from '../autorun.js';
import { checkFrNtt, checkFrOps, checkQapErrors, checkQapStage, type FrCheckRow } from '../../bench/support/fr-check.js';
import { GpuContext } from '../../src/gpu/context.js';

export async function frCheck({ params, report }: ModeContext): Promise<void> {
  const maxLog = Number(params.get('maxLog') ?? 12);
  const emit = (r: FrCheckRow) => report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
  const ctx = await GpuContext.create(navigator.gpu, params.get('limits') === 'default' ? { limits: 'default' } : {});
  try {
    emit(await checkFrOps(ctx, 192));
    // [log N, max tile log]: 2^12 as 4+4+4 and 3+3+3+3, 2^7 as 3+2+2 (Ns < J then Ns ≥ J), 2^9 as 5+4.
    emit(
      await checkFrNtt(ctx, maxLog, [
        [12, 4],
        [12, 3],
        [7, 3],
        [9, 5],
      ]),
    );
    emit(await checkQapStage(ctx, [2, 3, 5, 8, 10]));
    emit(await checkQapErrors(ctx));
  } finally {
    ctx.destroy();
  }
}
