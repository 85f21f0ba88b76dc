/**
 * Groth16's polynomial stage on the GPU, as src/ref/groth16-h.ts defines it (groth16H), bit for
 * bit. A stage is made once per zkey (upload: the coefficients grouped by constraint, ./csr.ts; the
 * root table; every buffer, uniform and bind group) and run once per witness (h): one command
 * submission of
 *   fr_qap (mode 0)   A, B (Montgomery form: a stored coefficient v·R² times a normal-form witness value), C = A∘B
 *   3 x (intt with 1/N on its first pass and ω_{2N}^j on its last, then ntt)   A, B, C on the coset
 *   fr_qap (mode 1)   h = A·B − C out of Montgomery form, written over C
 * and one readback. With P NTT passes per transform (3 at 2^20), that is 6P + 2 compute passes.
 * Its methods record and submit without queueing: the caller holds the device's queue (a job of
 * the scheduler, or GpuContext.run in checks and benches), as for every kernel.
 *
 * The multiplies bound it, not memory: a 2^20 NTT's ~12 M products take ~0.85 ms at the rate of the
 * 13-bit-limb product (fr_mul13), its 3 passes x 64 MiB of traffic ~0.05 ms (bench/RESULTS.md, groth16).
 * @module
 */
import { ProverError } from '../../errors.js';
import { storageUsage, type GpuContext } from '../../gpu/context.js';
import { grid2d } from '../../gpu/dispatch.js';
import { Profiler, type ProfileReport } from '../../gpu/profiler.js';
import type { QapCoefficients } from '../../field/qap-coefficients.js';
import { buildQapCsr, qapMemory, type QapMemory } from './csr.js';
import { planFrNtt, type FrNttPlan } from './ntt-plan.js';
import { frInverseScale, frNttLimits, frNttSteps, recordFrNtt, requireCanonicalFr, type FrNttSteps } from './ntt.js';
import { frRootTable } from './tables.js';
import { QAP_BINDINGS, QAP_WG, qapStagePipelines, qapStageReady } from './pipelines.js';
import type { Speed } from '../../gpu/pipeline-cache.js';

interface Step {
  label: string;
  bindGroup: GPUBindGroup;
  grid: [number, number];
}

/** A run's pipelines: fr_qap (evaluations and h), NTT pass (fast or quick: qapStagePipelines). */
type StagePipelines = GPUComputePipeline[];

export class QapStage {
  private constructor(
    private readonly ctx: GpuContext,
    readonly domainSize: number,
    readonly nVars: number,
    readonly plan: FrNttPlan,
    readonly memory: QapMemory,
    /** buffers this stage owns (destroyed with it; the root table is the context's) */
    private readonly owned: GPUBuffer[],
    private readonly witness: GPUBuffer,
    private readonly result: GPUBuffer,
    private readonly evalStep: Step,
    private readonly transforms: FrNttSteps[],
    private readonly final: Step,
  ) {}

