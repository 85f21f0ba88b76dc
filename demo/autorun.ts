/**
 * Autorun router: a registry of modes, each an async function that reports rows. Rows are
 * posted to /progress as { runId, mode, step, status, ms, ...detail } and collected into the
 * result a driver reads from window.__autorun.
 * @module
 */
import { createProver, type Prover } from '../src/index.js';
import type { AutorunResult, Row } from '../bench/support/autorun-result.js';
import { fieldCheck } from './modes/field-check.js';
import { errorsCheck } from './modes/errors-check.js';
import { nttCheck, nttKoalaBearCheck } from './modes/ntt-check.js';
import { frCheck } from './modes/fr-check.js';
import { commitCheck, grindCheck, merkleCheck, poseidon2Check, poseidon2KoalaBearCheck } from './modes/hash-check.js';
import { msmBenchGpu, msmNobleCheck } from './modes/msm-check.js';
import { g2msmCheck } from './modes/g2msm-check.js';
import { fqBench } from './modes/fq-bench.js';
import { transferBench } from './modes/transfer-bench.js';
import { runtimeCheck } from './modes/runtime-check.js';
import { workerBench } from './modes/worker-bench.js';
import { readmeCheck } from './modes/readme-check.js';
import { checksCheck, fallbackCheck } from './modes/checks-check.js';
import { compileCheck } from './modes/compile-check.js';
import { whirEngineCheck } from './modes/whir-engine-check.js';
import { groth16Check } from './modes/groth16-check.js';
import { groth16Bench } from './modes/groth16-bench.js';
import { whirBench, whirCheck } from './modes/whir-check.js';
import { allBench, commitBench, grindBench, merkleBench, msmBench, nttBench, poseidon2Bench } from './modes/kernel-bench.js';

export interface ModeContext {
  prover: Prover;
  params: URLSearchParams;
  /** Report one finished step; a 'fail' row makes the run fail. */
  report(step: string, status: Row['status'], ms: number, extra?: Record<string, unknown>): void;
}

export type Mode = (ctx: ModeContext) => Promise<void>;
export type { AutorunResult, Row };

/** `all-check` runs every check mode in turn; it grows as kernels land (scripts/deno-checks.ts runs them under Deno too). */
export const CHECKS: Record<string, Mode> = {
  'field-check': fieldCheck,
  'errors-check': errorsCheck,
  'ntt-check': nttCheck,
  'poseidon2-check': poseidon2Check,
  'merkle-check': merkleCheck,
  'grind-check': grindCheck,
  'commit-check': commitCheck,
  'msm-noble-check': msmNobleCheck,
  'runtime-check': runtimeCheck,
  'readme-check': readmeCheck,
  'checks-check': checksCheck,
  'compile-check': compileCheck,
  'whir-engine-check': whirEngineCheck,
  // n=10 fold 2 rate 1 proved in the worker and verified in the page (the e2e spec also checks it with p3-whir).
  'whir-check': whirCheck,
  // The committed circom fixtures proved and checked (test/e2e/groth16.spec.ts also runs it, with snarkjs and random circuits).
  'groth16-check': groth16Check,
};

export const MODES: Record<string, Mode> = {
  ...CHECKS,
  // Not in all-check: test/e2e/hash.spec.ts runs it (~8 s on SwiftShader), and npm start need not pay it twice.
  'poseidon2-koalabear-check': poseidon2KoalaBearCheck,
  // Not in all-check either: test/e2e/ntt.spec.ts runs it.
  'ntt-koalabear-check': nttKoalaBearCheck,
  // Not in all-check: test/e2e/fr.spec.ts runs it (BN254 Fr, its NTT and Groth16's polynomial stage).
  'fr-check': frCheck,
  // One bench per kernel family (demo/modes/kernel-bench.ts): check, then GPU vs the CPU path.
  'ntt-bench': nttBench,
  'poseidon2-bench': poseidon2Bench,
  'merkle-bench': merkleBench,
  'grind-bench': grindBench,
  'commit-bench': commitBench,
  'msm-bench': msmBench,
  'all-bench': allBench,
  // The MSM's own bench: the same check and CPU comparison, then per-rep plans, per-pass GPU time and pool bytes.
  'msm-bench-gpu': async (ctx) => {
    await msmBench(ctx);
    await msmBenchGpu(ctx);
  },
  'fq-bench': fqBench,
  'transfer-bench': transferBench,
  'worker-bench': workerBench,
  // WHIR end to end (test/e2e/whir.spec.ts checks its proofs with the Rust oracle).
  'whir-check': whirCheck,
  'whir-bench': whirBench,
  // Groth16 against snarkjs in the same page (the browser's own column).
  'groth16-bench': groth16Bench,
  // The G2 MSM against noble (test/e2e/g2msm.spec.ts runs it; not in all-check).
  'g2msm-check': g2msmCheck,
  // Needs a page without WebGPU and &fallback=cpu (test/e2e/checks.spec.ts).
  'fallback-check': fallbackCheck,
  // The device alone: its 'adapter' row carries prover.info.limits and .features (test/e2e/default-limits.spec.ts).
  'device-info': async () => {},
  'all-check': async (ctx) => {
    for (const m of Object.values(CHECKS)) await m(ctx);
  },
};

