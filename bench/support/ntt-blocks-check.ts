/**
 * GPU checks of NTT jobs past one storage binding, with the binding limit lowered to a few
 * thousand values so that SwiftShader in CI runs every path on small sizes:
 *   - column blocks (runNttColumnBlocks): each op on shapes with several blocks and a short last;
 *   - one column past the limit: four-step pieces (src/kernels/ntt/long.ts) with the twists on the
 *     GPU, for each op, bit-reversed rows, a zero padding shorter than a four-step row and an lde
 *     whose idft is itself a four-step;
 *   - the API on a context whose limits say so: a GPU-resident result held in row blocks, read
 *     back, and used as the input of the next job.
 * Every output is compared with src/ref.
 * @module
 */
import { Scheduler } from '../../src/sched/scheduler.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { nttMethods } from '../../src/api/ntt.js';
import { runNttColumnBlocks } from '../../src/kernels/ntt/blocks.js';
import { columnsPerBlock } from '../../src/kernels/ntt/plan.js';
import { outputHeight, type NttJob } from '../../src/kernels/ntt/job.js';
import * as ref from '../../src/ref/ntt.js';
import { refNtt } from './ntt-spec-ref.js';
import { SplitMix64 } from './splitmix.js';
import { refJobs, same, type NttCheckRow } from './ntt-check.js';

/** `ctx` as a device whose storage bindings hold only `words` values (everything else shared). */
export function withBindingLimit(ctx: GpuContext, words: number): GpuContext {
  const limits = new Proxy(ctx.limits, { get: (t, k) => (k === 'maxStorageBufferBindingSize' ? words * 4 : Reflect.get(t, k)) });
  return Object.create(ctx, { limits: { value: limits } }) as GpuContext;
}

function row(step: string, bad: string[], n: number, t0: number, ok: string): NttCheckRow {
  return { step, ok: bad.length === 0, n, ms: performance.now() - t0, detail: bad.length === 0 ? ok : bad.join('; ') };
}

/**
 * Jobs larger than one binding, in column blocks (runNttColumnBlocks) with the binding limit
 * lowered to `maxWords`: each of dft, idft, lde and encode on shapes [log h, width] against
 * src/ref, with at least two blocks and a short last block.
 */
export async function checkNttColumnBlocks(
  ctx: GpuContext,
  shapes: Array<[number, number]>,
  maxWords: number,
  seed = 0xb10c,
): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  let n = 0;
  for (const [logH, width] of shapes) {
    const x = rng.fieldArray(2 ** logH * width);
    for (const [spec, want] of refJobs(x, logH, width)) {
      const cols = columnsPerBlock(width, outputHeight(spec), maxWords);
      if (cols >= width || width % cols === 0)
        bad.push(`${spec.op} 2^${logH}x${width}: ${cols} columns a block is not several blocks with a short last one`);
      const got = await ctx.run(() => runNttColumnBlocks(ctx, spec, x, maxWords));
      if (!same(got, want)) bad.push(`${spec.op} 2^${logH}x${width} in blocks of ${cols} columns != src/ref`);
      n++;
    }
  }
  return row('ntt column blocks', bad, n, t0, `${n} jobs in column blocks (limit ${maxWords} values) equal src/ref`);
}

/**
 * Columns whose output exceeds `maxWords` values (four-step pieces): every op at 2^(log2 maxWords + 1)
 * output rows and more, against src/ref. `maxWords` must be at least 2^6 (the pieces' columns).
 */
export async function checkNttLongColumns(ctx: GpuContext, maxWords: number, seed = 0x10c0): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const m = maxWords;
  const specs: NttJob[] = [
    { op: 'dft', height: 2 * m, width: 1 },
    { op: 'dft', height: 2 * m, width: 2, bitReversed: true },
    { op: 'idft', height: 4 * m, width: 1 },
    { op: 'encode', height: m / 2, width: 1, addedBits: 2 },
    { op: 'encode', height: 4, width: 1, addedBits: Math.log2(m) - 1, bitReversed: true }, // padding shorter than a four-step row
    { op: 'lde', height: m, width: 1, addedBits: 1, shift: 31 },
    { op: 'lde', height: 2 * m, width: 1, addedBits: 1, shift: 7, bitReversed: true }, // its idft is a four-step too
  ];
  const bad: string[] = [];
  for (const spec of specs) {
    const x = rng.fieldArray(spec.height * spec.width);
    const got = await ctx.run(() => runNttColumnBlocks(ctx, spec, x, maxWords));
    const tag = `${spec.op} ${spec.height}x${spec.width} -> ${outputHeight(spec)}${spec.bitReversed ? ' bit-reversed' : ''}`;
    if (!same(got, refNtt(spec, x))) bad.push(`${tag} != src/ref`);
  }
  return row(
    'ntt long columns',
    bad,
    specs.length,
    t0,
    `${specs.length} jobs with columns past ${maxWords} values (four-step pieces) equal src/ref`,
  );
}

/**
 * The API on `ctx` with its binding limit lowered to `maxWords`: an lde past the limit kept on the
 * GPU (held in row blocks), read back, then the input of an idft (the blocked path from a
 * GPU-resident input) whose result is the lde's coefficients; and a wide dft past it returned as a
 * Uint32Array. Each against src/ref.
 */
export async function checkNttApiBlocks(ctx: GpuContext, maxWords: number, seed = 0xa91): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const limited = withBindingLimit(ctx, maxWords);
  const api = nttMethods({ ctx: limited, sched: new Scheduler(limited), alive: () => {} });
  const bad: string[] = [];
  const h = maxWords;
  const x = rng.fieldArray(h);
  const lde = await api.lde(x, { width: 1, addedBits: 2, shift: 31, gpu: true });
  try {
    if (lde.height !== 4 * h || lde.width !== 1) bad.push(`lde handle is ${lde.height}x${lde.width}`);
    if (!same(await lde.read(), ref.cosetLde(x, 1, 2, 31))) bad.push('GPU-resident lde past one binding != src/ref');
    const back = await api.idft(lde, { width: 1 });
    if (!same(back, ref.idft(ref.cosetLde(x, 1, 2, 31), 1))) bad.push('idft of a row-blocked NttMatrix != src/ref');
  } finally {
    lde.destroy();
  }
  const wide = rng.fieldArray((maxWords / 4) * 12);
  if (!same(await api.dft(wide, { width: 12 }), ref.dft(wide, 12))) bad.push('dft 12 columns past one binding != src/ref');
  return row(
    'ntt api past one binding',
    bad,
    3,
    t0,
    `lde -> NttMatrix in row blocks -> read and idft, and a wide dft, with bindings of ${maxWords} values, equal src/ref`,
  );
}
