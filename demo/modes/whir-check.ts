// Autorun modes `whir-check` and `whir-bench` (not in all-check): WHIR commit + open on the
// prover as a dApp makes it (createProver(): its Web Worker by default, `&worker=0` in the page's
// thread; the GPU commit and grind), on the table SplitMix64(`&seed=`) makes, as
// test/unit/whir-interop.test.ts does in Node.
// whir-check `&n=&fold=&rate=&seed=[&abort=1]`: rows 'envelope' (the proof file the Rust oracle
// reads, for test/e2e/whir.spec.ts to check against p3-whir), 'ts verify' (the page's verdict),
// 'stages' (progress seen, in order), 'capabilities'; with abort=1 first an open aborted on its
// first 'round 0 grind' event (or 'initial fold' where there are no rounds) must reject with
// ABORTED / AbortError, then the same prover makes the proof. With point=1, also a row 'given
// point': a second commit of the table opened at the point SplitMix64(seed + 1) makes (p3-whir's
// open_at) with `trace: true`, its envelope (with `point`), the page's verdict and the trace.
// whir-bench `&n=&fold=&rate=&runs=` (default 10, 2, 1, 3): one untimed warm-up run (`&warmup=0`
// skips it; on SwiftShader the first commit pays the commit family's compile and self-check, ~5 s),
// then per run commit / open / end-to-end ms, proof size and the per-phase breakdown; their medians.
// Before timing, the first proof must pass the page's verifier (a 'check' row; nothing is timed after a fail).
import type { ModeContext } from '../autorun.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { median } from '../../bench/support/stats.js';
import { openStages, proofSize, timedWhir, whirEnvelope, type TimedWhir, type WhirCase } from '../../bench/support/whir-run.js';

function whirCase(params: URLSearchParams, defaults: WhirCase): WhirCase {
  const num = (k: keyof WhirCase) => Number(params.get(k) ?? defaults[k]);
  return { n: num('n'), fold: num('fold'), rate: num('rate') };
}

export async function whirCheck({ prover, params, report }: ModeContext): Promise<void> {
  const c = whirCase(params, { n: 10, fold: 2, rate: 1 });
  const seed = Number(params.get('seed') ?? 1);
  const evals = new SplitMix64(seed).fieldArray(2 ** c.n);
  const rounds = prover.whir({ numVariables: c.n, foldingFactor: c.fold, startingLogInvRate: c.rate }).schedule().rounds.length;

  if (params.get('abort') === '1') {
    const at = rounds > 0 ? 'round 0 grind' : 'initial fold';
    const ctl = new AbortController();
    const t0 = performance.now();
    let outcome: string;
    try {
      await timedWhir(prover, c, evals, ctl.signal, (stage) => stage === at && ctl.abort());
      outcome = 'resolved';
    } catch (e) {
      const err = e as Error & { code?: string };
      outcome = `${err.code ?? '?'}/${err.name}: ${err.message}`;
    }
    const ok = /^ABORTED\/AbortError: /.test(outcome);
    report('abort mid-open', ok ? 'ok' : 'fail', performance.now() - t0, { detail: `aborted on '${at}': ${outcome}`, outcome, at });
  }

  const run = await timedWhir(prover, c, evals);
  const envelope = whirEnvelope(c, run.root, run.opening);
  const size = proofSize(envelope.proof);
  report('envelope', 'info', run.commitMs + run.openMs, {
    detail: `n=${c.n} fold=${c.fold} rate=${c.rate} seed=${seed}: commit ${run.commitMs.toFixed(0)} ms, open ${run.openMs.toFixed(0)} ms, proof ${size.jsonBytes} B JSON`,
    envelope,
    seed,
    commitMs: run.commitMs,
    openMs: run.openMs,
    ...size,
  });

  const t0 = performance.now();
  const verdict = await prover.whir({ numVariables: c.n, foldingFactor: c.fold, startingLogInvRate: c.rate }).verify(run.root, run.opening);
  report('ts verify', verdict.ok ? 'ok' : 'fail', performance.now() - t0, { detail: JSON.stringify(verdict), verdict });

  const expected = ['commit', ...openStages(rounds)];
  const inOrder = JSON.stringify(run.stages) === JSON.stringify(expected);
  report('stages', inOrder ? 'ok' : 'fail', 0, { detail: run.stages.join(' > '), stages: run.stages, expected, phases: run.phases });

  if (params.get('point') === '1') {
    const whir = prover.whir({ numVariables: c.n, foldingFactor: c.fold, startingLogInvRate: c.rate });
    const flat = new SplitMix64(seed + 1).fieldArray(4 * c.n);
    const point = Array.from({ length: c.n }, (_, i) => Array.from(flat.subarray(4 * i, 4 * i + 4)));
    const t1 = performance.now();
    const { root, handle } = await whir.commit(evals);
    const opening = await whir.open(handle, { point, trace: true });
    const ms = performance.now() - t1;
    const atVerdict = await whir.verify(root, opening);
    const asDrawn = await whir.verify(root, opening.proof);
    const ok = atVerdict.ok && !asDrawn.ok && opening.pointSource === 'given' && JSON.stringify(opening.point) === JSON.stringify(point);
    report('given point', ok ? 'ok' : 'fail', ms, {
      detail: `open_at: ${JSON.stringify(atVerdict)}, read as a drawn-point proof: ${JSON.stringify(asDrawn)}, trace ${opening.trace?.split('\n').length ?? 0} lines`,
      envelope: { ...whirEnvelope(c, root, opening), point },
      point,
      trace: opening.trace,
      verdict: atVerdict,
    });
  }

  const capabilities = prover.capabilities();
  report('capabilities', 'info', 0, {
    detail: Object.entries(capabilities)
      .map(([f, p]) => `${f}: ${p.path}`)
      .join(', '),
    capabilities,
  });
}

