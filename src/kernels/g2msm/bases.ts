/**
 * G2Bases: the G2 points of an MSM (a zkey's B2 points), uploaded once as the zkey stores them and
 * checked on the GPU (every coordinate below q, every point on the twist or the identity), then
 * any number of `msm(scalars)` over them.
 *
 * GPU memory at n = 2^20 points (plan.ts: c = 16, 16 windows, 8 a batch): the bases 128 MiB
 * (the zkey's 128 bytes a point, read as they are: no conversion, no copy on the host), and during
 * an msm the scalars 32 MiB, their half-planes 32 MiB, a batch's entries 32 MiB and buckets
 * 48 MiB, the accumulation's slots 61 MiB and the reduction's pairs 18 MiB: 225 MiB, 370 MB in
 * all (G2MsmPlan.runBytes; `entryBudget: 1 << 22` halves the batch's share for ~10% more time).
 * Its speed by scalar mix is in bench/RESULTS.md (groth16). The bases' binding limits n to maxStorageBufferBindingSize / 128 (2^20 points at WebGPU's default
 * 128 MiB).
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { ProverError } from '../../errors.js';
import { G2_NO_KEY } from '../../params/bn254-g2.js';
import { G2_POINT_WORDS, SCALAR_WORDS, scanScalars } from '../../field/g2-words.js';
import { G2_BYTES, G2_PREP_WG, PREP_PARAMS } from './layout.js';
import { G2_CHECK_PIPELINE, PREP_B, g2PipelinesReady } from './pipelines.js';
import { chooseC, g2MsmPlan, type G2MsmPlan, type G2PlanOptions } from './plan.js';
import { runG2Msm } from './run.js';
import type { Speed } from '../../gpu/pipeline-cache.js';
import { dispatch1d } from '../../gpu/dispatch.js';
import type { G2Point } from './fold.js';
import { bn254 } from '@noble/curves/bn254.js';

/** The bases' check: the first point off the twist and the first with a coordinate >= q, or -1. */
export interface G2BasesCheck {
  readonly bad: number;
  readonly big: number;
}

export class G2Bases {
  private buffer: GPUBuffer | undefined;
  private readonly plans = new Map<string, G2MsmPlan>();
  /** The plan of the last msm() that ran (window size, batches, bytes): for checks and benchmarks. */
  lastPlan: G2MsmPlan | undefined;

  private constructor(
    private readonly ctx: GpuContext,
    buffer: GPUBuffer,
    readonly n: number,
    readonly check: G2BasesCheck,
  ) {
    this.buffer = buffer;
  }

  /**
   * Upload points [0, n) of `points` (32 words each, a zkey's layout) and check them on the GPU.
   * A bad point does not throw here: `check` names it, and msm() refuses to run over it.
   * @throws ProverError INVALID_LENGTH (too few words), TOO_LARGE (past the device's binding size)
   */
  static async upload(ctx: GpuContext, points: Uint32Array, n: number = points.length / G2_POINT_WORDS): Promise<G2Bases> {
    if (!Number.isInteger(n) || n < 0 || points.length < G2_POINT_WORDS * n) {
      throw new ProverError('INVALID_LENGTH', `G2 bases: ${n} points need ${G2_POINT_WORDS * n} words, got ${points.length}`);
    }
    const bytes = G2_BYTES.affine * n;
    if (bytes > ctx.limits.maxStorageBufferBindingSize) {
      throw new ProverError(
        'TOO_LARGE',
        `G2 bases: ${n} points take ${bytes} bytes, past this device's ${ctx.limits.maxStorageBufferBindingSize}`,
      );
    }
    const pipe = await ctx.pipelines.all([G2_CHECK_PIPELINE]);
    const buffer = await ctx.uploadAsync(points.subarray(0, G2_POINT_WORDS * n), 'g2 bases');
    try {
      const flags = await (async () => {
        const f = ctx.upload(new Uint32Array([G2_NO_KEY, G2_NO_KEY]), 'g2 check flags');
        const prm = ctx.uploadUniform(PREP_PARAMS.pack({ n, base0: 0 }), 'g2 check params');
        try {
          const enc = ctx.device.createCommandEncoder({ label: 'g2 check' });
          if (n > 0) {
            const pass = enc.beginComputePass();
            pass.setPipeline(pipe[0]);
            pass.setBindGroup(
              0,
              ctx.device.createBindGroup({
                layout: ctx.pipelines.layout(PREP_B),
                entries: [buffer, f, prm].map((b, binding) => ({ binding, resource: { buffer: b } })),
              }),
            );
            dispatch1d(pass, ctx.device, n, G2_PREP_WG);
            pass.end();
          }
          return await ctx.submitAndRead(enc, 'g2 check', f, 2);
        } finally {
          ctx.pool.release(f);
          ctx.pool.release(prm);
        }
      })();
      const idx = (w: number) => (w === G2_NO_KEY ? -1 : w);
      return new G2Bases(ctx, buffer, n, Object.freeze({ bad: idx(flags[0]), big: idx(flags[1]) }));
    } catch (e) {
      ctx.pool.release(buffer);
      throw e;
    }
  }

