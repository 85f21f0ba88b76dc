// How an MSM job's runs are submitted and their results combined (src/kernels/msm/job.ts), with
// the GPU run replaced by a stand-in that returns known window sums after a delay: the parts'
// sums against noble, the smallest bad scalar across parts and vectors, the runs kept in flight,
// and each vector but the last folded before the job's last run is read.
import { describe, it, expect, vi, beforeEach } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import type { GpuContext } from '../../src/gpu/context.js';
import type { MsmRunResult, ScalarWords } from '../../src/kernels/msm/run.js';
import type { MsmJobPlan, MsmRun } from '../../src/kernels/msm/runs.js';
import type { MsmPlan } from '../../src/kernels/msm/plan.js';
import { FQ_P, toLimbs, toMont } from '../../src/params/bn254.js';
import { windowStart } from '../../src/params/msm-layout.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const G1 = bn254.G1.Point;
type Pt = InstanceType<typeof G1>;

/** What the stand-in GPU does for each started run, keyed by `${vector words' first word}/${start}`. */
const behaviour = new Map<string, { windows: Pt[]; bad: number; delay: number }>();
const log: string[] = [];
let inFlight = 0,
  mostInFlight = 0;

// A chain's parts as the GPU adds them: each part's windows, summed window by window; the first
// flagged part's index offset by the part's place in the chain.
vi.mock('../../src/kernels/msm/run.js', () => ({
  startMsmChain: async (_ctx: unknown, plan: MsmPlan, parts: { scalars: ScalarWords }[]) => {
    const keys = parts.map(({ scalars: s }) => `${s.words[0]}/${s.start}`);
    const bs = keys.map((k) => behaviour.get(k)!);
    for (const k of keys) log.push(`start ${k}`);
    mostInFlight = Math.max(mostInFlight, (inFlight += keys.length));
    const windows = Array.from({ length: plan.T }, (_, j) => bs.reduce((a, b) => a.add(b.windows[j]), G1.ZERO));
    const flagged = bs.findIndex((b) => b.bad >= 0);
    const bad = flagged < 0 ? -1 : parts[flagged].scalars.start - parts[0].scalars.start + bs[flagged].bad;
    const result = new Promise<MsmRunResult>((resolve) =>
      setTimeout(
        () => {
          inFlight -= keys.length;
          for (const k of keys) log.push(`read ${k}`);
          resolve({
            windows: Uint32Array.from(windows.flatMap(gpuWords)),
            bad,
            profiles: keys.map(() => null),
            poolBytes: 1000,
          });
        },
        Math.max(...bs.map((b) => b.delay)),
      ),
    );
    return { result };
  },
}));

// The walker's engine for every run (which engine a run takes: msm-engines.test.ts and the e2e spec).
vi.mock('../../src/kernels/msm/engines.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/kernels/msm/engines.js')>()),
  engineFor: async () => 'walker',
}));

// The real fold, logged: when each vector is folded against the runs' reads.
vi.mock('../../src/kernels/msm/fold.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/kernels/msm/fold.js')>();
  return {
    ...real,
    foldSums: (...a: Parameters<typeof real.foldSums>) => {
      log.push('fold');
      return real.foldSums(...a);
    },
  };
});

const { runMsmJob } = await import('../../src/kernels/msm/job.js');

/** A context with only what runMsmJob reads besides the stand-in runs. */
const ctx = () => ({ engineRuns: {} }) as unknown as GpuContext;

const rng = new SplitMix64(0x10b);
const scalar = () => rng.next256() % bn254.fields.Fr.ORDER;
const point = () => G1.BASE.multiply(scalar() || 1n);

/** A window sum as the GPU returns it: projective (x·λ, y·λ, λ), Montgomery limbs. */
function gpuWords(p: Pt): number[] {
  if (p.is0()) return Array(24).fill(0);
  const a = p.toAffine(),
    l = (scalar() % (FQ_P - 1n)) + 1n;
  return [a.x * l, a.y * l, l].flatMap((v) => toLimbs(toMont(v % FQ_P)));
}

const horner = (w: Pt[], c: number) => w.reduce((acc, p, j) => acc.add(p.multiplyUnsafe(1n << BigInt(windowStart(j, c)))), G1.ZERO);

/** A job of `parts` runs of n scalars each (2^18 = 8 MiB of packed scalars), each its own chain or all one. */
function jobPlan(parts: number, n: number, c: number, T: number, chained = false): MsmJobPlan {
  const plan = { c, T } as MsmPlan;
  const runs: MsmRun[] = Array.from({ length: parts }, (_, k) => ({ chunk: 0, base0: k * n, start: k * n, n, plan }));
  return { runs, chains: chained ? [runs] : runs.map((r) => [r]), poolBytes: 0 };
}

