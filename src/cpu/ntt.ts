/**
 * The CPU path of the NTT methods: src/ref/ntt.ts column by column (a boundary after each), and
 * CpuMatrix, the `{ gpu: true }` handle of this path (the values kept in the prover's memory).
 * An input NttMatrix of the GPU path is read back first.
 * @module
 */
import { isNttMatrix } from '../api/is-ntt-matrix.js';
import { ProverError } from '../errors.js';
import * as ref from '../ref/ntt.js';
import { jobField, outputHeight, type NttOp, type NttJob } from '../kernels/ntt/job.js';
import type { FieldName } from '../params/fields.js';
import { requireNttSpec, type NttLdeOptions, type NttMatrix, type NttMethods } from '../api/ntt.js';
import { requireOptions } from '../validate.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import type { Scheduler } from '../sched/scheduler.js';
import { cpuSteps } from './queue.js';
import type { CpuEnv } from './env.js';

/** An NttMatrix of the CPU path: its values, row-major. */
export class CpuMatrix implements NttMatrix {
  private values: Uint32Array | undefined;
  constructor(
    private readonly sched: Scheduler,
    values: Uint32Array,
    readonly height: number,
    readonly width: number,
    readonly field: FieldName,
  ) {
    this.values = values;
  }

  /** The values, not copied (the CPU path's own reads). */
  peek(): Uint32Array {
    if (!this.values) throw new ProverError('DESTROYED', 'this NttMatrix was destroyed; run the NTT again for a new one');
    return this.values;
  }

  async read(job?: JobOptions): Promise<Uint32Array> {
    const jobOpts = requireJobOptions('read job options', job);
    const v = this.peek();
    return this.sched.run('NttMatrix.read', jobOpts, async () => v.slice());
  }

  destroy(): void {
    this.values = undefined;
  }
}

/** The values of any NttMatrix (this path's, or one the GPU path made, read back). */
export async function matrixValues(m: NttMatrix): Promise<Uint32Array> {
  return m instanceof CpuMatrix ? m.peek() : m.read();
}

/** Column `c` of a row-major h × w matrix. */
function column(v: Uint32Array, h: number, w: number, c: number): Uint32Array {
  const out = new Uint32Array(h);
  for (let i = 0; i < h; i++) out[i] = v[i * w + c];
  return out;
}

/** One column through the reference transform of `spec`, over its field. */
function transformColumn(spec: NttJob, col: Uint32Array): Uint32Array {
  const F = jobField(spec);
  switch (spec.op) {
    case 'dft':
      return ref.dft(col, 1, F);
    case 'idft':
      return ref.idft(col, 1, F);
    case 'lde':
      return ref.cosetLde(col, 1, spec.addedBits!, spec.shift!, F);
    case 'encode':
      return ref.encode(col, 1, spec.addedBits!, F);
  }
}

/** The result of `spec` on `values`, column by column with a boundary after each. */
export async function cpuNtt(spec: NttJob, values: Uint32Array, step: (stage: string) => Promise<void>): Promise<Uint32Array> {
  const { height: h, width: w } = spec;
  const outH = outputHeight(spec);
  const out = new Uint32Array(outH * w);
  const bits = ref.log2Exact(outH);
  for (let c = 0; c < w; c++) {
    const col = transformColumn(spec, column(values, h, w, c));
    for (let i = 0; i < outH; i++) out[(spec.bitReversed ? ref.reverseBits(i, bits) : i) * w + c] = col[i];
    await step(`ntt ${spec.op}`);
  }
  return out;
}

export function cpuNttMethods({ sched, alive }: CpuEnv): NttMethods {
  async function run(op: NttOp, given: unknown, options: unknown): Promise<NttMatrix | Uint32Array> {
    alive();
    const opts = requireOptions<NttLdeOptions>(`${op} options`, options, false);
    const matrix = isNttMatrix(given) ? given : undefined;
    const { spec, values, out: into } = requireNttSpec(op, given, opts, matrix);
    return sched.run(op, requireJobOptions(`${op} options`, opts), async (job) => {
      const input = values ?? (await matrixValues(matrix!));
      const out = await cpuNtt(spec, input, cpuSteps(job));
      if (into) {
        into.set(out);
        return into;
      }
      return opts.gpu ? new CpuMatrix(sched, out, outputHeight(spec), spec.width, jobField(spec).name) : out;
    });
  }
  return {
    dft: (values, opts) => run('dft', values, opts) as never,
    idft: (values, opts) => run('idft', values, opts) as never,
    lde: (values, opts) => run('lde', values, opts) as never,
    encode: (values, opts) => run('encode', values, opts) as never,
  };
}

export { isNttMatrix };
