// PipelineCache's wait hook: a job that must wait for a compile hears of it ('compiling'
// progress through GpuContext); compiles requested ahead (warm-up, a first call's prefetch) and
// pipelines already compiled do not call it. A fake device whose compiles finish when told.
import { describe, expect, it } from 'vitest';
import { PipelineCache } from '../../src/gpu/pipeline-cache.js';

function fakeDevice() {
  const pending: Array<() => void> = [];
  const device = {
    createShaderModule: (d: { code: string }) => ({ code: d.code }),
    createPipelineLayout: () => ({}),
    createBindGroupLayout: () => ({}),
    createComputePipelineAsync: () => new Promise((resolve) => pending.push(() => resolve({}))),
  };
  return { device: device as unknown as GPUDevice, finishAll: () => pending.splice(0).forEach((f) => f()), pending };
}

describe('PipelineCache: waiting for a compile', () => {
  it('calls onWait for a pipeline still compiling, not for one compiled or requested ahead', async () => {
    const { device, finishAll, pending } = fakeDevice();
    let waits = 0;
    const cache = new PipelineCache(device, () => waits++);
    const req = { kernel: 'grind' as const, entryPoint: 'grind_search', plan: { GR_WG: 64, P2_RC_VEC4: 36 } };
    const ahead = cache.all([req], true);
    // the family's WGSL module is imported first (a dynamic import): wait for the compile request
    for (let i = 0; i < 200 && pending.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(pending.length).toBe(1);
    expect(waits).toBe(0);
    const job = cache.all([req]); // the same pipeline, still compiling: the job waits
    await new Promise((r) => setTimeout(r, 0));
    expect(waits).toBe(1);
    expect(pending.length).toBe(1); // not compiled twice
    finishAll();
    await Promise.all([ahead, job]);
    await cache.all([req]); // compiled: no wait
    expect(waits).toBe(1);
    expect(cache.stats().pipelines).toBe(1);
  });
});

describe('PipelineCache.prime', () => {
  it('requests a few distinct trivial pipelines at once, outside the stats, and survives a device that fails them', async () => {
    const { device, pending } = fakeDevice();
    const codes: string[] = [];
    const make = device.createShaderModule.bind(device);
    device.createShaderModule = (d: GPUShaderModuleDescriptor) => (codes.push(d.code), make(d));
    const cache = new PipelineCache(device);
    cache.prime();
    expect(pending.length).toBe(4); // all requested before any finished
    expect(new Set(codes).size).toBe(4);
    expect(cache.stats()).toEqual({ modules: 0, wgslChars: 0, pipelines: 0, pipelineMs: 0 });
    const failing = {
      ...device,
      createComputePipelineAsync: () => Promise.reject(new Error('lost')),
    } as unknown as GPUDevice;
    new PipelineCache(failing).prime();
    const throwing = {
      ...device,
      createShaderModule: () => {
        throw new Error('destroyed');
      },
    } as unknown as GPUDevice;
    expect(() => new PipelineCache(throwing).prime()).not.toThrow();
    await new Promise((r) => setTimeout(r, 0)); // a rejection left unhandled would fail the run
  });
});

describe('PipelineCache.holdBackground', () => {
  it('holds builds gated behind `first` requests until the held call settles; a job that needs one builds it at once', async () => {
    const { device, finishAll, pending } = fakeDevice();
    const cache = new PipelineCache(device);
    const first = { kernel: 'grind' as const, entryPoint: 'grind_search', plan: { GR_WG: 64, P2_RC_VEC4: 36 }, first: true };
    const later = { kernel: 'grind' as const, entryPoint: 'grind_search', plan: { GR_WG: 128, P2_RC_VEC4: 36 } };
    const other = { kernel: 'grind' as const, entryPoint: 'grind_search', plan: { GR_WG: 256, P2_RC_VEC4: 36 } };
    let settle!: () => void;
    cache.holdBackground(new Promise<void>((r) => (settle = r)));
    const ahead = cache.all([first, later, other], true);
    for (let i = 0; i < 200 && pending.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(pending.length).toBe(1); // the `first` one only
    finishAll();
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    expect(pending.length).toBe(0); // compiled, but the call is not done: the rest wait
    const now = cache.all([other]); // a job needs this one now
    await new Promise((r) => setTimeout(r, 0));
    expect(pending.length).toBe(1);
    settle();
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    expect(pending.length).toBe(2); // `later` now; `other` is not compiled twice
    finishAll();
    await Promise.all([ahead, now]);
    expect(cache.stats().pipelines).toBe(3);
  });

  it('a hold given while gated builds wait holds them too (a Groth16 key holds them for its first proof)', async () => {
    const { device, finishAll, pending } = fakeDevice();
    const cache = new PipelineCache(device);
    const first = { kernel: 'grind' as const, entryPoint: 'grind_search', plan: { GR_WG: 64, P2_RC_VEC4: 36 }, first: true };
    const later = { kernel: 'grind' as const, entryPoint: 'grind_search', plan: { GR_WG: 128, P2_RC_VEC4: 36 } };
    let settleCall!: () => void;
    let settleProof!: () => void;
    cache.holdBackground(new Promise<void>((r) => (settleCall = r)));
    const ahead = cache.all([first, later], true);
    for (let i = 0; i < 200 && pending.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    finishAll();
    cache.holdBackground(new Promise<void>((r) => (settleProof = r))); // given while `later` waits
    settleCall();
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    expect(pending.length).toBe(0);
    settleProof();
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    expect(pending.length).toBe(1);
    finishAll();
    await ahead;
  });
});
