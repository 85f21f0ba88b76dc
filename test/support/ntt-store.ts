/**
 * How an NTT pass loads and stores rows, as ntt_load and ntt_store in
 * wgsl/kernels/ntt_stockham.gen.wgsl do: loads fold the zero padding (NTT_FLAG_HALF, inRows) and
 * reverse an inverse transform's rows (NTT_FLAG_INVERSE: row n − 1 − r); the last pass of a
 * transform scales (c·g^row from the lo/hi scale table) and bit-reverses. Shared by the CPU models
 * of the register passes (test/unit/ntt-plan.test.ts) and the two-level passes
 * (test/unit/ntt-two-level.test.ts). Values are of field F (BabyBear when not given).
 */
import { monty31Ops } from '../../src/field/monty31-ops.js';
import { BABY_BEAR } from '../../src/params/babybear.js';
import type { Monty31Params } from '../../src/params/monty31.js';
import { reverseBits } from '../../src/ref/ntt.js';
import {
  NTT_FLAG_BITREV,
  NTT_FLAG_HALF,
  NTT_FLAG_INVERSE,
  NTT_FLAG_LAST,
  NTT_FLAG_SCALE,
  NTT_TW_LO_BITS,
  type NttPass,
} from '../../src/kernels/ntt/passes.js';

/** Row `row` of column `col` as ntt_load reads it. */
export function loadRow(p: NttPass, src: Uint32Array, w: number, row: number, col: number): number {
  let r = p.flags & NTT_FLAG_HALF ? row >> 1 : row;
  if (p.flags & NTT_FLAG_INVERSE) r = p.n - 1 - r;
  return r < p.inRows ? src[r * w + col] : 0;
}

export function storeOutput(
  p: NttPass,
  dst: Uint32Array,
  w: number,
  col: number,
  base: number,
  s: number,
  val: number,
  sc: Uint32Array | null,
  F: Monty31Params = BABY_BEAR,
): void {
  const { montMul } = monty31Ops(F);
  let dest = base + s * p.ns;
  if (p.flags & NTT_FLAG_LAST) {
    if (p.flags & NTT_FLAG_SCALE)
      val = montMul(val, montMul(sc![dest % 2 ** NTT_TW_LO_BITS], sc![2 ** NTT_TW_LO_BITS + Math.floor(dest / 2 ** NTT_TW_LO_BITS)]));
    if (p.flags & NTT_FLAG_BITREV) dest = reverseBits(dest, p.logN);
  }
  dst[dest * w + col] = val;
}
