// Autorun mode `runtime-check`: concurrent mixed jobs, pool bounds, AbortSignal (before, queued,
// running), progress order and job counts on the page's prover (bench/support/runtime-check.ts).
import type { ModeContext } from '../autorun.js';
import { checkRuntime } from '../../bench/support/runtime-check.js';

export async function runtimeCheck({ prover, report }: ModeContext): Promise<void> {
  for (const r of await checkRuntime(prover)) report(r.step, r.ok ? 'ok' : 'fail', r.ms, { detail: r.detail });
}