  /**
   * Upload a zkey's coefficients for a domain of `domainSize` = 2^k points (k ≥ 1) and witnesses
   * of `nVars` values. Throws INVALID_ARGUMENT / NON_CANONICAL for bad records, TOO_LARGE where a
   * buffer exceeds one storage binding (N values, or 32 B a record: 4 M records at WebGPU's default
   * 128 MiB).
   */
  static async upload(ctx: GpuContext, coeffs: QapCoefficients, domainSize: number, nVars: number): Promise<QapStage> {
    const logN = Math.log2(domainSize);
    if (!Number.isInteger(logN)) throw new ProverError('INVALID_LENGTH', `domainSize must be a power of two, got ${domainSize}`);
    if (!Number.isSafeInteger(nVars) || nVars < 1)
      throw new ProverError('INVALID_ARGUMENT', `nVars must be a positive integer, got ${nVars}`);
    const limits = frNttLimits(ctx);
    const plan = planFrNtt(logN, limits);
    const csr = buildQapCsr(coeffs, domainSize, nVars);
    for (const [what, bytes] of [
      ['coefficient values', csr.values.byteLength],
      ['witness', nVars * 32],
    ] as const) {
      if (bytes > limits.maxBinding) {
        throw new ProverError(
          'TOO_LARGE',
          `the QAP's ${what} take ${bytes} B, more than one storage binding on this device (${limits.maxBinding} B)`,
        );
      }
    }
    return (async () => {
      const roots = await frRootTable(ctx, logN);
      const owned: GPUBuffer[] = [];
      const make = (bytes: number, label: string, usage = storageUsage()) => {
        // At least one value: an empty key or an all-empty row set still binds something.
        const b = ctx.device.createBuffer({ size: Math.max(bytes, 32), usage, label });
        owned.push(b);
        return b;
      };
      // Through ctx.uploadAsync into our own buffers, one after another (they share the staging
      // ring): the ring in Node (5-6 GB/s on the H100's host against ~1.2 for writeBuffer: 2^24's
      // 1.5 GB of records), writeBuffer in a page.
      const put = (data: Uint32Array, label: string) => ctx.uploadAsync(data, label, undefined, make(data.byteLength, label));
      try {
        const rowPtr = await put(csr.rowPtr, 'qap row offsets');
        const signals = await put(csr.signals, 'qap signals');
        const values = await put(csr.values, 'qap values');
        const witness = make(nVars * 32, 'qap witness');
        const [a, b, c, scratch] = ['qap A', 'qap B', 'qap C', 'qap scratch'].map((l) => make(plan.bytes, l));
        const grid = grid2d(domainSize, QAP_WG, ctx.limits.maxComputeWorkgroupsPerDimension);
        // fr_qap's two steps, by their params' mode (0 evaluations, 1 h), on the fast or the quick pipeline.
        const step = (mode: number, label: string): Step => {
          const params = ctx.constantBuffer(new Uint32Array([domainSize, mode, 0, 0]), GPUBufferUsage.UNIFORM, `${label} params`);
          owned.push(params);
          const bindGroup = ctx.device.createBindGroup({
            label,
            layout: ctx.pipelines.layout(QAP_BINDINGS),
            entries: [rowPtr, signals, values, witness, a, b, c, params].map((buffer, binding) => ({ binding, resource: { buffer } })),
          });
          return { label, bindGroup, grid };
        };
        const evalStep = step(0, 'qap eval');
        const final = step(1, 'qap h');
        const table = { buffer: roots, tLog: logN };
        const inverse = { inverse: true, coset: true, scale: frInverseScale(logN) };
        const transforms: FrNttSteps[] = [];
        for (const [buf, name] of [
          [a, 'A'],
          [b, 'B'],
          [c, 'C'],
        ] as const) {
          const inv = frNttSteps(ctx, plan, inverse, table, buf, scratch, `qap ${name} intt`);
          // The intt's result is where it landed; the ntt goes from there and, 2P passes in all, ends in `buf`.
          const other = inv.out === buf ? scratch : buf;
          const fwd = frNttSteps(ctx, plan, { inverse: false }, table, inv.out, other, `qap ${name} ntt`);
          if (fwd.out !== buf) throw new Error('qap: the coset transform must end in its own buffer');
          owned.push(...inv.uniforms, ...fwd.uniforms);
          transforms.push(inv, fwd);
        }
        const memory = qapMemory(domainSize, coeffs.count, nVars);
        return new QapStage(ctx, domainSize, nVars, plan, memory, owned, witness, c, evalStep, transforms, final);
      } catch (e) {
        for (const b of owned) b.destroy();
        throw e;
      }
    })();
  }

