/**
 * The WHIR sumcheck's two tables on the GPU: `GpuSumcheckEngine` implements `SumcheckEngine`
 * (engine.ts) with wgsl/kernels/whir_sumcheck.wgsl, and is checked against `CpuSumcheckEngine`
 * value for value (test/gpu/whir-engine-check.ts).
 *
 * The tables stay in GPU buffers (Montgomery form) between calls. Each call is one job on the
 * context (ctx.run: error scopes, one at a time with the prover's other jobs) and one command
 * submission; a round message reads back 8 words, an evaluation 4. A bind is fused with the
 * next round's message (fold, then measure, as p3 does): the following `roundMessage` only
 * maps the 8 words the bind's submission already reduced. `evals()` reads the table back (for
 * the round commits and the final polynomial).
 *
 * Small tables cost more in submissions and readbacks than in arithmetic, so tables of at most
 * 2^cpuMaxVars elements run on the CPU: the factory returns a `CpuSumcheckEngine` for a small
 * input, and a bind that brings the tables down to that size reads both back once and hands
 * them to one (see GPU_ENGINE_CPU_MAX_VARS for the measured crossover).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { storageUsage } from '../gpu/context.js';
import { ProverError } from '../errors.js';
import {
  extFromMontyWords, WS_PARTS_BYTES, WsBatch, wsPipelines, type WsPipelines,
} from '../kernels/whir-sumcheck.js';
import { CpuSumcheckEngine, type EqClaim, type SelectClaim, type SumcheckEngine, type SumcheckEngineFactory } from './engine.js';
import { efAdd, efMul, type EfVec, type Ext4 } from './ext.js';
import { claimTables, evalTables } from './gpu-tables.js';
import { nextSum, SumcheckState, type RoundMessage } from './sumcheck.js';

/**
 * Tables of at most 2^10 elements run on the CPU. What is measured: one CPU round (roundMessage +
 * bind on extension tables) costs 1.1 ms at 2^8, 3.6 ms at 2^10, 13 ms at 2^12, 54 ms at 2^14 in
 * Node on the 2-core dev machine; a GPU round is one submission and an 8-word map. That round
 * trip has NOT been measured on a real GPU yet (bench/whir-engine.ts's `whir-engine-round` rows
 * do it); if it is well under 1 ms, as Dawn on a discrete GPU usually is, the crossover is nearer
 * 2^7-2^8 and this should come down. 10 is the conservative choice for browsers, whose map round
 * trip can reach a few ms.
 */
export const GPU_ENGINE_CPU_MAX_VARS = 10;

export interface GpuEngineOptions {
  /** Tables of at most 2^cpuMaxVars elements run on the CPU (default GPU_ENGINE_CPU_MAX_VARS; -1: never). */
  cpuMaxVars?: number;
}

/** The largest table the engine allocates: the weights, 16 bytes a value. */
export function gpuEngineBytes(numVariables: number): number {
  return 16 * 2 ** numVariables;
}

/** The GPU engine on `ctx` (small tables on the CPU, see GpuEngineOptions). */
export function gpuSumcheckEngine(ctx: GpuContext, options: GpuEngineOptions = {}): SumcheckEngineFactory {
  const cpuMaxVars = options.cpuMaxVars ?? GPU_ENGINE_CPU_MAX_VARS;
  return async (evals) => {
    const m = Math.log2(evals.length);
    if (!Number.isInteger(m)) throw new ProverError('INVALID_LENGTH', `the sumcheck table has ${evals.length} values; it needs a power of two`);
    if (m <= cpuMaxVars) return new CpuSumcheckEngine(evals);
    const limit = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    if (gpuEngineBytes(m) > limit) {
      throw new ProverError('TOO_LARGE', `a WHIR sumcheck over 2^${m} values needs ${gpuEngineBytes(m)}-byte GPU buffers; this device binds at most ${limit} bytes (2^${Math.floor(Math.log2(limit / 16))} values). Use fewer variables or a device with a larger maxStorageBufferBindingSize.`);
    }
    const pipes = await wsPipelines(ctx);
    return ctx.run(async () => {
      // Through the staging ring (5-7 GB/s on the H100/H200, where writeBuffer moves ~1).
      const e = await ctx.uploadAsync(evals, 'whir evals');
      return new GpuSumcheckEngine(ctx, pipes, evals, cpuMaxVars, e);
    });
  };
}

