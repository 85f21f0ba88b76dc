/**
 * The WHIR sumcheck's two tables on the GPU: `GpuSumcheckEngine` implements `SumcheckEngine`
 * (engine.ts) with wgsl/kernels/whir_sumcheck.wgsl, and is checked against `CpuSumcheckEngine`
 * value for value (bench/support/whir-engine-check.ts).
 *
 * The tables stay in GPU buffers between calls: the base-field input canonical and read in place
 * (the commitment's own upload when it kept one: a `GpuTable`), everything after the first bind
 * in Montgomery form. Each call is one job on the context (ctx.run: error scopes, one at a time
 * with the prover's other jobs) and one command submission; a round message reads back 8 words, an evaluation 4. A bind is fused with the
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
import { extFromMontyWords, WS_PARTS_BYTES, WsBatch, wsPipelines, type WsPipelines } from '../kernels/whir-sumcheck.js';
import {
  CpuSumcheckEngine,
  hostValues,
  type EqClaim,
  type SelectClaim,
  type SumcheckEngine,
  type SumcheckEngineFactory,
} from './engine.js';
import { efAdd, efMul, type EfVec, type Ext4 } from './ext.js';
import { claimTables, evalTables, type ClaimTables } from './gpu-tables.js';
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
  return async (table) => {
    const m = Math.log2(table.length);
    if (!Number.isInteger(m))
      throw new ProverError('INVALID_LENGTH', `the sumcheck table has ${table.length} values; it needs a power of two`);
    if (m <= cpuMaxVars) return new CpuSumcheckEngine(await hostValues(table));
    const limit = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    if (gpuEngineBytes(m) > limit) {
      throw new ProverError(
        'TOO_LARGE',
        `a WHIR sumcheck over 2^${m} values needs ${gpuEngineBytes(m)}-byte GPU buffers; this device binds at most ${limit} bytes (2^${Math.floor(Math.log2(limit / 16))} values). Use fewer variables or a device with a larger maxStorageBufferBindingSize.`,
      );
    }
    const pipes = await wsPipelines(ctx);
    // A table the commit left on this device is read in place; one from the host (or from a
    // device since lost and rebuilt) is uploaded through the staging ring.
    const kept = !(table instanceof Uint32Array) && table.owner === ctx ? table : null;
    const host = kept ? null : await hostValues(table);
    return ctx.run(async () => {
      const base = kept ? { buffer: kept.buffer, owned: false } : { buffer: await ctx.uploadAsync(host!, 'whir evals'), owned: true };
      return new GpuSumcheckEngine(ctx, pipes, m, cpuMaxVars, base);
    });
  };
}

export class GpuSumcheckEngine implements SumcheckEngine {
  private m: number;
  private claimed: Ext4 = [0, 0, 0, 0];
  /**
   * The input while no variable is bound: canonical base values packed 4 to a vec4 (the kernels
   * convert to Montgomery as they read, so a table the commitment keeps is never written).
   * `owned`: the engine uploaded it and frees it at the first bind.
   */
  private base: { buffer: GPUBuffer; owned: boolean } | null;
  /** Evaluations after the first bind, extension elements in Montgomery form. */
  private e: GPUBuffer | null = null;
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
  constructor(
    private readonly ctx: GpuContext,
    private readonly pipes: WsPipelines,
    m: number,
    private readonly cpuMaxVars: number,
    base: { buffer: GPUBuffer; owned: boolean },
  ) {
    this.m = m;
    this.base = base;
    const pool = ctx.pool;
    this.w = pool.acquire(gpuEngineBytes(this.m), storageUsage(), 'whir weights');
    this.parts = pool.acquire(WS_PARTS_BYTES, storageUsage(), 'whir partials');
    const batch = this.batch('whir engine setup');
    batch.encoder.clearBuffer(this.w, 0, gpuEngineBytes(this.m));
    void batch.submit();
  }

  /** The evaluation table the kernels read now: the base input, or the bound extension table. */
  private get evalsIn(): GPUBuffer {
    return this.base ? this.base.buffer : this.e!;
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
      const batch = this.batch('whir evaluate');
      const uploaded = await this.recordTables(batch, tables);
      try {
        batch.pass(
          this.base ? 'ws_eval_base' : 'ws_eval_ext',
          { n: 2 ** this.m, ...tables.params },
          { eIn: this.evalsIn, tabs: uploaded.tabs, parts: this.parts },
        );
        this.messageReady = false;
        return extFromMontyWords((await batch.submit({ buffer: this.parts, words: 4 }))!)[0];
      } finally {
        uploaded.release();
      }
    });
  }

  async addClaims(eq: EqClaim[], select: SelectClaim[]): Promise<void> {
    if (this.cpu) return this.cpu.addClaims(eq, select);
    for (const c of [...eq, ...select]) this.claimed = efAdd(this.claimed, efMul(c.coeff, c.value));
    if (eq.length + select.length === 0) return;
    const tables = claimTables(this.m, eq, select);
    await this.job(async () => {
      const batch = this.batch('whir add claims');
      const uploaded = await this.recordTables(batch, tables);
      try {
        batch.pass('ws_add_claims', { n: 2 ** this.m, ...tables.params }, { wOut: this.w!, tabs: uploaded.tabs });
        this.messageReady = false;
        await batch.submit();
      } finally {
        uploaded.release();
      }
    });
  }

  async roundMessage(): Promise<RoundMessage> {
    if (this.cpu) return this.cpu.roundMessage();
    if (this.m < 1) throw new RangeError('roundMessage: no variable left to bind');
    return this.job(async () => {
      const batch = this.batch('whir round message');
      if (!this.messageReady) {
        batch.pass(
          this.base ? 'ws_round_base' : 'ws_round_ext',
          { n: 2 ** (this.m - 1) },
          { eIn: this.evalsIn, wIn: this.w!, parts: this.parts },
        );
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
      batch.pass(
        this.base ? 'ws_bind_base' : 'ws_bind_ext',
        { n: half, r },
        { eIn: this.evalsIn, wIn: this.w!, eOut, wOut, parts: this.parts },
      );
      // The packed base table is never an output (its bucket is a quarter of the extension one's):
      // free it if it is ours (a kept table belongs to the commitment).
      if (this.base?.owned) freed.push(this.base.buffer);
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
    const base = this.base;
    if (base) {
      const n = 2 ** this.m;
      const [values] = await this.job(() => this.ctx.readRanges([{ buffer: base.buffer, word: 0, count: n }]));
      const lifted = new Uint32Array(4 * n);
      for (let i = 0; i < n; i++) lifted[4 * i] = values[i];
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

  /** Upload `tables` and record the pass that builds their eq region from the claims' points; release after the submit. */
  private async recordTables(batch: WsBatch, tables: ClaimTables): Promise<{ tabs: GPUBuffer; release(): void }> {
    const ctx = this.ctx;
    const tabs = await ctx.uploadAsync(tables.words, 'whir claim tables');
    const held = [tabs];
    try {
      const { nEq = 0, loBits = 0, vars = 0 } = tables.params;
      if (nEq > 0) {
        const points = ctx.upload(tables.eqPoints, 'whir eq points');
        held.push(points);
        batch.pass('ws_eq_tabs', { n: nEq * (2 ** (vars - loBits) + 2 ** loBits), ...tables.params }, { tabs: points, eOut: tabs });
      }
    } catch (e) {
      for (const b of held) ctx.pool.release(b);
      throw e;
    }
    return {
      tabs,
      release: () => {
        for (const b of held) ctx.pool.release(b);
      },
    };
  }

  private releaseBuffers(): void {
    const pool = this.ctx.pool;
    for (const b of [this.e, this.w, this.eSpare, this.wSpare, this.base?.owned ? this.base.buffer : null]) if (b) pool.release(b);
    this.e = this.w = this.eSpare = this.wSpare = this.base = null;
  }

  private batch(label: string): WsBatch {
    return new WsBatch(this.ctx, this.pipes, label);
  }

  private job<T>(f: () => Promise<T>): Promise<T> {
    if (this.disposed) throw new ProverError('DESTROYED', 'this sumcheck engine was disposed');
    return this.ctx.run(f);
  }
}