/** Vector v's words: its first word names it for the stand-in. */
const vector = (v: number) => ({ words: Uint32Array.of(1000 + v), be: false });

beforeEach(() => {
  behaviour.clear();
  log.length = 0;
  inFlight = mostInFlight = 0;
});

describe('msm job', () => {
  it('adds the parts of each vector and folds once: equal to the sum of their folds (noble)', async () => {
    const c = 9,
      T = 29,
      parts = 3,
      n = 1 << 12;
    const plan = jobPlan(parts, n, c, T);
    const want: Pt[] = [];
    for (let v = 0; v < 2; v++) {
      let sum = G1.ZERO;
      for (let k = 0; k < parts; k++) {
        const windows = Array.from({ length: T }, (_, j) => (j === 4 ? G1.ZERO : point()));
        behaviour.set(`${1000 + v}/${k * n}`, { windows, bad: -1, delay: 5 * (parts - k) });
        sum = sum.add(horner(windows, c));
      }
      want.push(sum);
    }
    const job = await runMsmJob(ctx(), plan, [vector(0), vector(1)], () => ({}) as GPUBuffer, false);
    const { vectors } = job.finish();
    expect(vectors.map((x) => x.bad)).toEqual([-1, -1]);
    expect(vectors.every((x, v) => x.point.equals(want[v]))).toBe(true);
  });

  it('a chain of parts: one result for all, the same sum and the same smallest bad scalar', async () => {
    const c = 9,
      T = 29,
      n = 1 << 12;
    let want = G1.ZERO;
    for (let k = 0; k < 3; k++) {
      const windows = Array.from({ length: T }, () => point());
      behaviour.set(`1000/${k * n}`, { windows, bad: -1, delay: 2 });
      want = want.add(horner(windows, c));
    }
    const job = await runMsmJob(ctx(), jobPlan(3, n, c, T, true), [vector(0)], () => ({}) as GPUBuffer, false);
    const [got] = job.finish().vectors;
    expect(got.point.equals(want)).toBe(true);
    expect(got.engines).toEqual(['walker', 'walker', 'walker']);
  });

  it('names the smallest scalar >= r of a vector, across its parts, and of no other vector', async () => {
    const n = 100;
    for (const chained of [false, true]) {
      behaviour.clear();
      const plan = jobPlan(3, n, 8, 32, chained);
      const windows = Array.from({ length: 32 }, () => G1.ZERO);
      for (let v = 0; v < 3; v++)
        for (let k = 0; k < 3; k++) behaviour.set(`${1000 + v}/${k * n}`, { windows, bad: v === 2 && k > 0 ? 7 * k : -1, delay: 1 });
      const { vectors } = (await runMsmJob(ctx(), plan, [0, 1, 2].map(vector), () => ({}) as GPUBuffer, false)).finish();
      expect(vectors.map((x) => x.bad)).toEqual([-1, -1, n + 7]);
    }
  });

  it('keeps every run of a small job in flight, large ones within 32 MiB of scalars, and folds each vector but the last as it completes', async () => {
    const windows = Array.from({ length: 20 }, () => point());
    // 2^18 scalars a run (8 MiB): four in flight at most
    const big = jobPlan(4, 1 << 18, 13, 20);
    for (let v = 0; v < 4; v++) for (let k = 0; k < 4; k++) behaviour.set(`${1000 + v}/${k << 18}`, { windows, bad: -1, delay: 3 });
    const job = await runMsmJob(ctx(), big, [0, 1, 2, 3].map(vector), () => ({}) as GPUBuffer, false);
    expect(mostInFlight).toBe(4);
    expect(log.filter((l) => l.startsWith('start')).length).toBe(16);
    // vectors 0-2 folded once each as their last part was read, before the job's last read
    expect(log.filter((l) => l === 'fold').length).toBe(3);
    expect(log.lastIndexOf('fold')).toBeLessThan(log.lastIndexOf('read 1003/786432'));
    expect(log.indexOf('fold')).toBeGreaterThan(log.indexOf('read 1000/786432'));
    const { vectors } = job.finish();
    expect(log.filter((l) => l === 'fold').length).toBe(4);
    expect(vectors.every((x) => x.point.equals(vectors[0].point) && !x.point.is0())).toBe(true);
    // small runs: every run of the batch submitted before the first is read
    behaviour.clear();
    log.length = 0;
    inFlight = mostInFlight = 0;
    const small = jobPlan(1, 1 << 10, 13, 20);
    for (let v = 0; v < 4; v++) behaviour.set(`${1000 + v}/0`, { windows, bad: -1, delay: 20 });
    await runMsmJob(ctx(), small, [0, 1, 2, 3].map(vector), () => ({}) as GPUBuffer, false);
    expect(log.slice(0, 4).every((l) => l.startsWith('start'))).toBe(true);
    expect(mostInFlight).toBe(4);
  });
});
