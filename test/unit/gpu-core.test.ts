// GPU core pieces that need no GPU: device acquisition errors, buffer pool accounting, grids.
import { describe, it, expect } from 'vitest';
import { createProver, isProverError, ProverError } from '../../src/index.js';
import { BufferPool } from '../../src/gpu/buffer-pool.js';
import { grid2d } from '../../src/gpu/dispatch.js';
import { GpuContext } from '../../src/gpu/context.js';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isProverError(e) ? e.code : `other: ${String(e)}`;
  }
}

describe('createProver', () => {
  it('fails with NO_WEBGPU when there is no WebGPU or no adapter', async () => {
    expect(await codeOf(createProver({ gpu: undefined }))).toBe('NO_WEBGPU');
    const noAdapter = { requestAdapter: async () => null } as unknown as GPU;
    expect(await codeOf(createProver({ gpu: noAdapter }))).toBe('NO_WEBGPU');
    const throws = {
      requestAdapter: async () => {
        throw new Error('boom');
      },
    } as unknown as GPU;
    expect(await codeOf(createProver({ gpu: throws }))).toBe('NO_WEBGPU');
  });

  it('ProverError carries a stable code and is recognised across realms', () => {
    const e = new ProverError('TOO_LARGE', 'x');
    expect(e.code).toBe('TOO_LARGE');
    expect(isProverError(e)).toBe(true);
    expect(isProverError(Object.assign(new Error('y'), { name: 'ProverError', code: 'ABORTED' }))).toBe(true);
    expect(isProverError(new Error('z'))).toBe(false);
  });
});

