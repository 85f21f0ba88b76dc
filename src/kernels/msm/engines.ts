/**
 * Which engine an MSM run takes. The walker's (run.ts) is the fast one, but its pipelines take
 * ~2 s to compile on the H100's host (bench/RESULTS.md cold); the quick one (quick.ts) compiles
 * in a fraction of that and runs far slower per point. A run of up to QUICK_MAX_N points takes the
 * quick engine while the walker's pipelines for its plan are not compiled (they are requested then,
 * in the background), so a page's first MSM waits for the quick compile, not the walker's.
 *
 * An engine goes live in a context only after it has given the known answer: a 32-point MSM on it
 * against noble's answer on the CPU (from the points' known discrete logs: field/known-logs.ts), once
 * per engine and context. The prover's self-check
 * (checks/known-answer.ts) checks whichever engine a family's first call takes; this covers the
 * other one when it takes over. An engine that gives a wrong answer fails its runs with
 * CHECK_FAILED (the router then moves the family to the CPU).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import type { GpuContext } from '../../gpu/context.js';
import { ProverError } from '../../errors.js';
import { knownMultiples, msmOfKnownLogs } from '../../field/known-logs.js';
import { FR_R, toLimbs } from '../../params/bn254.js';
import { BasesUpload } from './bases.js';
import { addWindows, foldJac, foldSums, jacAdd, toNoble, type Jac } from './fold.js';
import { MSM_WORDS } from './layout.js';
import { MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE, msmPipelineRequests } from './pipelines.js';
import type { MsmPlan } from './plan.js';
import { startQuickMsm, type QuickRunResult } from './quick.js';
import { startMsm } from './run.js';
import { msmRuns } from './runs.js';

const G1 = bn254.G1.Point;
type G1Point = InstanceType<typeof G1>;

/**
 * Largest run the quick engine takes. H100, GPU time against the walker's (bench/RESULTS.md cold):
 * 2^16 23 ms against 3.7, 2^18 78 against 6.4: far less than the ~1.5-2 s a first call waits for
 * the walker's compile. A 2^20 job runs as parts of 2^18 (runs.ts), so it takes it too.
 */
export const QUICK_MAX_N = 1 << 18;

export type Engine = 'quick' | 'walker';

/** Points of the known-answer job. */
const KNOWN_N = 32;

interface Known {
  points: Uint32Array;
  scalars: Uint32Array;
  answer: G1Point;
}

let known: Known | undefined;

/** The known-answer job: points (i + 1)·G, fixed scalars below r, and noble's answer from their logs. */
function knownJob(): Known {
  if (known) return known;
  const { points: pts, logs } = knownMultiples(G1, 1n, 1n, KNOWN_N);
  const ks: bigint[] = [];
  for (let i = 0, s = 0x5eed5eedn; i < KNOWN_N; i++) ks.push((s = (s * 6364136223846793005n + 1442695040888963407n + BigInt(i)) % FR_R));
  // Edge cases the engines must add right: a zero scalar, r - 1, and a repeated point.
  ks[3] = 0n;
  ks[7] = FR_R - 1n;
  pts[9] = pts[8];
  logs[9] = logs[8];
  const points = new Uint32Array(16 * KNOWN_N);
  const scalars = new Uint32Array(8 * KNOWN_N);
  pts.forEach((p, i) => {
    const { x, y } = p.toAffine();
    points.set([...toLimbs(x), ...toLimbs(y)], 16 * i);
    scalars.set(toLimbs(ks[i]), 8 * i);
  });
  return (known = { points, scalars, answer: msmOfKnownLogs(G1, logs, ks) });
}

