// A family's first call compiles in one wave (src/kernels/first-call.ts): the set the router
// requests up front holds every pipeline the self-check's jobs and the caller's job will request.
import { beforeAll, describe, expect, it } from 'vitest';
import { kernelSource, loadAllFamilies } from '../../src/gpu/wgsl.js';
import type { PipelineRequest } from '../../src/gpu/pipeline-cache.js';
import type { GpuContext } from '../../src/gpu/context.js';
import {
  callTransfers,
  firstCallRequests,
  msmCallPoints,
  nttCallSpec,
  poseidon2CallSpec,
  type Poseidon2Shape,
} from '../../src/kernels/first-call.js';
import { MSM_QUICK_PIPELINE } from '../../src/kernels/msm/pipelines.js';
import { CANONICAL_PIPELINE } from '../../src/kernels/canonical.js';
import { nttLimits, planNtt } from '../../src/kernels/ntt/plan.js';
import { NTT_TUNING } from '../../src/kernels/ntt/tuning.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';

const nttJobLayout = (ctx: GpuContext, job: NttJob) => planNtt(job, NTT_TUNING, nttLimits(ctx));
import { familyRequests } from '../../src/kernels/warm-up.js';
import { msmPipelineRequests, MSM_BASES_PIPELINE } from '../../src/kernels/msm/pipelines.js';
import { msmPlan } from '../../src/kernels/msm/plan.js';
import {
  KNOWN_MSM_POINTS,
  knownCommitJob,
  knownNttJobs,
  knownNttSpecs,
  knownPoseidon2Jobs,
  type KnownNttJob,
} from '../../src/checks/known-jobs.js';

/**
 * A context whose pipelines have compiled nothing (`ready` lists the walker's when warm,
 * `walkerAsked` says a walker was requested before); `early` records what it was asked to
 * compile ahead.
 */
let ready = false;
let walkerAsked = false;
const early: PipelineRequest[][] = [];
const CTX = {
  workgroup: { threads: 256, tileBytes: 16384 },
  limits: { maxStorageBufferBindingSize: 2 ** 27, maxBufferSize: 2 ** 28 },
  pipelines: {
    allReady: () => ready,
    requested: (kernel: string) => kernel === 'msm_walk' && walkerAsked,
    request: async (r: PipelineRequest[]) => void early.push(r),
  },
} as unknown as GpuContext;
const key = (r: PipelineRequest) => JSON.stringify([r.kernel, r.entryPoint, r.plan, r.bindings, r.overrides]);
const keys = (rs: PipelineRequest[]) => new Set(rs.map(key));

beforeAll(loadAllFamilies);

describe('nttCallSpec: what an NTT call will run, from its arguments', () => {
  it('reads lde, dft, commit and matrix arguments', () => {
    expect(nttCallSpec('lde', [new Uint32Array(64 * 8), { width: 8, addedBits: 2, shift: 7 }])).toEqual({
      op: 'lde',
      height: 64,
      width: 8,
      addedBits: 2,
      shift: 7,
      bitReversed: false,
    });
    expect(nttCallSpec('dft', [new Uint32Array(16), { width: 1, bitReversedOutput: true }])).toEqual({
      op: 'dft',
      height: 16,
      width: 1,
      bitReversed: true,
    });
    expect(nttCallSpec('commit', [new Uint32Array(32 * 4), { width: 4, addedBits: 1 }])).toMatchObject({
      op: 'encode',
      height: 32,
      width: 4,
      addedBits: 1,
    });
    expect(nttCallSpec('idft', [{ height: 1024, width: 2 }, {}])).toMatchObject({ op: 'idft', height: 1024, width: 2 });
  });
  it('gives up on arguments the call itself will reject', () => {
    expect(nttCallSpec('lde', [new Uint32Array(48), { width: 1, addedBits: 1 }])).toBeUndefined(); // height not a power of two
    expect(nttCallSpec('lde', [new Uint32Array(64), { width: 1 }])).toBeUndefined(); // no addedBits
    expect(nttCallSpec('dft', ['nope', { width: 1 }])).toBeUndefined();
    expect(nttCallSpec('msm', [new Uint32Array(64), { width: 1 }])).toBeUndefined();
  });
  it('counts msm points', () => {
    expect(msmCallPoints([[1, 2, 3]])).toBe(3);
    expect(msmCallPoints([new Uint8Array(64 * 5)])).toBe(5);
    expect(msmCallPoints([new Uint8Array(65)])).toBeUndefined();
  });
});