describe('GpuContext and device loss', () => {
  const LIMITS = { maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256, maxComputeWorkgroupStorageSize: 16384 };
  /** A fake GPU whose device, as WebGPU's, resolves `lost` with reason 'destroyed' on destroy(). */
  function fakeGpu() {
    let lose!: (info: { reason: string; message: string }) => void;
    const device = {
      limits: LIMITS,
      features: new Set<string>(),
      lost: new Promise((r) => (lose = r)),
      queue: {},
      destroy: () => lose({ reason: 'destroyed', message: 'Device was destroyed.' }),
    };
    const adapter = { limits: LIMITS, features: new Set<string>(), info: { vendor: 'fake' }, requestDevice: async () => device };
    return { gpu: { requestAdapter: async () => adapter } as unknown as GPU, device: device as unknown as GPUDevice };
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it("is destroyed, not lost, after its own destroy() (another prover's handles are INVALID_ARGUMENT, not DEVICE_LOST)", async () => {
    const ctx = await GpuContext.create(fakeGpu().gpu);
    ctx.destroy();
    await settle();
    expect(ctx.lost).toBe(false);
    expect(await codeOf(ctx.run(async () => 1))).toBe('DESTROYED');
  });

  it('is lost when its device goes without destroy() (a driver reset; the checks destroy the device itself to make one)', async () => {
    const fake = fakeGpu();
    const ctx = await GpuContext.create(fake.gpu);
    fake.device.destroy();
    await settle();
    expect(ctx.lost).toBe(true);
    expect(await codeOf(ctx.run(async () => 1))).toBe('DEVICE_LOST');
  });
});

function fakeDevice() {
  const live = new Set<object>();
  const device = {
    createBuffer: ({ size }: { size: number }) => {
      const b = { size, destroy: () => live.delete(b) };
      live.add(b);
      return b;
    },
  } as unknown as GPUDevice;
  return { device, live };
}

describe('BufferPool', () => {
  it('reuses buffers of the same bucket and counts bytes held', () => {
    const { device, live } = fakeDevice();
    const pool = new BufferPool(device);
    const a = pool.acquire(1000, 1);
    expect(pool.stats()).toEqual({ bytesHeld: 1024, bytesInUse: 1024, peakBytesInUse: 1024, buffers: 1 });
    pool.release(a);
    expect(pool.acquire(600, 1)).toBe(a); // same 1024 bucket
    const b = pool.acquire(600, 2); // other usage: new buffer
    expect(b).not.toBe(a);
    expect(pool.stats().bytesHeld).toBe(2048);
    pool.release(b);
    pool.trim();
    expect(pool.stats()).toEqual({ bytesHeld: 1024, bytesInUse: 1024, peakBytesInUse: 2048, buffers: 1 });
    expect(() => pool.release(b)).toThrow();
    pool.destroy();
    expect(live.size).toBe(0);
    expect(pool.stats().bytesHeld).toBe(0);
  });

  it('rounds to powers of two up to 1 MiB (256-byte floor), to eighths of one above', () => {
    expect(BufferPool.bucketSize(0)).toBe(256);
    expect(BufferPool.bucketSize(257)).toBe(512);
    expect(BufferPool.bucketSize(1 << 26)).toBe(1 << 26);
    expect(BufferPool.bucketSize((1 << 20) + 1)).toBe(1.25 * 2 ** 20); // eighths of 2 MiB above 1 MiB
    expect(BufferPool.bucketSize(12 * 2 ** 20)).toBe(12 * 2 ** 20);
    expect(BufferPool.bucketSize(12 * 2 ** 20 + 1)).toBe(14 * 2 ** 20);
  });
});

describe('grid2d', () => {
  it('covers every thread within the per-dimension cap', () => {
    for (const [threads, wg, cap] of [
      [1, 256, 65535],
      [1 << 24, 256, 65535],
      [(1 << 26) + 5, 64, 65535],
      [1000, 256, 3],
    ]) {
      const [x, y] = grid2d(threads, wg, cap);
      expect(x).toBeLessThanOrEqual(cap);
      expect(y).toBeLessThanOrEqual(cap);
      expect(x * y * wg).toBeGreaterThanOrEqual(threads);
    }
  });
});

describe('GpuContext.run', () => {
  /** A context on a fake device that logs error-scope pushes and pops. */
  async function loggingContext(log: string[]) {
    const device = {
      features: new Set<string>(),
      limits: {},
      lost: new Promise(() => {}),
      pushErrorScope: (f: string) => log.push(`push ${f}`),
      popErrorScope: async () => {
        log.push('pop');
        return null;
      },
    };
    const adapter = { limits: {}, features: new Set<string>(), info: {}, requestDevice: async () => device };
    const gpu = { requestAdapter: async () => adapter } as unknown as GPU;
    const { GpuContext } = await import('../../src/gpu/context.js');
    return GpuContext.create(gpu);
  }
  const tick = () => new Promise((r) => setTimeout(r, 1));

  it('runs jobs one at a time in call order, each inside its own error scopes', async () => {
    const log: string[] = [];
    const ctx = await loggingContext(log);
    const job =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} starts`);
        await tick();
        log.push(`${name} ends`);
        if (fail) throw new ProverError('INVALID_ARGUMENT', name);
        return name;
      };
    const results = await Promise.allSettled([ctx.run(job('a')), ctx.run(job('b', true)), ctx.run(job('c'))]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as ProverError).message))).toEqual(['a', 'b', 'c']);
    const scoped = (name: string) => ['push out-of-memory', 'push validation', `${name} starts`, `${name} ends`, 'pop', 'pop'];
    expect(log).toEqual([...scoped('a'), ...scoped('b'), ...scoped('c')]);
  });

  it("reads each error scope's own error though both are popped at once and answer out of order", async () => {
    // popErrorScope pops when called and answers later: here the inner (validation) scope answers last.
    const stack: string[] = [];
    let errors: Record<string, string> = {};
    const device = {
      features: new Set<string>(),
      limits: {},
      lost: new Promise(() => {}),
      pushErrorScope: (f: string) => stack.push(f),
      popErrorScope: () => {
        const f = stack.pop()!;
        const error = errors[f] ? { message: errors[f] } : null;
        return new Promise((r) => setTimeout(() => r(error), f === 'validation' ? 5 : 0));
      },
    };
    const adapter = { limits: {}, features: new Set<string>(), info: {}, requestDevice: async () => device };
    const { GpuContext } = await import('../../src/gpu/context.js');
    const ctx = await GpuContext.create({ requestAdapter: async () => adapter } as unknown as GPU);
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: ProverError) => `${e.code} ${e.message}`,
      );
    errors = { validation: 'bad binding' };
    expect(await failure(ctx.run(async () => 1))).toMatch(/^GPU_ERROR GPU validation error .*: bad binding$/);
    errors = { 'out-of-memory': 'no room' };
    expect(await failure(ctx.run(async () => 1))).toMatch(/^TOO_LARGE GPU out of memory: no room\./);
    errors = {};
    expect(await ctx.run(async () => 7)).toBe(7);
    expect(stack).toEqual([]);
  });
});
