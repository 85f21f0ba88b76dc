/**
 * The MSM's bases on the GPU: points uploaded as the caller gave them, then converted to
 * Montgomery form and range- and curve-checked there (msm_prep.wgsl, msm_to_mont).
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { PREP_WG } from './layout.js';
import { PREP_PARAMS } from './params.js';
import { MSM_BASES_PIPELINE, PREP_B } from './pipelines.js';
import { bindGroup, dispatch, uploadParams } from './record.js';

/** msm_to_mont's products, run through one multiply site in a loop (msm_prep.wgsl says why). */
const TO_MONT_MULS = 5;

/** A flag word no index reaches: the checks' "none". */
const NONE = 0xffffffff;

/**
 * Points (16 words each: x, y as LE limbs, or with `be` as the caller's 64 bytes, x then y
 * big-endian; zeros = identity) into a GPU buffer in Montgomery form, range- and curve-checked on
 * the GPU. Returns the buffer, the smallest index not on the curve and the smallest with a
 * coordinate >= p (-1: none).
 */
export async function uploadBases(
  ctx: GpuContext,
  words: Uint32Array,
  n: number,
  be: boolean,
): Promise<{ buf: GPUBuffer; bad: number; big: number }> {
  const buf = await ctx.uploadAsync(words, 'msm bases');
  const bad = ctx.upload(new Uint32Array([NONE, NONE]), 'msm bad');
  const prm = uploadParams(ctx, PREP_PARAMS, { n, be: be ? 1 : 0, muls: TO_MONT_MULS });
  try {
    const [pipe] = await ctx.pipelines.all([MSM_BASES_PIPELINE]);
    const enc = ctx.device.createCommandEncoder({ label: 'msm bases' });
    const pass = enc.beginComputePass({ label: 'msm to_mont' });
    dispatch(pass, ctx, pipe, bindGroup(ctx, PREP_B, [buf, bad, prm]), n, PREP_WG);
    pass.end();
    ctx.submit(enc, 'msm bases');
    const [curve, range] = await ctx.readback(bad, 2);
    const first = (v: number) => (v === NONE ? -1 : v);
    return { buf, bad: first(curve), big: first(range) };
  } catch (e) {
    ctx.pool.release(buf);
    throw e;
  } finally {
    ctx.pool.release(bad);
    ctx.pool.release(prm);
  }
}
