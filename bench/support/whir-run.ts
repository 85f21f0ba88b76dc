/**
 * One WHIR commit + open with its phases timed, shared by the dev page modes (whir-check,
 * whir-bench) and the Node + Dawn bench (bench/whir.ts). Browser-safe: no Node imports.
 * The envelope is the file bench/whir-oracle's `verify FILE` reads (the interop tests write it
 * with the same function).
 * @module
 */
import type { Prover, WhirOpening, WhirOptions } from '../../src/index.js';
import { proofToJson, rootToJson } from '../../src/whir/proof-json.js';
import type { JobProgress } from '../../src/sched/job.js';

export interface WhirCase {
  n: number;
  fold: number;
  rate: number;
  /** rsInitialReduction (whir-p3-metal's schedule); absent: p3-whir's default rates. */ rs?: number;
}

/** The prover.whir options of a case. */
export function whirOptions(c: WhirCase): WhirOptions {
  return { numVariables: c.n, foldingFactor: c.fold, startingLogInvRate: c.rate, ...(c.rs ? { rsInitialReduction: c.rs } : {}) };
}

/** The round rates the oracle needs to rebuild a case's schedule (empty: its default). */
export function explicitRates(prover: Prover, c: WhirCase): number[] {
  return c.rs ? prover.whir(whirOptions(c)).schedule().params.roundLogInvRates : [];
}

/** The oracle's proof file (`verify FILE`; with `point` added, an open_at proof). */
export interface WhirEnvelope {
  n: number;
  fold: number;
  rate: number;
  sec: number;
  pow: number;
  soundness: string;
  rates: number[];
  foldingFactors: number[];
  /** rootToJson / proofToJson: p3-whir's serde JSON. */
  commitment: unknown;
  proof: unknown;
}

/** The oracle's proof file: the configuration (p3-whir defaults: 90 bits, 16 PoW bits, CapacityBound), the root and the proof. */
export function whirEnvelope({ n, fold, rate }: WhirCase, root: Uint32Array, opening: WhirOpening, rates: number[] = []): WhirEnvelope {
  return {
    n,
    fold,
    rate,
    sec: 90,
    pow: 16,
    soundness: 'CapacityBound',
    rates,
    foldingFactors: [],
    commitment: rootToJson(root),
    proof: proofToJson(opening.proof),
  };
}

/** The progress stages an open of a schedule with `rounds` rounds reports, in order (commit reports 'commit'). */
export function openStages(rounds: number): string[] {
  const out = ['tables', 'claims', 'initial fold'];
  for (let i = 0; i < rounds; i++) out.push(`round ${i} commit`, `round ${i} grind`, `round ${i} openings`, `round ${i} fold`);
  out.push('final');
  return out;
}

/** JSON text size, and the count of its numbers times 4 (each is a u32: a field value, a witness or an index) as a rough binary size. */
export function proofSize(proofJson: unknown): { jsonBytes: number; valueBytes: number } {
  const text = JSON.stringify(proofJson);
  let values = 0;
  const walk = (v: unknown): void => {
    if (typeof v === 'number') values++;
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(proofJson);
  return { jsonBytes: new TextEncoder().encode(text).length, valueBytes: 4 * values };
}

export interface TimedWhir {
  root: Uint32Array;
  opening: WhirOpening;
  commitMs: number;
  openMs: number;
  /** Stages in the order their progress events came, commit's first. */
  stages: string[];
  /** ms spent in each stage: from its event to the next one (the last one to the end of open; 'commit' is the whole commit). */
  phases: Record<string, number>;
}

/**
 * Commit and open `evals` with `options` on `prover`, timing each phase from the progress events
 * (they fire as a phase starts, on the caller's thread, so through the worker each boundary
 * carries one message's latency, well under a millisecond).
 */
export async function timedWhir(
  prover: Prover,
  c: WhirCase,
  evals: Uint32Array,
  signal?: AbortSignal,
  onStage?: (stage: string) => void,
): Promise<TimedWhir> {
  const whir = prover.whir(whirOptions(c));
  const marks: { stage: string; t: number }[] = [];
  const onProgress = (p: JobProgress) => {
    marks.push({ stage: p.stage, t: performance.now() });
    onStage?.(p.stage);
  };
  const t0 = performance.now();
  const { root, handle } = await whir.commit(evals, { onProgress, signal });
  const t1 = performance.now();
  const opening = await whir.open(handle, { onProgress, signal });
  const t2 = performance.now();
  const phases: Record<string, number> = {};
  const openMarks = marks.filter((m) => m.t >= t1);
  phases.commit = t1 - t0;
  openMarks.forEach((m, i) => (phases[m.stage] = (openMarks[i + 1]?.t ?? t2) - m.t));
  return { root, opening, commitMs: t1 - t0, openMs: t2 - t1, stages: marks.map((m) => m.stage), phases };
}
