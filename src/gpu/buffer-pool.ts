/**
 * Buffer pool. Buffers are bucketed by usage and by size rounded up to a power of two (at
 * most 2x waste, and a 2^20-element job reuses the 2^20 buffers of the previous one), so
 * repeated jobs allocate nothing. `bytesHeld` counts every live buffer, in use or free: it
 * is the number a memory budget (e.g. "<= 100 MB at 2^20") is checked against.
 * @module
 */

const MIN_BYTES = 256;

export interface PoolStats {
  bytesHeld: number;
  bytesInUse: number;
  buffers: number;
}

export class BufferPool {
  private free = new Map<string, GPUBuffer[]>();
  private sizes = new Map<GPUBuffer, { key: string; size: number }>();
  private inUse = new Set<GPUBuffer>();
  private held = 0;

  constructor(private readonly device: GPUDevice) {}

  static bucketSize(bytes: number): number {
    return Math.max(MIN_BYTES, 2 ** Math.ceil(Math.log2(Math.max(bytes, 1))));
  }

  /** A buffer of at least `bytes` bytes with exactly `usage`; its contents are undefined. */
  acquire(bytes: number, usage: GPUBufferUsageFlags, label = 'pool'): GPUBuffer {
    const size = BufferPool.bucketSize(bytes);
    const key = `${usage}:${size}`;
    let buf = this.free.get(key)?.pop();
    if (!buf) {
      buf = this.device.createBuffer({ size, usage, label: `${label} ${size}B` });
      this.sizes.set(buf, { key, size });
      this.held += size;
    }
    this.inUse.add(buf);
    return buf;
  }

  /** Return a buffer from acquire(); it may be handed out again at once. */
  release(buf: GPUBuffer): void {
    const meta = this.sizes.get(buf);
    if (!meta || !this.inUse.delete(buf)) throw new Error('BufferPool.release: buffer not in use from this pool');
    const list = this.free.get(meta.key) ?? [];
    list.push(buf);
    this.free.set(meta.key, list);
  }

  /** Destroy every free buffer (after a large job, to give memory back). */
  trim(): void {
    for (const list of this.free.values()) {
      for (const buf of list) {
        this.held -= this.sizes.get(buf)!.size;
        this.sizes.delete(buf);
        buf.destroy();
      }
    }
    this.free.clear();
  }

  stats(): PoolStats {
    let inUse = 0;
    for (const b of this.inUse) inUse += this.sizes.get(b)!.size;
    return { bytesHeld: this.held, bytesInUse: inUse, buffers: this.sizes.size };
  }

  destroy(): void {
    for (const buf of this.sizes.keys()) buf.destroy();
    this.free.clear();
    this.sizes.clear();
    this.inUse.clear();
    this.held = 0;
  }
}
