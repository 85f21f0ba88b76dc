/**
 * The NTT bench's job shapes and timing (bench/ntt.ts): the job of an op at a size, a timed run
 * (timestamp span around NTT_BATCH jobs, or one compute pass per NTT pass), and NTT_AB's
 * alternating A/B of the default job against one tuning change.
 * @module
 */
import { Profiler } from '../src/gpu/profiler.js';
import { GpuContext } from '../src/gpu/context.js';
import { nttToGpu } from '../src/kernels/ntt/record.js';
import type { NttJob } from '../src/kernels/ntt/job.js';
import { twoLevelAt, type NttTuning } from '../src/kernels/ntt/tuning.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { profileNttRun } from './support/ntt-profile.js';
import { warmUp } from './node-gpu.js';
import type { ClockSampler } from './gpu-clock.js';

export type Op = 'dft' | 'lde' | 'encode';
export const OPS: Op[] = ['dft', 'lde', 'encode'];
export const SHIFT = 31;
export const list = (env: string | undefined, dflt: number[]) => (env ? env.split(',').map(Number) : dflt);

export function spec(op: Op, logN: number, width: number): NttJob {
  return op === 'dft'
    ? { op, height: 2 ** logN, width }
    : { op, height: 2 ** logN, width, addedBits: 1, shift: op === 'lde' ? SHIFT : undefined };
}

/**
 * Jobs per timed submission (NTT_BATCH, default 8): Dawn's timestamps on the H100/H200 tick every
 * 65.5 us, as coarse as a whole pass at 2^24, so one job reads as a whole number of ticks (0.786
 * or 0.852 ms for the same encode). The batch records the job `batch` times back to back (each
 * reads the last one's buffers' pool slots, so they run in order), with one timestamp before
 * the first and one after the last: the span / batch has a tick's error / batch.
 */
export const NTT_BATCH = Number(process.env.NTT_BATCH ?? 8);

/**
 * One timed job: `sp` (with `tuning` overrides) on `input` with one timestamp span (`batch` jobs in it, gpuMs the span /
 * batch), or with perPass one compute pass per NTT pass (bench/support/ntt-profile.ts).
 */
export async function profiledRun(
  ctx: GpuContext,
  sp: NttJob,
  tuning: Partial<NttTuning>,
  input: GPUBuffer,
  perPass: boolean,
  batch = perPass ? 1 : NTT_BATCH,
) {
  if (perPass) return profileNttRun(ctx, sp, input, tuning);
  const prof = new Profiler(ctx.device, ctx.features.timestamps, 1);
  try {
    const enc = ctx.device.createCommandEncoder();
    const tw = prof.timestampWrites(`ntt ${sp.op} x${batch}`);
    for (let i = 0; i < batch; i++) {
      // Dawn rejects a timestampWrites with neither index: the middle jobs get none.
      const writes =
        tw && (i === 0 || i === batch - 1)
          ? {
              querySet: tw.querySet,
              beginningOfPassWriteIndex: i === 0 ? 0 : undefined,
              endOfPassWriteIndex: i === batch - 1 ? 1 : undefined,
            }
          : undefined;
      const res = await nttToGpu(ctx, enc, sp, input, writes, tuning);
      res.release(); // the next job may take the same buffers: it runs after this one
    }
    prof.resolve(enc);
    const t0 = performance.now();
    ctx.device.queue.submit([enc.finish()]);
    const report = await prof.read(t0);
    const per = (ms: number | null) => (ms === null ? null : ms / batch);
    return { ...report, gpuMs: per(report.gpuMs), wallMs: report.wallMs / batch };
  } finally {
    prof.destroy();
  }
}

/**
 * Per-pass GPU time of `sp` on `input`: one compute pass per NTT pass (nttToGpu's function form),
 * timestamp-query around each, median over 10 reps after a warm-up. Empty without timestamp-query.
 */
export async function profileNttPasses(
  ctx: GpuContext,
  sp: NttJob,
  tuning: Partial<NttTuning>,
  input: GPUBuffer,
): Promise<Array<{ pass: number; label: string; medianMs: number }>> {
  if (!ctx.features.timestamps) return [];
  const byPass: Array<{ label: string; ms: number[] }> = [];
  const once = () => profiledRun(ctx, sp, tuning, input, true);
  await warmUp(once);
  for (let r = 0; r < 10; r++) {
    (await once()).passes.forEach((p, i) => {
      byPass[i] ??= { label: p.label, ms: [] };
      if (p.ms !== null) byPass[i].ms.push(p.ms);
    });
  }
  return byPass.map((p, i) => ({ pass: i, label: p.label, medianMs: +median(p.ms).toFixed(4) }));
}

