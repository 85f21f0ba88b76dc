/**
 * NTT jobs whose matrix is larger than one storage binding (maxStorageBufferBindingSize: 128 MiB
 * by default, 2^25 values), for Uint32Array inputs and outputs: the columns of a batched NTT are
 * independent, so the job runs on blocks of columns, each block's output within one binding,
 * gathered from and scattered back into the row-major arrays on the CPU. A single column larger
 * than a binding still fails (TOO_LARGE from checkNttSize): that would need a transform split
 * across bindings. GPU-resident outputs (NttMatrix) are one buffer, so they take the plain path.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { checkNttSize, nttMaxWords, runNtt } from './ntt.js';
import { outputHeight, type NttSpec } from './ntt-spec.js';

/** Columns per block for a job of `width` columns and `outRows` output rows within `maxWords` values; at least 1. */
export function columnsPerBlock(width: number, outRows: number, maxWords: number): number {
  return Math.max(1, Math.min(width, Math.floor(maxWords / outRows)));
}

/** Whether the job's output exceeds one binding of `maxWords` values (so it runs in column blocks). */
export function needsColumnBlocks(spec: NttSpec, maxWords: number): boolean {
  return outputHeight(spec) * spec.width > maxWords;
}

/**
 * Run `spec` on `values` (height × width, row-major, canonical) in blocks of columns whose outputs
 * each fit `maxWords` values (default: this device's binding limit); the result equals one job's.
 */
export async function runNttColumnBlocks(ctx: GpuContext, spec: NttSpec, values: Uint32Array, maxWords = nttMaxWords(ctx)): Promise<Uint32Array> {
  const { width: w, height: h } = spec;
  const outRows = outputHeight(spec);
  checkNttSize(ctx, { ...spec, width: 1 }); // one column must fit a binding
  const cols = columnsPerBlock(w, outRows, maxWords);
  const out = new Uint32Array(outRows * w);
  for (let c0 = 0; c0 < w; c0 += cols) {
    const cw = Math.min(cols, w - c0);
    const block = new Uint32Array(h * cw);
    for (let r = 0; r < h; r++) block.set(values.subarray(r * w + c0, r * w + c0 + cw), r * cw);
    const got = await runNtt(ctx, { ...spec, width: cw }, block);
    for (let r = 0; r < outRows; r++) out.set(got.subarray(r * cw, (r + 1) * cw), r * w + c0);
  }
  return out;
}
