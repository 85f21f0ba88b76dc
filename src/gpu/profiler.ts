/**
 * Per-pass GPU time. With `timestamp-query` each compute pass writes begin/end timestamps
 * into a query set that is resolved in the same command buffer; without it (Safari, Firefox
 * today, or when the feature is absent) only the wall time of the whole submission is known,
 * and each pass reports null.
 *
 *   const prof = new Profiler(device, timestamps, 8);
 *   const pass = prof.beginPass(encoder, 'leaves'); ...; pass.end();
 *   prof.resolve(encoder); const t0 = performance.now(); device.queue.submit([encoder.finish()]);
 *   const report = await prof.read(t0);
 * @module
 */

export interface PassTime {
  label: string;
  /** GPU time of the pass in ms, or null without timestamp-query. */
  ms: number | null;
}

export interface ProfileReport {
  passes: PassTime[];
  /** Sum of pass times (timestamps) or null. */
  gpuMs: number | null;
  /** Submit to onSubmittedWorkDone, in ms. */
  wallMs: number;
  source: 'timestamp-query' | 'wall-clock';
}

export class Profiler {
  private labels: string[] = [];
  private querySet: GPUQuerySet | null = null;
  private resolveBuf: GPUBuffer | null = null;
  private readBuf: GPUBuffer | null = null;

  constructor(
    private readonly device: GPUDevice,
    timestamps: boolean,
    private readonly maxPasses = 32,
  ) {
    if (timestamps) {
      this.querySet = device.createQuerySet({ type: 'timestamp', count: 2 * maxPasses });
      const bytes = 2 * maxPasses * 8;
      this.resolveBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
      this.readBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    }
  }

  beginPass(encoder: GPUCommandEncoder, label: string): GPUComputePassEncoder {
    return encoder.beginComputePass({ label, timestampWrites: this.timestampWrites(label) });
  }

  /**
   * Register a pass and return its timestamp writes (undefined without timestamp-query), for
   * code that opens the compute pass itself (e.g. nttToGpu).
   */
  timestampWrites(label: string): GPUComputePassTimestampWrites | undefined {
    const i = this.labels.length;
    this.labels.push(label);
    if (!this.querySet || i >= this.maxPasses) return undefined;
    return { querySet: this.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 };
  }

  /** Record the query resolution; call after the last pass, before encoder.finish(). */
  resolve(encoder: GPUCommandEncoder): void {
    if (!this.querySet || this.labels.length === 0) return;
    const n = Math.min(this.labels.length, this.maxPasses) * 2;
    encoder.resolveQuerySet(this.querySet, 0, n, this.resolveBuf!, 0);
    encoder.copyBufferToBuffer(this.resolveBuf!, 0, this.readBuf!, 0, n * 8);
  }

  /** Wait for the submission that started at `submittedAt` (performance.now()) and report. */
  async read(submittedAt: number): Promise<ProfileReport> {
    await this.device.queue.onSubmittedWorkDone();
    const wallMs = performance.now() - submittedAt;
    if (!this.querySet || this.labels.length === 0) {
      return { passes: this.labels.map((label) => ({ label, ms: null })), gpuMs: null, wallMs, source: 'wall-clock' };
    }
    await this.readBuf!.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.readBuf!.getMappedRange().slice(0));
    this.readBuf!.unmap();
    const passes = this.labels.map((label, i) => ({
      label,
      ms: i < this.maxPasses ? Math.max(0, Number(t[2 * i + 1] - t[2 * i])) / 1e6 : null,
    }));
    // Some drivers reset or reorder timestamps across passes: a negative span is reported as 0.
    const gpuMs = passes.reduce((s, p) => s + (p.ms ?? 0), 0);
    return { passes, gpuMs, wallMs, source: 'timestamp-query' };
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuf?.destroy();
    this.readBuf?.destroy();
  }
}