/** NTT_AB=<name>: the B side of the A/B, a change to the default job (A): a partial tuning, or (asidft) another job. */
export const AB_VARIANTS: Record<string, Partial<NttTuning> | { job: Partial<NttJob> }> = {
  unstaged: { stageBelowWidth: 0 },
  notables: { twiddleTables: false },
  montgomery: { shoup: false },
  split: { splitTables: true },
  unfused: { fuseLde: false },
  radix16: { maxRadix: 16 },
  runningfirst: { firstEntry: false },
  wg64: { workgroup: 64 },
  wg128: { workgroup: 128 },
  registers: { twoLevel: 0 },
  nofold: { foldPadding: false },
  noscalefold: { foldScale: false },
  dynflags: { staticFlags: false },
  staticfirst: { firstPassLoads: 'static' },
  nohalves: { innerHalves: false },
  asidft: { job: { op: 'idft' } }, // B = the idft of the same input (read the dft row)
  first1: { passLimit: 1 },
  first2: { passLimit: 2 },
  first3: { passLimit: 3 },
  first4: { passLimit: 4 },
  first5: { passLimit: 5 },
  twolevel10: twoLevelAt(10),
  twolevel6: twoLevelAt(6),
  groups8: { twoLevelGroups: 8 },
  groups1: { twoLevelGroups: 1 },
  groups32: { twoLevelGroups: 32 },
};

/**
 * NTT_AB=<name> (AB_VARIANTS): the default register-path job (A) against one change (B), same
 * input, reps alternating A, B so that clock drift hits both alike (a run whose GPU clock was
 * still rising timed the same encode at 3.0 ms early and 1.3 ms late), after a 2 s warm-up.
 * Medians of 15 each and B / A.
 */
export async function jobAb(
  ctx: GpuContext,
  name: string,
  logs: number[],
  widths: number[],
  rng: SplitMix64,
): Promise<Record<string, unknown>[]> {
  const change = AB_VARIANTS[name];
  if (!change) throw new Error(`NTT_AB=${name}: one of ${Object.keys(AB_VARIANTS).join(', ')}`);
  const rows: Record<string, unknown>[] = [];
  const time = async (sp: NttJob, tuning: Partial<NttTuning>, input: GPUBuffer) => {
    const report = await profiledRun(ctx, sp, tuning, input, false);
    return report.gpuMs ?? report.wallMs;
  };
  let warm = 2000;
  for (const logN of logs)
    for (const w of widths) {
      const input = ctx.upload(rng.fieldArray(2 ** logN * w), 'bench input');
      for (const op of OPS) {
        const a: NttJob = spec(op, logN, w);
        const b: NttJob = 'job' in change ? { ...a, ...change.job } : a;
        const bTuning: Partial<NttTuning> = 'job' in change ? {} : change;
        await warmUp(async () => {
          await time(a, {}, input);
          await time(b, bTuning, input);
        }, warm);
        warm = 600;
        const ta: number[] = [],
          tb: number[] = [];
        const sa: Array<[number, number]> = [],
          sb: Array<[number, number]> = [];
        for (let r = 0; r < 15; r++) {
          let t0 = Date.now();
          ta.push(await time(a, {}, input));
          sa.push([t0, (t0 = Date.now())]);
          tb.push(await time(b, bTuning, input));
          sb.push([t0, Date.now()]);
        }
        const ma = median(ta),
          mb = median(tb);
        rows.push({
          bench: 'ntt-ab',
          b: name,
          op,
          logN,
          width: w,
          aMs: +ma.toFixed(4),
          bMs: +mb.toFixed(4),
          bOverA: +(mb / ma).toFixed(3),
          batch: NTT_BATCH,
          aMHz: clock?.median(sa) ?? null,
          bMHz: clock?.median(sb) ?? null,
        });
        console.error(JSON.stringify(rows.at(-1)));
      }
      ctx.pool.release(input);
      ctx.pool.trim();
    }
  return rows;
}

/** The SM clock while this bench runs (rows carry smMHz, A/B rows aMHz / bMHz; null without nvidia-smi). */
let clock: ClockSampler | null = null;
export function setClock(c: ClockSampler | null): void {
  clock = c;
}
export const currentClock = (): ClockSampler | null => clock;