describe('callTransfers: which staging directions a first call will take', () => {
  it('up: its largest input as uploaded; down: an NTT output (not kept on the GPU), a result the size of its input', () => {
    const x = new Uint32Array(2 ** 10 * 8);
    const t = (m: string, args: unknown[]) => callTransfers(m, args, nttCallSpec(m, args));
    expect(t('dft', [x, { width: 8 }])).toEqual({ up: x.byteLength, down: x.byteLength });
    expect(t('lde', [x, { width: 8, addedBits: 3, shift: 31 }])).toEqual({ up: x.byteLength, down: 8 * x.byteLength });
    expect(t('lde', [x, { width: 8, addedBits: 3, shift: 31, gpu: true }])).toEqual({ up: x.byteLength, down: 0 });
    expect(t('commit', [x, { width: 8, addedBits: 1 }])).toEqual({ up: x.byteLength, down: 0 });
    expect(t('poseidon2', [x, { width: 16 }])).toEqual({ up: x.byteLength, down: x.byteLength });
    expect(t('merkleCommit', [x, { width: 8 }])).toEqual({ up: x.byteLength, down: 0 });
    expect(t('msm', [new Array(2 ** 14), new Array(2 ** 14)])).toEqual({ up: 64 * 2 ** 14, down: 0 });
    expect(t('msm', [new Uint8Array(96), new Uint32Array(5)])).toEqual({ up: 96, down: 0 });
    expect(t('grind', [])).toEqual({ up: 0, down: 0 });
  });
});

