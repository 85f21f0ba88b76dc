/**
 * Host side of wgsl/kernels/ntt_twist.wgsl: multiplies a block of a row-major matrix, in place on
 * the GPU, by powers of one base, base^e with e = row·column (the four-step twiddles) or
 * e = row·rowStride + column (an lde's coset powers shift^j). Used between the passes of
 * ./long.ts, so the block is not read back to be twisted on the CPU.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { dispatch1d } from '../../gpu/dispatch.js';
import type { BindingKind } from '../../gpu/pipeline-cache.js';
import { BABY_BEAR } from '../../params/babybear.js';
import { MONTY31_FIELDS, type FieldName, type Monty31Params } from '../../params/fields.js';
import { monty31Ops } from '../../field/monty31-ops.js';
import { scaleBuffer } from './record.js';
import { NTT_TW_LO_BITS } from './passes.js';

export const TWIST_WG = 256;
const BINDINGS: readonly BindingKind[] = ['storage', 'read-only-storage', 'uniform'];

/**
 * The exponent of element (row, col) of a block whose first column is `col0` in the whole matrix:
 * `product`: row·column; `linear`: row·rowStride + column.
 */
export interface Twist {
  base: number;
  mode: 'product' | 'linear';
  col0: number;
  rowStride?: number;
}

/** The exponent the kernel uses for block element (r, c) (the CPU model of ntt_twist). */
export function twistExponent(t: Twist, r: number, c: number): number {
  return t.mode === 'product' ? r * (t.col0 + c) : r * (t.rowStride ?? 0) + t.col0 + c;
}

/** Multiply a rows × cols block of `F` values on the CPU, as the kernel does (for tests and the CPU model). */
export function twistOnCpu(block: Uint32Array, rows: number, cols: number, t: Twist, F: Monty31Params = BABY_BEAR): void {
  const { mul, pow } = monty31Ops(F);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) block[r * cols + c] = mul(block[r * cols + c], pow(t.base, twistExponent(t, r, c)));
  }
}

/**
 * Record the twist of `buffer` (a rows × cols block of canonical `field` values) into `encoder`.
 * Returns the uniform buffer it used: release it to ctx.pool once the encoder is submitted.
 */
export async function recordTwist(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  buffer: GPUBuffer,
  rows: number,
  cols: number,
  t: Twist,
  field: FieldName = 'babybear',
): Promise<GPUBuffer> {
  const consts = { TWIST_WG, TWIST_LO_BITS: NTT_TW_LO_BITS };
  const pipeline = await ctx.pipelines.get('ntt_twist', 'ntt_twist', consts, BINDINGS, undefined, false, field);
  const params = ctx.uploadUniform(
    new Uint32Array([rows, cols, t.col0, t.mode === 'product' ? 1 : 0, t.rowStride ?? 0, 0, 0, 0]),
    'ntt twist params',
  );
  const group = ctx.device.createBindGroup({
    layout: ctx.pipelines.layout(BINDINGS),
    entries: [
      { binding: 0, resource: { buffer, size: rows * cols * 4 } },
      // base^e = lo[e mod 2^L]·hi[e >> L] for every e below the field's largest two-adic size
      // (2^27 for BabyBear): the NTT's scale table of (1, base), L = NTT_TW_LO_BITS.
      { binding: 1, resource: { buffer: scaleBuffer(ctx, 1, t.base, 2 ** MONTY31_FIELDS[field].twoAdicity, field) } },
      { binding: 2, resource: { buffer: params, size: 32 } },
    ],
  });
  const pass = encoder.beginComputePass({ label: `ntt twist ${t.mode}` });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  dispatch1d(pass, ctx.device, rows * cols, TWIST_WG);
  pass.end();
  return params;
}