export async function whirBench({ prover, params, report }: ModeContext): Promise<void> {
  const c = whirCase(params, { n: 10, fold: 2, rate: 1 });
  const runs = Number(params.get('runs') ?? 3);
  const evals = new SplitMix64(Number(params.get('seed') ?? 1)).fieldArray(2 ** c.n);
  const all: { commitMs: number; openMs: number; totalMs: number; phases: Record<string, number> }[] = [];
  let size = { jsonBytes: 0, valueBytes: 0 };
  // The first proof (the warm-up's, or run 0's) must verify before anything is timed.
  const verifies = async (run: TimedWhir) => {
    const t0 = performance.now();
    const verdict = await prover
      .whir({ numVariables: c.n, foldingFactor: c.fold, startingLogInvRate: c.rate })
      .verify(run.root, run.opening);
    report('check: the proof verifies', verdict.ok ? 'ok' : 'fail', performance.now() - t0, { detail: JSON.stringify(verdict), verdict });
    return verdict.ok;
  };
  const warm = params.get('warmup') !== '0';
  if (warm) {
    const t0 = performance.now();
    const run = await timedWhir(prover, c, evals);
    report('warm-up', 'info', performance.now() - t0, { detail: 'untimed: compiles and self-checks' });
    if (!(await verifies(run))) return;
  }
  for (let r = 0; r < runs; r++) {
    const run = await timedWhir(prover, c, evals);
    if (r === 0 && !warm && !(await verifies(run))) return;
    size = proofSize(whirEnvelope(c, run.root, run.opening).proof);
    const row = { commitMs: run.commitMs, openMs: run.openMs, totalMs: run.commitMs + run.openMs, phases: run.phases };
    all.push(row);
    report(`run ${r}`, 'info', row.totalMs, {
      detail: `commit ${run.commitMs.toFixed(1)} ms, open ${run.openMs.toFixed(1)} ms`,
      ...row,
      ...size,
    });
  }
  const med = (f: (x: (typeof all)[number]) => number) => median(all.map(f));
  const phases = Object.fromEntries(Object.keys(all[0]?.phases ?? {}).map((k) => [k, med((x) => x.phases[k] ?? 0)]));
  const summary = {
    n: c.n,
    fold: c.fold,
    rate: c.rate,
    runs,
    commitMs: med((x) => x.commitMs),
    openMs: med((x) => x.openMs),
    totalMs: med((x) => x.totalMs),
    ...size,
    phases,
  };
  report('median', 'info', summary.totalMs, {
    detail:
      `n=${c.n} fold=${c.fold} rate=${c.rate}: commit ${summary.commitMs.toFixed(1)} ms, open ${summary.openMs.toFixed(1)} ms, end to end ${summary.totalMs.toFixed(1)} ms, ` +
      `proof ${size.jsonBytes} B JSON (~${size.valueBytes} B of values); ${Object.entries(phases)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')} (medians of ${runs})`,
    ...summary,
  });
}