  /**
   * The plan of an msm over the first `count` points with window size `c` (cached by both; with
   * more options than c, made anew).
   */
  plan(count: number, opts: G2PlanOptions = {}): G2MsmPlan {
    if (Object.keys(opts).some((k) => k !== 'c')) return g2MsmPlan(count, opts);
    const c = opts.c ?? chooseC(count);
    const key = `${count},${c}`;
    let p = this.plans.get(key);
    if (!p) this.plans.set(key, (p = g2MsmPlan(count, { c })));
    return p;
  }

  /**
   * sum_{i < count} scalars[i]·points[i] as a noble G2 point (count: every point by default; fewer
   * scalars than points use a prefix of the points). `opts` overrides the plan, `only` the
   * pipelines' choice (checks).
   * @throws ProverError NOT_ON_CURVE / NON_CANONICAL for bad bases (by index), NON_CANONICAL for a scalar >= r, INVALID_LENGTH
   */
  async msm(
    scalars: Uint32Array,
    count: number = Math.min(this.n, Math.floor(scalars.length / SCALAR_WORDS)),
    opts?: G2PlanOptions,
    only?: Speed,
  ): Promise<G2Point> {
    if (!this.buffer) throw new ProverError('DESTROYED', 'G2Bases: destroyed');
    if (this.check.big >= 0) throw new ProverError('NON_CANONICAL', `G2 point ${this.check.big} has a coordinate >= q`);
    if (this.check.bad >= 0) throw new ProverError('NOT_ON_CURVE', `G2 point ${this.check.bad} is not on the curve`);
    if (!Number.isInteger(count) || count < 0 || count > this.n || SCALAR_WORDS * count > scalars.length) {
      throw new ProverError('INVALID_LENGTH', `G2 msm: ${count} scalars (${scalars.length} words) over ${this.n} points`);
    }
    const scan = scanScalars(scalars, count);
    if (scan.firstBad >= 0) throw new ProverError('NON_CANONICAL', `G2 msm: scalar ${scan.firstBad} is >= r`);
    if (count === 0) return bn254.G2.Point.ZERO;
    // The window size from the scalars' bit lengths: a witness's zeros and ones make few entries.
    const plan = this.plan(count, { c: chooseC(count, scan.bits, opts?.entryBudget), ...opts });
    this.lastPlan = plan;
    return runG2Msm(this.ctx, this.buffer, scalars, plan, only);
  }

  /** Whether an msm() would run at once: the bucket method's or the quick MSM's pipelines are compiled. */
  ready(): boolean {
    return g2PipelinesReady(this.ctx.pipelines);
  }

  destroy(): void {
    if (this.buffer) this.ctx.pool.release(this.buffer);
    this.buffer = undefined;
  }
}
