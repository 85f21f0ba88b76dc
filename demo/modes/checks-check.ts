// Autorun modes `checks-check` (self-check, run-time checks, every family's answers on the GPU
// path) and `fallback-check` (the same answers from createProver({ fallback: 'cpu' }) on a page
// without WebGPU): bench/support/checks-check.ts.
import type { ModeContext } from '../autorun.js';
import { checkFamilies, checkFamilyAnswers } from '../../bench/support/checks-check.js';

export async function checksCheck({ prover, report }: ModeContext): Promise<void> {
  for (const r of await checkFamilies(prover)) report(r.step, r.ok ? 'ok' : 'fail', r.ms, { detail: r.detail });
}

export async function fallbackCheck({ prover, report }: ModeContext): Promise<void> {
  report('backend', prover.info.backend === 'cpu' ? 'ok' : 'fail', 0, { detail: `info.backend ${prover.info.backend}` });
  const r = await checkFamilyAnswers(prover, 'cpu');
  report(r.step, r.ok ? 'ok' : 'fail', r.ms, { detail: r.detail });
}
