// Autorun mode `field-check`: every GPU field op against src/field and BigInt (bench/support/field-check.ts).
// `?n=` sets the random-input count per op (default 2^16); `?field=koalabear` checks KoalaBear
// (the same kernels built with its constants; rows are named `field koalabear <op>`).
import type { ModeContext } from '../autorun.js';
import { checkFieldOp, FIELD_CHECK_OPS } from '../../bench/support/field-check.js';
import { isFieldName } from '../../src/params/fields.js';

export async function fieldCheck({ prover, params, report }: ModeContext): Promise<void> {
  const count = Number(params.get('n') ?? 1 << 16);
  const given = params.get('field') ?? 'babybear';
  if (!isFieldName(given)) throw new Error(`field-check: unknown field ${given}`);
  const prefix = given === 'babybear' ? 'field' : `field ${given}`;
  for (const op of FIELD_CHECK_OPS) {
    const t0 = performance.now();
    const r = await checkFieldOp(prover, op, count, undefined, given);
    const ok = r.mismatchRef === 0 && r.mismatchBigInt === 0;
    report(`${prefix} ${op}`, ok ? 'ok' : 'fail', performance.now() - t0, {
      n: r.n,
      gpuMs: r.ms,
      mismatchRef: r.mismatchRef,
      mismatchBigInt: r.mismatchBigInt,
      detail: ok ? `${r.n} elements equal ref and BigInt` : r.first,
    });
  }
}