function post(row: Row & { runId: string }): void {
  // Fire and forget: a missing /progress endpoint (static hosting) must not break the page.
  fetch('/progress', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) }).catch(() => {});
}

export async function runMode(name: string, params: URLSearchParams, onRow: (r: Row) => void): Promise<AutorunResult> {
  const runId = params.get('runId') ?? `${name}-${Date.now().toString(36)}`;
  const rows: Row[] = [];
  const emit = (row: Row) => {
    rows.push(row);
    onRow(row);
    post({ runId, ...row });
  };
  const t0 = performance.now();
  let status: AutorunResult['status'] = 'ok';
  let adapter = '';
  const mode = MODES[name];
  let prover: Prover | undefined;
  try {
    if (!mode) throw new Error(`unknown autorun mode "${name}"; modes: ${Object.keys(MODES).join(', ')}`);
    // `&worker=0` runs the prover in the page's thread; by default it runs in its Web Worker.
    // `&limits=default`: WebGPU's default limits and no optional feature (the floor of every device).
    // `&fallback=cpu`: the CPU path where WebGPU is missing.
    prover = await createProver({
      ...(params.get('worker') === '0' ? { worker: false } : {}),
      ...(params.get('limits') === 'default' ? { limits: 'default' as const } : {}),
      ...(params.get('fallback') === 'cpu' ? { fallback: 'cpu' as const } : {}),
    });
    adapter = prover.info.adapter;
    // limits and features: what the device was granted (test/e2e/default-limits.spec.ts reads them; the dev page shows info).
    emit({
      mode: name,
      step: 'adapter',
      status: 'info',
      ms: performance.now() - t0,
      detail: `${adapter} (${prover.info.worker ? 'in a Web Worker' : "in the page's thread"}${params.get('limits') === 'default' ? ", WebGPU's default limits" : ''})`,
      info: prover.info,
      limits: prover.info.limits,
      features: prover.info.features,
    });
    await mode({
      prover,
      params,
      report: (step, st, ms, extra = {}) => {
        if (st === 'fail') status = 'fail';
        emit({ mode: name, step, status: st, ms, ...extra });
      },
    });
  } catch (e) {
    status = 'error';
    const err = e as Error & { code?: string };
    emit({ mode: name, step: 'exception', status: 'error', ms: performance.now() - t0, detail: `${err.code ?? err.name}: ${err.message}` });
  } finally {
    // What the run left on the device: the pool's bytes (held, peak in use), pipelines compiled.
    const st = (() => {
      try {
        return prover?.stats();
      } catch {
        return undefined; // a destroyed or lost prover has nothing to report
      }
    })();
    if (st) {
      emit({
        mode: name,
        step: 'stats',
        status: 'info',
        ms: performance.now() - t0,
        detail: `pool ${st.bytesHeld} B held, peak ${st.peakBytesInUse} B in use, ${st.buffers} buffers; ${st.compiled.pipelines} pipelines compiled in ${st.compiled.pipelineMs.toFixed(0)} ms`,
        stats: st,
      });
    }
    prover?.destroy();
  }
  emit({ mode: name, step: 'done', status: 'done', ms: performance.now() - t0, detail: status });
  return { finished: true, status, runId, mode: name, adapter, rows };
}
