// Autorun mode `field-check`: every GPU field op against src/ref and BigInt (bench/support/field-check.ts).
// `?n=` sets the random-input count per op (default 2^16).
import type { ModeContext } from '../autorun.js';
import { checkFieldOp, FIELD_CHECK_OPS } from '../../bench/support/field-check.js';

export async function fieldCheck({ prover, params, report }: ModeContext): Promise<void> {
  const count = Number(params.get('n') ?? 1 << 16);
  for (const op of FIELD_CHECK_OPS) {
    const t0 = performance.now();
    const r = await checkFieldOp(prover, op, count);
    const ok = r.mismatchRef === 0 && r.mismatchBigInt === 0;
    report(`field ${op}`, ok ? 'ok' : 'fail', performance.now() - t0, {
      n: r.n, gpuMs: r.ms, mismatchRef: r.mismatchRef, mismatchBigInt: r.mismatchBigInt,
      detail: ok ? `${r.n} elements equal ref and BigInt` : r.first,
    });
  }
}
