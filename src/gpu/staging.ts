/**
 * The staging ring: host-visible buffers reused across calls for moving large arrays on and off
 * the GPU at memory speed. `queue.writeBuffer` and a fresh mapped result per call moved ~1 GB/s
 * on the H100's host; a mapped buffer that is reused moves 5-7 GB/s (bench/RESULTS.md, transfer).
 * Uploads copy straight into a mapped slot, unmap it, copy it on the GPU into the destination,
 * and map it again behind that copy while the next slot fills; readbacks copy chunks into slots
 * ahead of the one being copied out, straight into the caller's array (no intermediate slice).
 * SLOTS slots of CHUNK_BYTES (or the constructor's size) each way: in Node all of a direction's
 * once a transfer first needs it (the first at once, the others just after: warm()), so a prover
 * that moves large arrays holds 4 x 16 MiB of host-visible memory each way; in a browser one at a
 * time as transfers need them (a page's memory is scarcer, a phone's most). destroy() frees them.
 * @module
 */

/** A slot's size: 16 MiB, where the probe's steady state peaked (4-64 MB rows). */
export const CHUNK_BYTES = 16 << 20;
/** GPU work recorded on an uploaded chunk: words [at, at + count) of the source are in `dst` (from its start). */
export type AfterChunk = (enc: GPUCommandEncoder, dst: GPUBuffer, at: number, count: number) => void;

/** Slots per direction: enough for one chunk filling, one copying and one mapping back. */
const SLOTS = 4;
/** Transfers below this go through writeBuffer / one pooled readback: a ring round trip does not pay. */
export const RING_MIN_BYTES = 1 << 20;

interface Slot {
  buf: GPUBuffer;
  /** Upload slots: mapped for writing once this settles. Readback slots: idle once this settles. */
  ready: Promise<unknown>;
}

/** Where `count` words go: `out` from word `at`. */
export interface ReadTarget {
  buffer: GPUBuffer;
  word: number;
  count: number;
  out: Uint32Array;
  at: number;
}

export class StagingRing {
  private readonly up: Slot[] = [];
  private readonly down: Slot[] = [];
  private nextUp = 0;
  private nextDown = 0;
  private destroyed = false;

  /** Words a slot holds: an upload's chunks start at multiples of it. */
  readonly chunkWords: number;

  /**
   * `submit` is the context's own (a job boundary: an aborted job stops there); `chunkBytes` a
   * multiple of 256 (tests use small ones); `ahead`: make a direction's other slots right after its
   * first (warm()), else one at a time as transfers need them.
   */
  constructor(
    private readonly device: GPUDevice,
    private readonly submit: (enc: GPUCommandEncoder, stage: string) => void,
    private readonly chunkBytes = CHUNK_BYTES,
    private readonly ahead = true,
  ) {
    this.chunkWords = chunkBytes / 4;
  }

  /** Host bytes the ring holds. */
  get bytes(): number {
    return (this.up.length + this.down.length) * this.chunkBytes;
  }

  /**
   * Make the slots of the directions asked for now, in the background (where slots are made ahead:
   * Node), for a first call that will move large arrays: made as its transfers first need them,
   * they cost a first lde or poseidon2 call ~40 ms of the thread between its compiles and its result.
   */
  prepare(up: boolean, down: boolean): void {
    if (!this.ahead || this.destroyed) return;
    if (up && this.up.length === 0) void this.warm(this.up, true);
    if (down && this.down.length === 0) void this.warm(this.down, false);
  }

  private slot(list: Slot[], next: number, upload: boolean): Slot {
    if (list.length < SLOTS && next >= list.length) {
      list.push(this.makeSlot(upload));
      if (list.length === 1 && this.ahead) void this.warm(list, upload);
    }
    return list[next % list.length];
  }

  private makeSlot(upload: boolean): Slot {
    const usage = upload ? GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC : GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST;
    const buf = this.device.createBuffer({
      size: this.chunkBytes,
      usage,
      mappedAtCreation: upload,
      label: upload ? 'staging up' : 'staging down',
    });
    return { buf, ready: Promise.resolve() };
  }

