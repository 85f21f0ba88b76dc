// Autorun mode `errors-check`: bad input gets a ProverError with the right code, and the
// prover still computes correctly after each failure: a few fixed cases, then the fast-check
// property over every public method (bench/support/bad-input-check.ts). `&seed=N` replays a run,
// `&runs=N` sets the number of generated calls (default 300; the seed is random otherwise).
import type { ModeContext } from '../autorun.js';
import { checkBadInputs } from '../../bench/support/bad-input-check.js';
import { isProverError } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';

export async function errorsCheck({ prover, params, report }: ModeContext): Promise<void> {
  const cases: Array<[string, string, () => Promise<unknown>]> = [
    ['non-canonical value', 'NON_CANONICAL', () => prover.batchField('mul', new Uint32Array([1, BB_P]), new Uint32Array([1, 1]))],
    ['length mismatch', 'INVALID_LENGTH', () => prover.batchField('add', new Uint32Array(3), new Uint32Array(4))],
    ['ext4 length not a multiple of 4', 'INVALID_LENGTH', () => prover.batchField('ext4Inv', new Uint32Array(6))],
    ['missing second input', 'INVALID_ARGUMENT', () => prover.batchField('mul', new Uint32Array(2))],
    ['unknown op', 'INVALID_ARGUMENT', () => prover.batchField('div' as never, new Uint32Array(2))],
    ['not a Uint32Array', 'INVALID_ARGUMENT', () => prover.batchField('square', [1, 2] as unknown as Uint32Array)],
  ];
  for (const [name, code, call] of cases) {
    const t0 = performance.now();
    let got = 'no error';
    try {
      await call();
    } catch (e) {
      got = isProverError(e) ? e.code : `non-ProverError ${String(e)}`;
    }
    // After each failure the prover must still work: 3 * 5 = 15.
    const after = await prover.batchField('mul', new Uint32Array([3]), new Uint32Array([5]));
    const ok = got === code && after[0] === 15;
    report(`error: ${name}`, ok ? 'ok' : 'fail', performance.now() - t0, {
      detail: `expected ${code}, got ${got}; usable after: ${after[0] === 15}`,
    });
  }
  const seed = params.has('seed') ? Number(params.get('seed')) : Math.floor(Math.random() * 2 ** 31);
  for (const r of await checkBadInputs(prover, seed, Number(params.get('runs') ?? 300))) {
    report(r.step, r.ok ? 'ok' : 'fail', r.ms, { detail: r.detail });
  }
}