describe('firstCallRequests: one wave for the self-check and the call', () => {
  it('ntt: the self-check jobs and the call, at the widths the warm-up compiles', async () => {
    const call = nttCallSpec('lde', [new Uint32Array(2 ** 17 * 8), { width: 8, addedBits: 1, shift: 31 }])!;
    const asSpec = (j: KnownNttJob) => nttCallSpec(j.op, [{ height: j.height }, j.options])!;
    const known = knownNttJobs(call).map(asSpec);
    const wave = keys(await firstCallRequests(CTX, 'ntt', { ntt: [...known, call], msmPoints: [] }));
    for (const spec of [...known, call]) for (const r of nttJobLayout(CTX, spec).requests) expect(wave.has(key(r))).toBe(true);
    // the self-check's jobs without a call's shape (KNOWN_NTT's) compile no module the ntt warm-up
    // does not (their bit-reversed store is another flag set of the same modules: a pipeline, not a module)
    const source = (r: PipelineRequest) => kernelSource(r.kernel, r.plan ?? {}, r.entryPoint);
    const warm = new Set(familyRequests(CTX, 'ntt').map(source));
    for (const spec of knownNttJobs().map(asSpec))
      for (const r of nttJobLayout(CTX, spec).requests) expect(warm.has(source(r)), r.entryPoint).toBe(true);
  });
  it("ntt: the self-check shaped after the call adds no pipeline to the call's own (every op, widths 1, 8, 16, 2 .. 2^23 rows)", () => {
    const extra: string[] = [];
    for (const op of ['dft', 'idft', 'lde', 'encode'] as const)
      for (const width of [1, 8, 16])
        for (let log = 1; log <= 23; log++) {
          const o = { width, addedBits: op === 'lde' || op === 'encode' ? 1 : undefined, shift: op === 'lde' ? 31 : undefined };
          const call = nttCallSpec(op, [{ height: 2 ** log, width }, o])!;
          const own = keys([...nttJobLayout(CTX, call).requests]);
          const jobs = knownNttJobs(call);
          expect(jobs.map((j) => [j.op, j.options.width])).toEqual([[op, width]]);
          expect(jobs[0].height).toBeLessThanOrEqual(call.height);
          const more = jobs.flatMap((j) => [...nttJobLayout(CTX, nttCallSpec(j.op, [{ height: j.height }, j.options])!).requests]);
          for (const r of more) if (!own.has(key(r))) extra.push(`${op} 2^${log} x ${width}: ${r.entryPoint}`);
        }
    // Width 1 at 2^16 and 2^21: the check's 2^11 rows take register passes where the call's take staged ones.
    expect(extra.length, extra.join('; ')).toBeLessThanOrEqual(2);
    expect(
      extra.every((e) => e.includes(' x 1:')),
      extra.join('; '),
    ).toBe(true);
  });
  it("commit: the self-check's encode, shaped after the call's, adds no NTT pipeline to the call's own", () => {
    const extra: string[] = [];
    for (const width of [1, 4, 8, 16, 64])
      for (const addedBits of [1, 2])
        for (let log = 2; log <= 22; log++) {
          const call = nttCallSpec('commit', [
            { height: 2 ** log, width },
            { width, addedBits },
          ])!;
          const own = keys([...nttJobLayout(CTX, call).requests]);
          const specs = knownNttSpecs('commit', call);
          expect(specs).toHaveLength(1);
          for (const r of nttJobLayout(CTX, specs[0]).requests)
            if (!own.has(key(r))) extra.push(`2^${log} x ${width} +${addedBits}: ${r.entryPoint}`);
        }
    expect(extra, extra.join('; ')).toEqual([]);
    // no call shape (WHIR's own commit, a koalabear field): the fixed 8 x 4 job
    expect(knownCommitJob()).toEqual({ height: 8, width: 4, addedBits: 1 });
    expect(knownNttSpecs('merkle', undefined)).toEqual([]);
  });
  it("ntt: a call's shape no small job could take gets the fixed jobs (its bad input is the call's to report)", () => {
    const fixed = knownNttJobs();
    expect(fixed.map((j) => j.op)).toEqual(['lde', 'idft']);
    const lde = (o: Record<string, unknown>, width = 8) =>
      nttCallSpec('lde', [
        { height: 2 ** 12, width },
        { width, addedBits: 1, ...o },
      ])!;
    expect(knownNttJobs(lde({ shift: 0 }))).toEqual(fixed);
    expect(knownNttJobs(lde({ shift: 2013265921 }))).toEqual(fixed); // p
    expect(knownNttJobs(lde({ shift: 1.5 }))).toEqual(fixed);
    expect(knownNttJobs(lde({ addedBits: 5 }))).toEqual(fixed);
    expect(knownNttJobs(lde({}, 2 ** 17))).toEqual(fixed);
    expect(knownNttJobs(lde({ shift: 7 }))[0]).toMatchObject({ op: 'lde', height: 2 ** 12, options: { width: 8, shift: 7 } });
  });
  it("poseidon2: the call's width and field only, both BabyBear widths when the call names none", async () => {
    const entries = async (shapes?: Poseidon2Shape[]) =>
      (await firstCallRequests(CTX, 'poseidon2', { ntt: [], msmPoints: [], poseidon2: shapes })).map((r) => r.kernel);
    const s16 = poseidon2CallSpec('poseidon2', [new Uint32Array(16), { width: 16 }])!;
    expect(s16).toEqual({ width: 16, field: 'babybear' });
    expect(knownPoseidon2Jobs(s16)).toEqual([s16]); // the self-check takes the call's width
    expect(await entries([s16])).toEqual(['poseidon2_s16_batch', 'canonical']);
    const kb24 = poseidon2CallSpec('poseidon2', [new Uint32Array(24), { width: 24, field: 'koalabear' }])!;
    expect(await entries([kb24])).toEqual(['koalabear_poseidon2_s24_batch', 'canonical']);
    for (const bad of [{ width: 12 }, { width: 16, field: 'goldilocks' }, undefined]) {
      expect(poseidon2CallSpec('poseidon2', [new Uint32Array(16), bad])).toBeUndefined();
    }
    expect(poseidon2CallSpec('merkleCommit', [new Uint32Array(16), { width: 16 }])).toBeUndefined();
    expect(knownPoseidon2Jobs().map((j) => j.width)).toEqual([16, 24]);
    expect(await entries([])).toEqual(['poseidon2_s16_batch', 'poseidon2_s24_batch', 'canonical']);
  });
  it('msm: the bases conversion, the self-check plan and every run of the call', async () => {
    const wave = keys(await firstCallRequests(CTX, 'msm', { ntt: [], msmPoints: [KNOWN_MSM_POINTS, 2 ** 16] }));
    expect(wave.has(key(MSM_BASES_PIPELINE))).toBe(true);
    for (const n of [KNOWN_MSM_POINTS, 2 ** 16])
      for (const r of msmPipelineRequests(msmPlan(n, {}, CTX.workgroup))) expect(wave.has(key(r)), r.entryPoint).toBe(true);
  });
  it("msm: the quick engine's pipeline first while the walker's are not compiled, not once they are", async () => {
    const call = { ntt: [], msmPoints: [KNOWN_MSM_POINTS, 2 ** 16] };
    const cold = await firstCallRequests(CTX, 'msm', call);
    expect(cold.filter((r) => r.first).map(key)).toEqual([key(MSM_BASES_PIPELINE), key(MSM_QUICK_PIPELINE)]);
    ready = true;
    try {
      expect(keys(await firstCallRequests(CTX, 'msm', call)).has(key(MSM_QUICK_PIPELINE))).toBe(false);
    } finally {
      ready = false;
    }
  });
  it("msm: the quick engine's pipelines go out before the walker's plans unless a walker was requested", async () => {
    const call = { ntt: [], msmPoints: [KNOWN_MSM_POINTS, 2 ** 16] };
    early.length = 0;
    await firstCallRequests(CTX, 'msm', call);
    expect(early.map((r) => r.map(key))).toEqual([[key(MSM_BASES_PIPELINE), key(MSM_QUICK_PIPELINE)]]);
    early.length = 0;
    walkerAsked = true;
    try {
      // A warm-up asked for a walker: the plans decide whether the quick engine is needed at all.
      await firstCallRequests(CTX, 'msm', call);
      expect(early).toEqual([]);
    } finally {
      walkerAsked = false;
    }
  });
  it('a family without NTT or MSM jobs gets its whole (small) set; field the range check alone', async () => {
    expect(keys(await firstCallRequests(CTX, 'merkle', { ntt: [], msmPoints: [] }))).toEqual(keys(familyRequests(CTX, 'merkle')));
    // batchField's only pipeline of its own to compile ahead is the range check of a large input.
    expect(keys(await firstCallRequests(CTX, 'field', { ntt: [], msmPoints: [] }))).toEqual(keys([CANONICAL_PIPELINE]));
    expect(keys(await firstCallRequests(CTX, 'msm', { ntt: [], msmPoints: [64] })).has(key(CANONICAL_PIPELINE))).toBe(false);
  });
});
