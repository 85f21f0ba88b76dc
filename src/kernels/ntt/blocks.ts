/**
 * NTT jobs whose matrix is larger than one storage binding (maxStorageBufferBindingSize: 128 MiB
 * by default, 2^25 values), on Uint32Arrays: the columns of a batched NTT are independent, so the
 * job runs on blocks of columns, each block's output within one binding, gathered from and
 * scattered back into the row-major arrays on the CPU. A column whose own output exceeds a
 * binding runs alone as a four-step transform of blocks that fit (./long.ts).
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { nttMaxWords, runNtt } from './record.js';
import { copyColumns } from '../matrix-copy.js';
import { checkLongColumn, gpuBlockRunner, runLongColumn } from './long.js';
import { outputHeight, type NttJob } from './job.js';
import { nttSplit } from './plan.js';

/**
 * Run `job` on `values` (height × width, row-major, canonical) in blocks of columns whose outputs
 * each fit `maxWords` values (default: this device's binding limit), or column by column as
 * four-step transforms when one column does not fit; the result equals one job's.
 */
export async function runNttColumnBlocks(
  ctx: GpuContext,
  job: NttJob,
  values: Uint32Array,
  maxWords = nttMaxWords(ctx),
): Promise<Uint32Array> {
  const { width: w, height: h } = job;
  const outRows = outputHeight(job);
  const split = nttSplit(outRows, w, maxWords);
  const long = split.mode === 'four-step';
  if (long) checkLongColumn(outRows, maxWords);
  const cols = split.mode === 'columns' ? split.columns : long ? 1 : w; // a long column runs alone
  const run = gpuBlockRunner(ctx);
  const runBlock = (block: Uint32Array, cw: number) =>
    long ? runLongColumn({ ...job, width: 1 }, block, maxWords, run) : runNtt(ctx, { ...job, width: cw }, block);
  if (cols >= w) return runBlock(values, w);
  const out = new Uint32Array(outRows * w);
  for (let c0 = 0; c0 < w; c0 += cols) {
    const cw = Math.min(cols, w - c0);
    const block = new Uint32Array(h * cw);
    copyColumns(values, w, c0, block, cw, 0, h, cw);
    copyColumns(await runBlock(block, cw), cw, 0, out, w, c0, outRows, cw);
  }
  return out;
}
