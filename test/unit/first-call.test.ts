// A family's first call compiles in one wave (src/kernels/first-call.ts): the set the router
// requests up front holds every pipeline the self-check's jobs and the caller's job will request.
import { beforeAll, describe, expect, it } from 'vitest';
import { kernelSource, loadAllFamilies } from '../../src/gpu/wgsl.js';
import type { PipelineRequest } from '../../src/gpu/pipeline-cache.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { firstCallRequests, msmCallPoints, nttCallSpec } from '../../src/kernels/first-call.js';
import { MSM_QUICK_PIPELINE } from '../../src/kernels/msm/pipelines.js';
import { CANONICAL_PIPELINE } from '../../src/kernels/canonical.js';
import { nttLimits, planNtt } from '../../src/kernels/ntt/plan.js';
import { NTT_TUNING } from '../../src/kernels/ntt/tuning.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';

const nttJobLayout = (ctx: GpuContext, job: NttJob) => planNtt(job, NTT_TUNING, nttLimits(ctx));
import { familyRequests } from '../../src/kernels/warm-up.js';
import { msmPipelineRequests, MSM_BASES_PIPELINE } from '../../src/kernels/msm/pipelines.js';
import { msmPlan } from '../../src/kernels/msm/plan.js';
import { KNOWN_MSM_POINTS, KNOWN_NTT } from '../../src/checks/known-jobs.js';

/** A context whose pipelines have compiled nothing (`ready` lists the walker's when warm). */
let ready = false;
const CTX = {
  workgroup: { threads: 256, tileBytes: 16384 },
  limits: { maxStorageBufferBindingSize: 2 ** 27, maxBufferSize: 2 ** 28 },
  pipelines: { allReady: () => ready },
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

describe('firstCallRequests: one wave for the self-check and the call', () => {
  it('ntt: the self-check jobs and the call, at the widths the warm-up compiles', async () => {
    const call = nttCallSpec('lde', [new Uint32Array(2 ** 17 * 8), { width: 8, addedBits: 1, shift: 31 }])!;
    const known = [
      { op: 'lde' as const, height: KNOWN_NTT.lde.height, width: KNOWN_NTT.lde.options.width, addedBits: 1, shift: 31, bitReversed: true },
      { op: 'idft' as const, height: KNOWN_NTT.idft.height, width: KNOWN_NTT.idft.options.width, bitReversed: false },
    ];
    const wave = keys(await firstCallRequests(CTX, 'ntt', { ntt: [...known, call], msmPoints: [] }));
    for (const spec of [...known, call]) for (const r of nttJobLayout(CTX, spec).requests) expect(wave.has(key(r))).toBe(true);
    // the self-check's jobs compile no module the ntt warm-up does not (its bit-reversed store is
    // another flag set of the same modules: a pipeline, not a module)
    const source = (r: PipelineRequest) => kernelSource(r.kernel, r.plan ?? {}, r.entryPoint);
    const warm = new Set(familyRequests(CTX, 'ntt').map(source));
    for (const spec of known) for (const r of nttJobLayout(CTX, spec).requests) expect(warm.has(source(r)), r.entryPoint).toBe(true);
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
  it('a family without NTT or MSM jobs gets its whole (small) set; field the range check alone', async () => {
    expect(keys(await firstCallRequests(CTX, 'merkle', { ntt: [], msmPoints: [] }))).toEqual(keys(familyRequests(CTX, 'merkle')));
    // batchField's only pipeline of its own to compile ahead is the range check of a large input.
    expect(keys(await firstCallRequests(CTX, 'field', { ntt: [], msmPoints: [] }))).toEqual(keys([CANONICAL_PIPELINE]));
    expect(keys(await firstCallRequests(CTX, 'msm', { ntt: [], msmPoints: [64] })).has(key(CANONICAL_PIPELINE))).toBe(false);
  });
});