/** Run the known job on `engine` and compare with noble's answer. */
async function givesKnownAnswer(ctx: GpuContext, engine: Engine): Promise<boolean> {
  const job = knownJob();
  const up = await BasesUpload.open(ctx, job.points, KNOWN_N, 'le');
  try {
    await up.upTo(KNOWN_N);
    const scalars = { words: job.scalars, start: 0, be: false };
    let got: G1Point;
    if (engine === 'quick') {
      got = toNoble(quickSum(await (await startQuickMsm(ctx, up.buf, 0, scalars, KNOWN_N)).result));
    } else {
      const plan = msmRuns([{ start: 0, n: KNOWN_N }], 0, KNOWN_N, {}, ctx.workgroup).runs[0].plan;
      const r = await (await startMsm(ctx, up.buf, 0, scalars, plan)).result;
      got = foldSums(addWindows(undefined, r.windows, plan.T), plan.c);
    }
    return got.equals(job.answer);
  } finally {
    up.release();
  }
}

/** The sum of a quick run's partial sums (projective Montgomery words), Jacobian: each lane's, then sum_c 2^(c·bits)·lane c. */
export function quickSum(r: QuickRunResult): Jac {
  const sums = addWindows(undefined, r.sums, r.sums.length / MSM_WORDS.projective);
  const lanes = Array.from({ length: r.chunks }, (_, c) => sums.filter((_, i) => i % r.chunks === c).reduce(jacAdd));
  return foldJac(lanes, () => r.bits);
}

/** An engine's known-answer check in one context: started once, `passed` once it has. */
interface EngineCheck {
  done: Promise<boolean>;
  passed: boolean;
}

/** Per context, per engine. */
const CHECKS = new WeakMap<GpuContext, Map<Engine, EngineCheck>>();

/** The engine's known-answer check in this context (started on first need). */
function checkOf(ctx: GpuContext, engine: Engine): EngineCheck {
  let byEngine = CHECKS.get(ctx);
  if (!byEngine) CHECKS.set(ctx, (byEngine = new Map()));
  let c = byEngine.get(engine);
  if (!c) {
    const check: EngineCheck = { done: givesKnownAnswer(ctx, engine), passed: false };
    check.done.then(
      (ok) => (check.passed = ok),
      () => byEngine.delete(engine), // a check that could not run (device lost) is tried again by the next run
    );
    byEngine.set(engine, (c = check));
  }
  return c;
}

/** Wait for the engine's check: CHECK_FAILED if it gave a wrong answer. */
async function live(ctx: GpuContext, engine: Engine): Promise<void> {
  if (!(await checkOf(ctx, engine).done)) {
    throw new ProverError('CHECK_FAILED', `the GPU's ${engine} MSM engine gave a wrong known answer (32 points against noble)`);
  }
}

const passed = (ctx: GpuContext, engine: Engine): boolean => CHECKS.get(ctx)?.get(engine)?.passed === true;

/**
 * The engine a run of `plan` takes now, live (its known-answer check passed). The walker's once
 * its pipelines for `plan` are compiled and it is live; for a run of up to QUICK_MAX_N points
 * the quick one meanwhile (the walker's pipelines and check start in the background).
 * `only`: that engine, waiting for its compile (a tuning's `engine`; a profiled job's walker).
 */
export async function engineFor(ctx: GpuContext, plan: MsmPlan, only?: Engine): Promise<Engine> {
  if (only === 'quick') {
    await live(ctx, 'quick');
    return 'quick';
  }
  const walker = msmPipelineRequests(plan);
  if (ctx.pipelines.allReady(walker) && passed(ctx, 'walker')) return 'walker';
  if (only === undefined && plan.n <= QUICK_MAX_N && !ctx.pipelines.allReady(walker)) {
    // The walker's pipelines compile once the quick ones (marked `first`) have, then its check runs.
    const quick = live(ctx, 'quick');
    ctx.pipelines
      .all([...QUICK_FIRST, ...walker], true)
      .then(() => live(ctx, 'walker'))
      .catch(() => {}); // a failed compile or check is reported by the run that needs the walker
    await quick;
    return 'quick';
  }
  await ctx.pipelines.all(walker);
  await live(ctx, 'walker');
  return 'walker';
}

/** What the quick engine runs: the bases' conversion and msm_quick, requested ahead of the walker's. */
export const QUICK_FIRST = [MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE];
