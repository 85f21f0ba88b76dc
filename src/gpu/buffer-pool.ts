/**
 * Buffer pool. Buffers are bucketed by usage and by size: up to 1 MiB rounded up to a power
 * of two, above it to an eighth of the next power of two (at most 12.5% waste instead of 2x,
 * and still few distinct sizes), so repeated jobs allocate nothing. Why not powers of two
 * throughout: under the MSM's 100 MB budget at 2^20, a 12 MiB walker buffer rounded to 16 MiB
 * was what held the walker at half the threads it could have. `bytesHeld` counts every live buffer, in use or free: it
 * is the number a memory budget (e.g. "<= 100 MB at 2^20") is checked against.
 * @module
 */

const MIN_BYTES = 256;
/** Above this, sizes round to eighths of the next power of two. */
const FINE_ABOVE = 2 ** 20;

export interface PoolStats {
  bytesHeld: number;
  bytesInUse: number;
  /** The most bytes in use at once since the prover was made (what a job's peak GPU memory is read from). */
  peakBytesInUse: number;
  buffers: number;
}

export class BufferPool {
  private free = new Map<string, GPUBuffer[]>();
  private sizes = new Map<GPUBuffer, { key: string; size: number }>();
  private inUse = new Set<GPUBuffer>();
  private held = 0;
  private inUseBytes = 0;
  private peak = 0;

  constructor(private readonly device: GPUDevice) {}

  static bucketSize(bytes: number): number {
    const pow2 = Math.max(MIN_BYTES, 2 ** Math.ceil(Math.log2(Math.max(bytes, 1))));
    if (pow2 <= FINE_ABOVE) return pow2;
    const step = pow2 / 8;
    return Math.ceil(bytes / step) * step;
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
    this.inUseBytes += this.sizes.get(buf)!.size;
    this.peak = Math.max(this.peak, this.inUseBytes);
    return buf;
  }

  /** Return a buffer from acquire(); it may be handed out again at once. */
  release(buf: GPUBuffer): void {
    const meta = this.sizes.get(buf);
    if (!meta || !this.inUse.delete(buf)) throw new Error('BufferPool.release: buffer not in use from this pool');
    this.inUseBytes -= meta.size;
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
    return { bytesHeld: this.held, bytesInUse: this.inUseBytes, peakBytesInUse: this.peak, buffers: this.sizes.size };
  }

  destroy(): void {
    for (const buf of this.sizes.keys()) buf.destroy();
    this.free.clear();
    this.sizes.clear();
    this.inUse.clear();
    this.held = 0;
    this.inUseBytes = 0;
  }
}