  /**
   * After a direction's first slot: make its other slots, one per macrotask, and touch their
   * pages. A new 16 MiB slot's first use cost ~15-20 ms more than its later ones on the H100's
   * host (page faults on mapped memory): paid inside the first job large enough to need it (a new
   * size: bench/RESULTS.md, cold) unless made here, where the first call mostly waits for its
   * pipelines to compile. Every slot so made is used by the next transfer of SLOTS chunks.
   */
  private async warm(list: Slot[], upload: boolean): Promise<void> {
    while (list.length < SLOTS) {
      await new Promise((r) => setTimeout(r, 0));
      if (this.destroyed || list.length >= SLOTS) return;
      const slot = this.makeSlot(upload);
      list.push(slot);
      // Touched, then mapped again (a mapped range may be handed out once: write() takes its own).
      if (upload) {
        new Uint8Array(slot.buf.getMappedRange()).fill(0);
        slot.buf.unmap();
        slot.ready = slot.buf.mapAsync(GPUMapMode.WRITE);
      } else {
        slot.ready = slot.buf.mapAsync(GPUMapMode.READ).then(() => {
          const bytes = new Uint8Array(slot.buf.getMappedRange());
          let x = 0;
          for (let i = 0; i < bytes.length; i += 4096) x |= bytes[i];
          slot.buf.unmap();
          return x;
        });
      }
      slot.ready.catch(() => this.forget(list, slot));
    }
  }

  /**
   * Copy `src` into `dst` from byte `dstOffset`, a chunk at a time through mapped upload slots.
   * `afterChunk` records GPU work on each chunk into the copy's own submission (words
   * [at, at + count) of `src` have landed), so the GPU works on chunk k while the host fills k+1.
   */
  async write(dst: GPUBuffer, dstOffset: number, src: Uint32Array, afterChunk?: AfterChunk): Promise<void> {
    for (let at = 0; at < src.length; at += this.chunkWords) {
      const n = Math.min(this.chunkWords, src.length - at);
      const slot = this.slot(this.up, this.nextUp, true);
      this.nextUp = (this.nextUp + 1) % SLOTS;
      await slot.ready;
      new Uint32Array(slot.buf.getMappedRange(0, n * 4)).set(src.subarray(at, at + n));
      slot.buf.unmap();
      const enc = this.device.createCommandEncoder({ label: 'staging upload' });
      enc.copyBufferToBuffer(slot.buf, 0, dst, dstOffset + at * 4, n * 4);
      try {
        afterChunk?.(enc, dst, at, n);
        this.submit(enc, 'upload');
      } finally {
        // Mapped again once the GPU has copied it (also after an abort: the slot stays usable).
        slot.ready = slot.buf.mapAsync(GPUMapMode.WRITE);
        slot.ready.catch(() => this.forget(this.up, slot));
      }
    }
  }

  /** Copy every target's words into its `out`, chunks copied on the GPU ahead of the one being read. */
  async read(targets: readonly ReadTarget[]): Promise<void> {
    const chunks: { t: ReadTarget; from: number; n: number }[] = [];
    for (const t of targets)
      for (let k = 0; k < t.count; k += this.chunkWords) chunks.push({ t, from: k, n: Math.min(this.chunkWords, t.count - k) });
    const inFlight: { slot: Slot; c: (typeof chunks)[number]; release: () => void }[] = [];
    let next = 0;
    // Every read ends with its slots free, so each starts at slot 0: a read of k chunks uses (and, the
    // first time, makes) k slots, and warm one-chunk reads reuse one instead of making one each.
    this.nextDown = 0;
    const issue = async () => {
      const c = chunks[next++];
      const slot = this.slot(this.down, this.nextDown, false);
      this.nextDown = (this.nextDown + 1) % SLOTS;
      await slot.ready;
      let release!: () => void;
      slot.ready = new Promise<void>((r) => (release = r));
      inFlight.push({ slot, c, release });
      const enc = this.device.createCommandEncoder({ label: 'staging readback' });
      enc.copyBufferToBuffer(c.t.buffer, (c.t.word + c.from) * 4, slot.buf, 0, c.n * 4);
      this.submit(enc, 'readback');
    };
    try {
      while (next < chunks.length && inFlight.length < SLOTS - 1) await issue();
      while (inFlight.length > 0) {
        const { slot, c, release } = inFlight[0];
        try {
          await slot.buf.mapAsync(GPUMapMode.READ, 0, c.n * 4);
        } catch (e) {
          this.forget(this.down, slot);
          throw e;
        }
        c.t.out.set(new Uint32Array(slot.buf.getMappedRange(0, c.n * 4)), c.t.at + c.from);
        slot.buf.unmap();
        inFlight.shift();
        release();
        if (next < chunks.length) await issue();
      }
    } finally {
      // A job stopped midway (an abort at a boundary, a lost device) leaves its slots idle.
      for (const f of inFlight) f.release();
    }
  }

  /** Drop a slot whose mapping failed (a lost device, an abort mid-map): a new one is made when needed. */
  private forget(list: Slot[], slot: Slot): void {
    const i = list.indexOf(slot);
    if (i >= 0) list.splice(i, 1);
    slot.buf.destroy();
  }

  destroy(): void {
    this.destroyed = true;
    for (const s of [...this.up, ...this.down]) s.buf.destroy();
    this.up.length = 0;
    this.down.length = 0;
  }
}
