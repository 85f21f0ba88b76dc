/**
 * Host side of wgsl/kernels/ntt_twist.wgsl: multiplies a block of a row-major matrix, in place on
 * the GPU, by powers of one base, base^e with e = row·column (the four-step twiddles) or
 * e = row·rowStride + column (an lde's coset powers shift^j). Used between the passes of
 * src/kernels/ntt-long.ts, so the block is not read back to be twisted on the CPU.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import { dispatch1d } from '../gpu/dispatch.js';
import type { BindingKind } from '../gpu/pipeline-cache.js';
import { BB_TWO_ADICITY } from '../params/babybear.js';
import { bbMul, bbPow, toMonty } from '../ref/babybear.js';

export const TWIST_WG = 256;
/** log2 of the low table (as TWIST_LO_BITS in the kernel); the high table covers e < 2^27. */
export const TWIST_LO_BITS = 14;
const HI_SIZE = 2 ** (BB_TWO_ADICITY - TWIST_LO_BITS);
const BINDINGS: readonly BindingKind[] = ['storage', 'read-only-storage', 'uniform'];
/** Power tables kept per device (96 KiB each; a handful of bases per size); beyond this the cache is cleared. */
const MAX_TABLES = 16;

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

/** base^i for i < 2^14, then base^(i·2^14) for i < 2^13, in Montgomery form. */
export function twistTable(base: number): Uint32Array {
  const lo = 2 ** TWIST_LO_BITS;
  const out = new Uint32Array(lo + HI_SIZE);
  let x = 1;
  for (let i = 0; i < lo; i++, x = bbMul(x, base)) out[i] = toMonty(x);
  const step = bbPow(base, lo);
  x = 1;
  for (let i = 0; i < HI_SIZE; i++, x = bbMul(x, step)) out[lo + i] = toMonty(x);
  return out;
}

/** Multiply a rows × cols block on the CPU, as the kernel does (for tests and the CPU model). */
export function twistOnCpu(block: Uint32Array, rows: number, cols: number, t: Twist): void {
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) block[r * cols + c] = bbMul(block[r * cols + c], bbPow(t.base, twistExponent(t, r, c)));
  }
}

const TABLES = new WeakMap<GpuContext, Map<number, GPUBuffer>>();

function tableFor(ctx: GpuContext, base: number): GPUBuffer {
  let m = TABLES.get(ctx);
  if (!m) TABLES.set(ctx, (m = new Map()));
  let buf = m.get(base);
  if (!buf) {
    // Dropped tables may still be read by submitted work: destroy() is deferred past it in WebGPU.
    if (m.size >= MAX_TABLES) m.clear();
    buf = ctx.constantBuffer(twistTable(base), GPUBufferUsage.STORAGE, `ntt twist ${base}`);
    m.set(base, buf);
  }
  return buf;
}

/**
 * Record the twist of `buffer` (a rows × cols block, canonical) into `encoder`. Returns the
 * uniform buffer it used: release it to ctx.pool once the encoder is submitted.
 */
export async function recordTwist(ctx: GpuContext, encoder: GPUCommandEncoder, buffer: GPUBuffer, rows: number, cols: number, t: Twist): Promise<GPUBuffer> {
  const pipeline = await ctx.pipelines.get('ntt_twist', 'ntt_twist', { TWIST_WG }, BINDINGS);
  const params = ctx.uploadUniform(new Uint32Array([rows, cols, t.col0, t.mode === 'product' ? 1 : 0, t.rowStride ?? 0, 0, 0, 0]), 'ntt twist params');
  const group = ctx.device.createBindGroup({
    layout: ctx.pipelines.layout(BINDINGS),
    entries: [
      { binding: 0, resource: { buffer, size: rows * cols * 4 } },
      { binding: 1, resource: { buffer: tableFor(ctx, t.base) } },
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