export class GpuSumcheckEngine implements SumcheckEngine {
  private m: number;
  private claimed: Ext4 = [0, 0, 0, 0];
  /** The input, kept (not copied) while no variable is bound: evals() lifts it without a readback. */
  private base: Uint32Array | null;
  /** Evaluations: the input packed 4 to a vec4 while `base`, extension elements after. */
  private e: GPUBuffer | null;
  private w: GPUBuffer | null;
  /** The previous bind's inputs, reused as the next bind's outputs (both tables halve per bind). */
  private eSpare: GPUBuffer | null = null;
  private wSpare: GPUBuffer | null = null;
  private readonly parts: GPUBuffer;
  /** parts[0..2) hold this round's [h(0), h(∞)] (Montgomery): set by a bind or a round pass, cleared by claims and evaluations. */
  private messageReady = false;
  /** Set when the tables were handed to the CPU. */
  private cpu: CpuSumcheckEngine | null = null;
  private disposed = false;

  /** Use gpuSumcheckEngine(ctx) (it checks limits and compiles the pipelines); called inside ctx.run. */
  constructor(private readonly ctx: GpuContext, private readonly pipes: WsPipelines, evals: Uint32Array, private readonly cpuMaxVars: number, uploaded?: GPUBuffer) {
    this.m = Math.log2(evals.length);
    this.base = evals;
    const pool = ctx.pool;
    if (uploaded && uploaded.size >= Math.max(16, 4 * evals.length)) {
      this.e = uploaded;
    } else {
      if (uploaded) pool.release(uploaded);
      this.e = pool.acquire(Math.max(16, 4 * evals.length), storageUsage(), 'whir evals');
      ctx.device.queue.writeBuffer(this.e, 0, evals.buffer, evals.byteOffset, evals.byteLength);
    }
    this.w = pool.acquire(gpuEngineBytes(this.m), storageUsage(), 'whir weights');
    this.parts = pool.acquire(WS_PARTS_BYTES, storageUsage(), 'whir partials');
    const batch = this.batch('whir engine setup');
    batch.encoder.clearBuffer(this.w, 0, gpuEngineBytes(this.m));
    batch.pass('ws_to_monty', { n: Math.ceil(evals.length / 4) }, { eOut: this.e });
    void batch.submit();
  }

  get numVariables(): number {
    return this.cpu ? this.cpu.numVariables : this.m;
  }

  get sum(): Ext4 {
    return this.cpu ? this.cpu.sum : this.claimed;
  }

  async evaluate(point: Ext4[]): Promise<Ext4> {
    if (this.cpu) return this.cpu.evaluate(point);
    if (point.length !== this.m) throw new RangeError(`evaluate: point has ${point.length} coordinates, the table ${this.m} variables`);
    const tables = evalTables(point);
    return this.job(async () => {
      const tabs = this.ctx.upload(tables.words, 'whir eval tables');
      try {
        const batch = this.batch('whir evaluate');
        batch.pass(this.base ? 'ws_eval_base' : 'ws_eval_ext', { n: 2 ** this.m, ...tables.params }, { eIn: this.e!, tabs, parts: this.parts });
        this.messageReady = false;
        return extFromMontyWords((await batch.submit({ buffer: this.parts, words: 4 }))!)[0];
      } finally {
        this.ctx.pool.release(tabs);
      }
    });
  }

  async addClaims(eq: EqClaim[], select: SelectClaim[]): Promise<void> {
    if (this.cpu) return this.cpu.addClaims(eq, select);
    for (const c of [...eq, ...select]) this.claimed = efAdd(this.claimed, efMul(c.coeff, c.value));
    if (eq.length + select.length === 0) return;
    const tables = claimTables(this.m, eq, select);
    await this.job(async () => {
      const tabs = tables.words.byteLength >= 1 << 20 ? await this.ctx.uploadAsync(tables.words, 'whir claim tables') : this.ctx.upload(tables.words, 'whir claim tables');
      try {
        const batch = this.batch('whir add claims');
        batch.pass('ws_add_claims', { n: 2 ** this.m, ...tables.params }, { wOut: this.w!, tabs });
        this.messageReady = false;
        await batch.submit();
      } finally {
        this.ctx.pool.release(tabs);
      }
    });
  }

  async roundMessage(): Promise<RoundMessage> {
    if (this.cpu) return this.cpu.roundMessage();
    if (this.m < 1) throw new RangeError('roundMessage: no variable left to bind');
    return this.job(async () => {
      const batch = this.batch('whir round message');
      if (!this.messageReady) {
        batch.pass(this.base ? 'ws_round_base' : 'ws_round_ext', { n: 2 ** (this.m - 1) }, { eIn: this.e!, wIn: this.w!, parts: this.parts });
      }
      const [h0, hInf] = extFromMontyWords((await batch.submit({ buffer: this.parts, words: 8 }))!);
      this.messageReady = true;
      return [h0, hInf];
    });
  }

