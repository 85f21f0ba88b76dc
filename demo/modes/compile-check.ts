// Autorun mode `compile-check`: a second size of a warm family compiles nothing
// (bench/support/compile-check.ts), and the first-call row of this browser: what the prover has
// compiled so far (stats().compiled) after the checks.
import type { ModeContext } from '../autorun.js';
import { checkCompileOnce } from '../../bench/support/compile-check.js';

export async function compileCheck({ prover, report }: ModeContext): Promise<void> {
  for (const r of await checkCompileOnce(prover)) report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
  const c = prover.stats().compiled;
  report('compiled', 'info', c.pipelineMs, {
    detail: `${c.modules} modules, ${c.wgslChars} characters of WGSL, ${c.pipelines} pipelines, ${c.pipelineMs} ms of pipeline creation summed`,
    ...c,
  });
}
