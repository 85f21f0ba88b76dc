// Which engine an MSM run takes (src/kernels/msm/engines.ts), with the GPU runs replaced by
// stand-ins that compute the known-answer job with noble (or get it wrong on purpose) and a
// pipeline cache whose readiness the test sets: the quick engine while the walker compiles (its
// pipelines requested behind the quick one's), the walker once compiled and checked, a large run
// waiting for the walker, a tuning's engine, and an engine with a wrong known answer refused.
import { describe, it, expect, vi, beforeEach } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { GpuContext } from '../../src/gpu/context.js';
import type { PipelineRequest } from '../../src/gpu/pipeline-cache.js';
import type { MsmPlan } from '../../src/kernels/msm/plan.js';
import type { ScalarWords } from '../../src/kernels/msm/run.js';
import { fromLimbs, toLimbs, toMont } from '../../src/params/bn254.js';

const G1 = bn254.G1.Point;
type Pt = InstanceType<typeof G1>;

/** Per engine: add this point to the right answer (ZERO: right). */
const skew: Record<'quick' | 'walker', Pt> = { quick: G1.ZERO, walker: G1.ZERO };

/** The answer of a run over stand-in bases (the caller's words, as BasesUpload.open got them). */
function answer(bases: { words: Uint32Array }, s: ScalarWords, n: number): Pt {
  const pts: Pt[] = [];
  const ks: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const x = fromLimbs(bases.words, 16 * i);
    const y = fromLimbs(bases.words, 16 * i + 8);
    pts.push(x === 0n && y === 0n ? G1.ZERO : G1.fromAffine({ x, y }));
    ks.push(fromLimbs(s.words, 8 * (s.start + i)));
  }
  return pippenger(G1, pts, ks);
}

/** A point as the GPU returns it: projective Montgomery limbs (the identity as zeros). */
function words(p: Pt): number[] {
  if (p.is0()) return Array(24).fill(0);
  const { x, y } = p.toAffine();
  return [x, y, 1n].flatMap((c) => toLimbs(toMont(c)));
}

vi.mock('../../src/kernels/msm/bases.js', () => ({
  BasesUpload: {
    open: async (_ctx: unknown, w: Uint32Array) => ({ buf: { words: w }, upTo: async () => {}, release: () => {} }),
  },
}));
vi.mock('../../src/kernels/msm/quick.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/kernels/msm/quick.js')>()),
  startQuickMsm: async (_ctx: unknown, bases: { words: Uint32Array }, _b: number, s: ScalarWords, n: number) => ({
    result: Promise.resolve({
      sums: Uint32Array.from(words(answer(bases, s, n).add(skew.quick))),
      chunks: 1,
      bits: 256,
      bad: -1,
      profile: null,
      poolBytes: 0,
    }),
  }),
}));
vi.mock('../../src/kernels/msm/run.js', () => ({
  startMsm: async (_ctx: unknown, bases: { words: Uint32Array }, _b: number, s: ScalarWords, plan: MsmPlan) => {
    // Window 0 holds the whole answer: the fold's other windows add nothing.
    const windows = new Uint32Array(24 * plan.T);
    windows.set(words(answer(bases, s, plan.n).add(skew.walker)));
    return { result: Promise.resolve({ windows, bad: -1, profiles: [null], poolBytes: 0 }) };
  },
}));

const { engineFor, QUICK_MAX_N } = await import('../../src/kernels/msm/engines.js');
const { msmPlan } = await import('../../src/kernels/msm/plan.js');
const { MSM_QUICK_PIPELINE } = await import('../../src/kernels/msm/pipelines.js');

const LIMITS = { threads: 256, tileBytes: 16384 };

/** A context whose pipeline cache compiles nothing until `ready` is set; `asked` logs each all(). */
function fakeContext() {
  const state = { ready: false, asked: [] as PipelineRequest[][] };
  const ctx = {
    workgroup: LIMITS,
    pipelines: {
      allReady: () => state.ready,
      all: async (r: PipelineRequest[]) => {
        state.asked.push(r);
        return [];
      },
    },
  } as unknown as GpuContext;
  return { ctx, state };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('msm engines', () => {
  beforeEach(() => {
    skew.quick = G1.ZERO;
    skew.walker = G1.ZERO;
  });

  it("a small run takes the quick engine while the walker's pipelines compile, then the walker", async () => {
    const { ctx, state } = fakeContext();
    const plan = msmPlan(1 << 12, {}, LIMITS);
    expect(await engineFor(ctx, plan)).toBe('quick');
    // The walker's pipelines were requested with the quick one's marked first.
    const wave = state.asked.find((r) => r.some((x) => x.kernel === 'msm_walk'))!;
    expect(wave.filter((r) => r.first).map((r) => r.kernel)).toEqual(['msm_prep', MSM_QUICK_PIPELINE.kernel]);
    expect(await engineFor(ctx, plan)).toBe('quick'); // still compiling
    state.ready = true;
    await settle(); // the walker's known-answer check, started when its compile ended
    expect(await engineFor(ctx, plan)).toBe('walker');
  });

  it('a run past QUICK_MAX_N waits for the walker; a tuning names its engine', async () => {
    const { ctx, state } = fakeContext();
    const big = msmPlan(2 * QUICK_MAX_N, {}, LIMITS);
    const waiting = engineFor(ctx, big);
    state.ready = true;
    expect(await waiting).toBe('walker');
    expect(await engineFor(ctx, msmPlan(64, {}, LIMITS), 'quick')).toBe('quick');
  });

  it('an engine that gets the known answer wrong is refused with CHECK_FAILED; the other serves on', async () => {
    const { ctx, state } = fakeContext();
    skew.walker = G1.BASE;
    const plan = msmPlan(1 << 10, {}, LIMITS);
    expect(await engineFor(ctx, plan)).toBe('quick');
    state.ready = true;
    await settle();
    await expect(engineFor(ctx, plan)).rejects.toMatchObject({ code: 'CHECK_FAILED' });
    expect(await engineFor(ctx, plan, 'quick')).toBe('quick');

    const other = fakeContext();
    skew.quick = G1.BASE;
    await expect(engineFor(other.ctx, plan)).rejects.toMatchObject({ code: 'CHECK_FAILED' });
  });
});