  async bind(message: RoundMessage, r: Ext4): Promise<void> {
    if (this.cpu) return this.cpu.bind(message, r);
    if (this.m < 1) throw new RangeError('bind: no variable left to bind');
    const sum = nextSum(this.claimed, message, r);
    const half = 2 ** (this.m - 1);
    await this.job(async () => {
      const pool = this.ctx.pool;
      // Buffers this bind stops using go back to the pool only after its submission: a pooled
      // buffer handed out again before it could take a writeBuffer that lands ahead of our passes.
      const freed: GPUBuffer[] = [];
      const eOut = this.eSpare && this.eSpare.size >= 16 * half ? this.eSpare : pool.acquire(16 * half, storageUsage(), 'whir evals');
      const wOut = this.wSpare ?? pool.acquire(16 * half, storageUsage(), 'whir weights');
      if (eOut !== this.eSpare && this.eSpare) freed.push(this.eSpare);
      const batch = this.batch('whir bind');
      batch.pass(this.base ? 'ws_bind_base' : 'ws_bind_ext', { n: half, r }, { eIn: this.e!, wIn: this.w!, eOut, wOut, parts: this.parts });
      // The packed base table is never an output (its bucket is a quarter of the extension one's): free it.
      if (this.base) freed.push(this.e!);
      this.eSpare = this.base ? null : this.e;
      this.wSpare = this.w;
      this.e = eOut;
      this.w = wOut;
      this.base = null;
      this.m -= 1;
      this.claimed = sum;
      this.messageReady = this.m >= 1;
      try {
        if (this.m > this.cpuMaxVars) {
          await batch.submit();
          return;
        }
        // Small enough for the CPU: read both tables back after the bind and hand them over.
        const [evals, weights] = await this.readTables(batch);
        this.cpu = new CpuSumcheckEngine(new SumcheckState({ ext: evals }, weights, sum));
        this.releaseBuffers();
      } finally {
        for (const b of freed) pool.release(b);
      }
    });
  }

  async evals(): Promise<EfVec> {
    if (this.cpu) return this.cpu.evals();
    if (this.base) {
      const lifted = new Uint32Array(4 * this.base.length);
      for (let i = 0; i < this.base.length; i++) lifted[4 * i] = this.base[i];
      return lifted;
    }
    return this.job(async () => (await this.readTables(this.batch('whir evals'), false))[0]);
  }

  /**
   * Record into `encoder` the conversion of the evaluations to a canonical row-major buffer
   * (4 words per element), the layout encodeToGpu takes: a round commit without a readback
   * (gpu-commit.ts). Null while the tables are on the CPU or still base-field (the prover commits
   * only after a bind). Call inside a job; `release` after submitting `encoder`.
   */
  recordCanonicalEvals(encoder: GPUCommandEncoder): { buffer: GPUBuffer; words: number; release(): void } | null {
    if (this.cpu || this.base || this.disposed) return null;
    const n = 2 ** this.m;
    const buffer = this.ctx.pool.acquire(16 * n, storageUsage(), 'whir evals canonical');
    const batch = new WsBatch(this.ctx, this.pipes, 'whir evals to commit', encoder);
    batch.pass('ws_from_monty', { n }, { eIn: this.e!, eOut: buffer });
    let held = true;
    return {
      buffer,
      words: 4 * n,
      release: () => {
        batch.done();
        if (held) this.ctx.pool.release(buffer);
        held = false;
      },
    };
  }

  /** Whether the tables are (still) in GPU buffers. */
  get onGpu(): boolean {
    return !this.cpu && !this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cpu?.dispose();
    if (!this.cpu) this.releaseBuffers();
    this.ctx.pool.release(this.parts);
  }

  /** Canonical copies of the evaluations (and the weights), converted on the GPU into scratch buffers, after `batch`'s passes. */
  private async readTables(batch: WsBatch, withWeights = true): Promise<EfVec[]> {
    const n = 2 ** this.m;
    const pool = this.ctx.pool;
    const scratch = [pool.acquire(16 * n, storageUsage(), 'whir readback')];
    try {
      batch.pass('ws_from_monty', { n }, { eIn: this.e!, eOut: scratch[0] });
      if (withWeights) {
        scratch.push(pool.acquire(16 * n, storageUsage(), 'whir readback'));
        batch.pass('ws_from_monty', { n }, { eIn: this.w!, eOut: scratch[1] });
      }
      await batch.submit();
      return this.ctx.readRanges(scratch.map((buffer) => ({ buffer, word: 0, count: 4 * n })));
    } finally {
      for (const s of scratch) pool.release(s);
    }
  }

  private releaseBuffers(): void {
    const pool = this.ctx.pool;
    for (const b of [this.e, this.w, this.eSpare, this.wSpare]) if (b) pool.release(b);
    this.e = this.w = this.eSpare = this.wSpare = null;
  }

  private batch(label: string): WsBatch {
    return new WsBatch(this.ctx, this.pipes, label);
  }

  private job<T>(f: () => Promise<T>): Promise<T> {
    if (this.disposed) throw new ProverError('DESTROYED', 'this sumcheck engine was disposed');
    return this.ctx.run(f);
  }
}
