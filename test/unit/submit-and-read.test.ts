// GpuContext.submitAndRead, the end of a small NTT call (src/api/ntt.ts): the result's copy rides in
// the job's own command buffer (one submission, not two), progress still passes the 'readback'
// boundary, an abort there stops the job, and a result of RING_MIN_BYTES or more still goes
// through the staging ring after the job's submission. On a fake device whose queue runs the
// copies at submit, so the values read back are the GPU buffer's, not a stand-in's.
import { describe, expect, it } from 'vitest';
import { RING_MIN_BYTES } from '../../src/gpu/staging.js';
import type { JobHooks } from '../../src/gpu/context.js';

interface FakeBuffer {
  label: string;
  size: number;
  data: Uint8Array;
  mapped?: ArrayBuffer;
  mapAsync(): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

/** A device whose buffers hold bytes and whose queue runs copyBufferToBuffer at submit; `log` lists each submission's copies. */
async function fakeContext(log: string[][]) {
  const g = globalThis as Record<string, unknown>;
  g.GPUBufferUsage ??= { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 };
  g.GPUMapMode ??= { READ: 1, WRITE: 2 };
  const buffer = (d: GPUBufferDescriptor): FakeBuffer => {
    const b: FakeBuffer = {
      label: d.label ?? '',
      size: d.size,
      data: new Uint8Array(d.size),
      mapAsync: async () => {},
      getMappedRange: (offset = 0, size = b.size - offset) => {
        b.mapped = b.data.slice(offset, offset + size).buffer;
        return b.mapped;
      },
      unmap: () => {
        if (b.mapped && d.usage & 2) b.data.set(new Uint8Array(b.mapped));
        b.mapped = undefined;
      },
      destroy: () => {},
    };
    if (d.mappedAtCreation) b.getMappedRange();
    return b;
  };
  const device = {
    features: new Set<string>(),
    limits: {},
    lost: new Promise(() => {}),
    pushErrorScope: () => {},
    popErrorScope: async () => null,
    createBuffer: buffer,
    createCommandEncoder: () => {
      const ops: Array<() => void> = [];
      const names: string[] = [];
      return {
        label: 'job',
        copyBufferToBuffer(src: FakeBuffer, so: number, dst: FakeBuffer, dOff: number, n: number) {
          names.push(`${src.label} -> ${dst.label}`.replace(/ \d+B/g, ''));
          ops.push(() => dst.data.set(src.data.subarray(so, so + n), dOff));
        },
        finish: () => ({ ops, names }),
      };
    },
    queue: {
      submit(cbs: Array<{ ops: Array<() => void>; names: string[] }>) {
        for (const cb of cbs) {
          log.push(cb.names);
          for (const op of cb.ops) op();
        }
      },
      writeBuffer(b: FakeBuffer, offset: number, data: ArrayBuffer, dataOffset = 0, size = data.byteLength) {
        b.data.set(new Uint8Array(data, dataOffset, size), offset);
      },
      onSubmittedWorkDone: async () => {},
    },
    destroy: () => {},
  };
  const adapter = { limits: {}, features: new Set<string>(), info: {}, requestDevice: async () => device };
  const { GpuContext } = await import('../../src/gpu/context.js');
  return GpuContext.create({ requestAdapter: async () => adapter } as unknown as GPU);
}

/** Job hooks that log boundaries; `abortAt` throws at that one. */
function hooks(seen: string[], abortAt?: string): JobHooks {
  return {
    checkpoint: (stage) => {
      if (stage === abortAt) throw new Error(`aborted at ${stage}`);
      seen.push(stage);
    },
    expect: () => {},
  };
}

describe('GpuContext.submitAndRead', () => {
  const values = (n: number) => Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % 2013265921);
  // toEqual walks a typed array element by element through its generic equality: ~2 s at 2^18 words.
  const same = (a: Uint32Array, b: Uint32Array) => a.length === b.length && a.every((v, i) => v === b[i]);
  /** A GPU buffer holding x, written directly (not through ctx.upload, which takes the ring from 1 MiB). */
  const holding = (ctx: Awaited<ReturnType<typeof fakeContext>>, x: Uint32Array) => {
    const b = ctx.device.createBuffer({ label: 'ntt b', size: x.byteLength, usage: GPUBufferUsage.COPY_SRC });
    ctx.device.queue.writeBuffer(b, 0, x.buffer);
    return b;
  };

  it('a small result: its copy rides in the job submission; fresh array or `out`', async () => {
    const log: string[][] = [];
    const ctx = await fakeContext(log);
    const x = values(4096);
    const result = holding(ctx, x);
    for (const out of [undefined, new Uint32Array(x.length)]) {
      log.length = 0;
      const seen: string[] = [];
      ctx.job = hooks(seen);
      const got = await ctx.submitAndRead(ctx.device.createCommandEncoder(), 'ntt dft', result, x.length, out);
      expect(same(got, x)).toBe(true);
      if (out) expect(got).toBe(out);
      expect(log).toEqual([[`ntt b -> readback`]]);
      expect(seen).toEqual(['ntt dft', 'readback']);
    }
    ctx.job = undefined;
  });

  it('an abort at the readback boundary stops the call; the context reads again after it', async () => {
    const ctx = await fakeContext([]);
    const x = values(256);
    const result = holding(ctx, x);
    ctx.job = hooks([], 'readback');
    await expect(ctx.submitAndRead(ctx.device.createCommandEncoder(), 'ntt dft', result, x.length)).rejects.toThrow('aborted at readback');
    ctx.job = undefined;
    expect(same(await ctx.submitAndRead(ctx.device.createCommandEncoder(), 'ntt dft', result, x.length), x)).toBe(true);
  });

  it('a result of RING_MIN_BYTES or more: the job submitted alone, then read through the staging ring', async () => {
    const log: string[][] = [];
    const ctx = await fakeContext(log);
    const x = values(RING_MIN_BYTES / 4);
    const result = holding(ctx, x);
    const seen: string[] = [];
    ctx.job = hooks(seen);
    expect(same(await ctx.submitAndRead(ctx.device.createCommandEncoder(), 'ntt dft', result, x.length), x)).toBe(true);
    ctx.job = undefined;
    expect(log).toEqual([[], ['ntt b -> staging down']]);
    expect(seen).toEqual(['ntt dft', 'readback']);
  });
});