  /** Record the whole stage into `enc`. */
  private record(
    enc: GPUCommandEncoder,
    [qapPipe, nttPipe]: StagePipelines,
    timestamps?: (label: string) => GPUComputePassTimestampWrites | undefined,
  ): void {
    const one = (s: Step, pipeline: GPUComputePipeline) => {
      const pass = enc.beginComputePass({ label: s.label, timestampWrites: timestamps?.(s.label) });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, s.bindGroup);
      pass.dispatchWorkgroups(...s.grid);
      pass.end();
    };
    one(this.evalStep, qapPipe);
    for (const t of this.transforms) recordFrNtt(this.ctx, enc, nttPipe, this.plan, t.steps, timestamps);
    one(this.final, qapPipe);
  }

  private check(witness: Uint32Array): void {
    if (witness.length !== 8 * this.nVars) {
      throw new ProverError(
        'INVALID_LENGTH',
        `the witness must hold nVars = ${this.nVars} values of 8 words (${8 * this.nVars}), got ${witness.length} words`,
      );
    }
    requireCanonicalFr(witness, 'witness');
  }

  /** Whether h() would run at once: its pipelines are compiled. */
  ready(): boolean {
    return qapStageReady(this.ctx.pipelines, this.plan);
  }

  /**
   * h for one witness (nVars values, 8 LE words each, normal form): domainSize values, normal form.
   * `only`: the fast or the quick pipelines (checks run each); by default the fast ones once compiled.
   */
  async h(witness: Uint32Array, only?: Speed): Promise<Uint32Array> {
    return (await this.run(witness, false, only)).h;
  }

  /** h with each compute pass's GPU time (timestamp-query where the device has it, else wall time only), on the fast pipelines. */
  async hProfiled(witness: Uint32Array): Promise<{ h: Uint32Array; profile: ProfileReport }> {
    const { h, profile } = await this.run(witness, true, 'fast');
    return { h, profile: profile! };
  }

  private async run(witness: Uint32Array, profile: boolean, only?: Speed): Promise<{ h: Uint32Array; profile?: ProfileReport }> {
    this.check(witness);
    const ctx = this.ctx;
    return (async () => {
      const [{ speed, pipelines: pipes }] = await Promise.all([
        qapStagePipelines(ctx.pipelines, this.plan, only),
        ctx.uploadAsync(witness, 'qap witness', undefined, this.witness),
      ]);
      ctx.engineRuns[`qap ${speed}`] = (ctx.engineRuns[`qap ${speed}`] ?? 0) + 1;
      const enc = ctx.device.createCommandEncoder({ label: 'qap h' });
      if (!profile) {
        this.record(enc, pipes);
        return { h: await ctx.submitAndRead(enc, 'qap h', this.result, 8 * this.domainSize) };
      }
      const prof = new Profiler(ctx.device, ctx.features.timestamps, 6 * this.plan.passes.length + 2);
      try {
        this.record(enc, pipes, (label) => prof.timestampWrites(label));
        prof.resolve(enc);
        const t0 = performance.now();
        ctx.submit(enc, 'qap h');
        const report = await prof.read(t0);
        return { h: await ctx.readback(this.result, 8 * this.domainSize), profile: report };
      } finally {
        prof.destroy();
      }
    })();
  }

  /**
   * GPU time of one stage from `reps` stages recorded back to back in one submission, between one
   * timestamp before the first and one after the last (null without timestamp-query): the H200 keeps
   * short, gappy work at 360-600 MHz, and a long batch both reaches its boost clock and averages
   * Dawn's 65.5 us timestamp tick away. For benchmarks; the result (h) is left on the GPU.
   */
  async timeBatch(witness: Uint32Array, reps: number): Promise<{ gpuMs: number | null; wallMs: number }> {
    this.check(witness);
    const ctx = this.ctx;
    return (async () => {
      const [{ pipelines: pipes }] = await Promise.all([
        qapStagePipelines(ctx.pipelines, this.plan, 'fast'),
        ctx.uploadAsync(witness, 'qap witness', undefined, this.witness),
      ]);
      const prof = new Profiler(ctx.device, ctx.features.timestamps, 1);
      try {
        const tw = prof.timestampWrites(`qap h x${reps}`);
        const enc = ctx.device.createCommandEncoder({ label: `qap h x${reps}` });
        for (let i = 0; i < reps; i++) {
          // Dawn rejects timestampWrites with neither index: only the first and the last pass get one.
          this.record(enc, pipes, (label) =>
            !tw
              ? undefined
              : i === 0 && label === this.evalStep.label
                ? { querySet: tw.querySet, beginningOfPassWriteIndex: tw.beginningOfPassWriteIndex }
                : i === reps - 1 && label === this.final.label
                  ? { querySet: tw.querySet, endOfPassWriteIndex: tw.endOfPassWriteIndex }
                  : undefined,
          );
        }
        prof.resolve(enc);
        const t0 = performance.now();
        ctx.submit(enc, 'qap h batch');
        const report = await prof.read(t0);
        const span = report.passes[0]?.ms;
        return { gpuMs: span == null ? null : span / reps, wallMs: report.wallMs / reps };
      } finally {
        prof.destroy();
      }
    })();
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
  }
}
