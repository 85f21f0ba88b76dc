// The prover keeps alive what it was given (issue 30, item 1). In Node, `gpu` is Dawn's instance:
// if it is collected while the prover's device lives, Dawn aborts the process (exit 134). So
// `createProver({ gpu: create([]) })`, with no other reference to `gpu`, must be safe. These
// tests drive createProver with a fake GPU and watch the objects through WeakRefs across real
// garbage collections; bench/gc-check.ts runs the same scenario on Dawn on the GPU machine.
import { describe, it, expect } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createProver, type Prover } from '../../src/index.js';
import { GpuContext } from '../../src/gpu/context.js';

// vitest's workers run without --expose-gc; turning the flag on at run time and reading `gc`
// from a fresh context gives the same full collection.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const LIMITS = {
  maxBufferSize: 2 ** 28,
  maxStorageBufferBindingSize: 2 ** 27,
  maxStorageBuffersPerShaderStage: 8,
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupsPerDimension: 65535,
};

/** A GPU entry point that hands out one fake adapter and device (enough for createProver). */
function fakeGpu() {
  const device = {
    limits: LIMITS,
    features: new Set<string>(),
    lost: new Promise(() => {}),
    queue: {},
    destroy() {},
  };
  const adapter = { limits: LIMITS, features: new Set<string>(), info: { vendor: 'fake' }, requestDevice: async () => device };
  const gpu = { requestAdapter: async () => adapter };
  return { gpu: gpu as unknown as GPU, adapter: adapter as unknown as GPUAdapter, device: device as unknown as GPUDevice };
}

/** Full collections with macrotask turns between them (a WeakRef target is held until its job ends). */
async function collect(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) {
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }
}

/** A prover on a fake GPU that nothing but the prover references, and WeakRefs to what it was given. */
async function proverOnFreshGpu(): Promise<{ prover: Prover; gpu: WeakRef<object>; adapter: WeakRef<object> }> {
  const fake = fakeGpu();
  const prover = await createProver({ gpu: fake.gpu });
  return { prover, gpu: new WeakRef(fake.gpu), adapter: new WeakRef(fake.adapter) };
}

describe('the prover holds what it was given', () => {
  it('GpuContext keeps the gpu object and the adapter it came from', async () => {
    const fake = fakeGpu();
    const ctx = await GpuContext.create(fake.gpu);
    expect(ctx.gpu).toBe(fake.gpu);
    expect(ctx.adapter).toBe(fake.adapter);
    expect(ctx.device).toBe(fake.device);
  });

  it('createProver({ gpu }) keeps `gpu` and the adapter alive across garbage collections', async () => {
    let held: Awaited<ReturnType<typeof proverOnFreshGpu>> | undefined = await proverOnFreshGpu();
    const { gpu, adapter } = held;
    await collect();
    expect(gpu.deref()).toBeDefined();
    expect(adapter.deref()).toBeDefined();
    expect(held.prover.info.adapter).toBe('fake');

    // Control: once the prover itself is dropped, the same objects are collectable, so the
    // collections above were real and the prover is what held them.
    held = undefined;
    await collect();
    expect(gpu.deref()).toBeUndefined();
    expect(adapter.deref()).toBeUndefined();
  });
});
