// The staging ring's slots made ahead (src/gpu/staging.ts warm): after a direction's first slot
// the ring makes the other three, touches them and leaves each ready for its next use (upload
// slots mapped for writing again, readback slots unmapped), and later transfers through all four
// still land every word. On a fake device that keeps WebGPU's mapping rules (a mapped range is
// handed out once until unmap; mapAsync only on an unmapped buffer) and runs copies at submit.
import { describe, expect, it } from 'vitest';
import { StagingRing } from '../../src/gpu/staging.js';

const CHUNK = 256;

interface FakeBuffer {
  label: string;
  data: Uint8Array;
  ranges: number;
  mapped: boolean;
  mapAsync(): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

function fakeDevice() {
  const g = globalThis as Record<string, unknown>;
  g.GPUBufferUsage ??= { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 };
  g.GPUMapMode ??= { READ: 1, WRITE: 2 };
  const made: FakeBuffer[] = [];
  const createBuffer = (d: GPUBufferDescriptor): FakeBuffer => {
    const views: Uint8Array[] = [];
    const b: FakeBuffer = {
      label: d.label ?? '',
      data: new Uint8Array(d.size),
      ranges: 0,
      mapped: d.mappedAtCreation === true,
      async mapAsync() {
        if (b.mapped) throw new Error(`mapAsync on mapped buffer '${b.label}'`);
        b.mapped = true;
      },
      getMappedRange(offset = 0, size = d.size - offset) {
        if (!b.mapped) throw new Error(`getMappedRange on unmapped buffer '${b.label}'`);
        if (b.ranges > 0) throw new Error(`overlapping getMappedRange on '${b.label}'`);
        b.ranges++;
        const view = b.data.slice(offset, offset + size);
        views.push(view);
        return view.buffer;
      },
      unmap() {
        // A write mapping's views go back into the buffer (reads ignore the copies).
        if (d.usage & 2) for (const v of views) b.data.set(v.subarray(0, Math.min(v.length, b.data.length)));
        views.length = 0;
        b.ranges = 0;
        b.mapped = false;
      },
      destroy() {},
    };
    made.push(b);
    return b;
  };
  const device = {
    createBuffer,
    createCommandEncoder: () => {
      const ops: Array<() => void> = [];
      return {
        copyBufferToBuffer(src: FakeBuffer, so: number, dst: FakeBuffer, dOff: number, n: number) {
          ops.push(() => dst.data.set(src.data.subarray(so, so + n), dOff));
        },
        finish: () => ops,
      };
    },
  };
  const submit = (enc: unknown) => {
    for (const op of (enc as { finish(): Array<() => void> }).finish()) op();
  };
  return { device: device as unknown as GPUDevice, submit, made };
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
};

describe('StagingRing slots made ahead', () => {
  it('a first upload slot brings the other three, mapped for writing again; four-chunk uploads still land', async () => {
    const { device, submit, made } = fakeDevice();
    const ring = new StagingRing(device, submit, CHUNK);
    const dst = device.createBuffer({ size: 8 * CHUNK, usage: 8 }) as unknown as FakeBuffer;
    const words = (n: number, seed: number) => Uint32Array.from({ length: n }, (_, i) => (i * 2654435761 + seed) >>> 0);
    await ring.write(dst as unknown as GPUBuffer, 0, words(CHUNK / 4, 1));
    await settle();
    expect(ring.bytes).toBe(4 * CHUNK);
    const slots = made.filter((b) => b.label === 'staging up');
    expect(slots.length).toBe(4);
    // Two passes over all four slots: every word of both uploads lands.
    for (const seed of [7, 9]) {
      const x = words((8 * CHUNK) / 4, seed);
      await ring.write(dst as unknown as GPUBuffer, 0, x);
      expect(Array.from(new Uint32Array(dst.data.buffer))).toEqual(Array.from(x));
    }
    ring.destroy();
  });

  it('a first readback slot brings the other three, unmapped; destroy() stops the making', async () => {
    const { device, submit, made } = fakeDevice();
    const ring = new StagingRing(device, submit, CHUNK);
    const src = device.createBuffer({ size: 8 * CHUNK, usage: 4 }) as unknown as FakeBuffer;
    const x = Uint32Array.from({ length: (8 * CHUNK) / 4 }, (_, i) => i * 3 + 1);
    src.data.set(new Uint8Array(x.buffer));
    const out = new Uint32Array(CHUNK / 4);
    await ring.read([{ buffer: src as unknown as GPUBuffer, word: 0, count: CHUNK / 4, out, at: 0 }]);
    await settle();
    const slots = made.filter((b) => b.label === 'staging down');
    expect(slots.length).toBe(4);
    expect(slots.every((b) => !b.mapped)).toBe(true);
    const all = new Uint32Array(x.length);
    await ring.read([{ buffer: src as unknown as GPUBuffer, word: 0, count: x.length, out: all, at: 0 }]);
    expect(Array.from(all)).toEqual(Array.from(x));
    ring.destroy();
    expect(ring.bytes).toBe(0);

    const late = new StagingRing(device, submit, CHUNK);
    await late.read([{ buffer: src as unknown as GPUBuffer, word: 0, count: 4, out: new Uint32Array(4), at: 0 }]);
    late.destroy();
    await settle();
    expect(late.bytes).toBe(0);
  });

  it('where slots are made as needed (a browser), warm one-chunk reads reuse one readback slot', async () => {
    const { device, submit, made } = fakeDevice();
    const ring = new StagingRing(device, submit, CHUNK, false);
    const src = device.createBuffer({ size: 2 * CHUNK, usage: 4 }) as unknown as FakeBuffer;
    const x = Uint32Array.from({ length: (2 * CHUNK) / 4 }, (_, i) => i * 5 + 2);
    src.data.set(new Uint8Array(x.buffer));
    for (let call = 0; call < 3; call++) {
      const out = new Uint32Array(CHUNK / 4);
      await ring.read([{ buffer: src as unknown as GPUBuffer, word: 0, count: CHUNK / 4, out, at: 0 }]);
      expect(Array.from(out)).toEqual(Array.from(x.subarray(0, CHUNK / 4)));
    }
    await settle();
    expect(made.filter((b) => b.label === 'staging down').length).toBe(1);
    // A two-chunk read makes the second slot it needs, once.
    for (let call = 0; call < 2; call++) {
      const all = new Uint32Array(x.length);
      await ring.read([{ buffer: src as unknown as GPUBuffer, word: 0, count: x.length, out: all, at: 0 }]);
      expect(Array.from(all)).toEqual(Array.from(x));
    }
    expect(made.filter((b) => b.label === 'staging down').length).toBe(2);
    ring.destroy();
  });

  it('prepare() makes the slots of the directions asked for before any transfer (only where slots are made ahead), and transfers then land', async () => {
    const { device, submit, made } = fakeDevice();
    const ring = new StagingRing(device, submit, CHUNK);
    ring.prepare(true, false);
    await settle();
    expect(made.filter((b) => b.label === 'staging up').length).toBe(4);
    expect(made.filter((b) => b.label === 'staging down').length).toBe(0); // not asked for
    ring.prepare(true, true);
    await settle();
    expect(made.filter((b) => b.label === 'staging down').length).toBe(4);
    ring.prepare(true, true); // made already: nothing more
    await settle();
    expect(ring.bytes).toBe(8 * CHUNK);
    const dst = device.createBuffer({ size: 2 * CHUNK, usage: 8 }) as unknown as FakeBuffer;
    const x = Uint32Array.from({ length: (2 * CHUNK) / 4 }, (_, i) => i * 7 + 3);
    await ring.write(dst as unknown as GPUBuffer, 0, x);
    const back = new Uint32Array(x.length);
    await ring.read([{ buffer: dst as unknown as GPUBuffer, word: 0, count: x.length, out: back, at: 0 }]);
    expect(Array.from(back)).toEqual(Array.from(x));
    expect(made.filter((b) => b.label.startsWith('staging')).length).toBe(8);
    ring.destroy();

    const page = new StagingRing(device, submit, CHUNK, false); // a browser's ring: one slot at a time
    page.prepare(true, true);
    await settle();
    expect(page.bytes).toBe(0);
  });
});
