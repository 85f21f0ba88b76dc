/**
 * The KoalaBear rows of `npm run bench -- ntt`: the same kernels with KoalaBear's constants and
 * tables, timed against BabyBear on the same input at KoalaBear's largest sizes (2^24 output
 * rows: dft 2^24, lde and encode 2^23 -> 2^24; smaller when NTT_LOGS stops below 24), alternating
 * the two fields rep by rep so clock drift hits both alike. Inputs below BabyBear's p are
 * canonical in both fields. Before timing, each KoalaBear job's output is spot-checked at two
 * entries per job against its definition (src/checks/ntt-entry.ts, KoalaBear arithmetic).
 * Rows: { bench: 'ntt-koalabear', op, logN, width, babybearMs, koalabearMs, ratio, spotCheck }.
 * @module
 */
import type { GpuContext } from '../src/gpu/context.js';
import type { NttJob } from '../src/kernels/ntt/job.js';
import { outputHeight } from '../src/kernels/ntt/job.js';
import { runNtt } from '../src/kernels/ntt/record.js';
import { nttEntry } from '../src/checks/ntt-entry.js';
import { KOALA_BEAR } from '../src/params/koalabear.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { NTT_BATCH, profiledRun, type Op } from './ntt-timing.js';

/** Two entries of `got` (the job's output) against their definition; null when both agree. */
function spotCheck(job: NttJob, x: Uint32Array, got: Uint32Array): string | null {
  const n = outputHeight(job),
    w = job.width;
  for (const [row, c] of [
    [n / 2 + 3, w - 1],
    [n - 1, 0],
  ]) {
    const want = nttEntry(job, x, row, c);
    if (got[row * w + c] !== want) return `row ${row} column ${c}: ${got[row * w + c]}, expected ${want}`;
  }
  return null;
}

/**
 * KoalaBear vs BabyBear resident time (NTT_BATCH jobs per timestamp span, median of `reps`) for
 * dft, lde (shift: the field's generator) and encode with one added bit at output 2^maxLog rows.
 */
export async function koalaBearRows(ctx: GpuContext, maxLog: number, widths: number[], reps = 10): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const rng = new SplitMix64(0x4b42);
  const top = Math.min(maxLog, KOALA_BEAR.twoAdicity);
  for (const w of widths) {
    const x = rng.fieldArray(2 ** top * w); // < BabyBear's p < KoalaBear's: canonical in both
    const input = ctx.upload(x, 'bench koalabear input');
    try {
      for (const op of ['dft', 'lde', 'encode'] as Op[]) {
        const logN = op === 'dft' ? top : top - 1;
        const base = { op, height: 2 ** logN, width: w, ...(op === 'dft' ? {} : { addedBits: 1 }) };
        const bb: NttJob = { ...base, ...(op === 'lde' ? { shift: 31 } : {}) };
        const kb: NttJob = { ...base, ...(op === 'lde' ? { shift: KOALA_BEAR.generator } : {}), field: 'koalabear' };
        const xs = x.subarray(0, 2 ** logN * w);
        const spot = spotCheck(kb, xs, await ctx.run(() => runNtt(ctx, kb, xs)));
        const ms: Record<'bb' | 'kb', number[]> = { bb: [], kb: [] };
        for (let r = -2; r < reps; r++) {
          // two warm-up reps of each (pipelines, tables, clocks), then alternate
          for (const [k, job] of [
            ['bb', bb],
            ['kb', kb],
          ] as const) {
            const rep = await profiledRun(ctx, job, {}, input, false);
            if (r >= 0) ms[k].push(rep.gpuMs ?? rep.wallMs);
          }
        }
        const [b, k] = [median(ms.bb), median(ms.kb)];
        rows.push({
          bench: 'ntt-koalabear',
          op,
          logN,
          width: w,
          outRows: outputHeight(kb),
          babybearMs: +b.toFixed(4),
          koalabearMs: +k.toFixed(4),
          ratio: +(k / b).toFixed(3),
          batch: NTT_BATCH,
          spotCheck: spot ?? 'ok',
        });
      }
    } finally {
      ctx.pool.release(input);
    }
  }
  return rows;
}
