/**
 * The MSM's fixed shapes: the record sizes of its buffers (src/params/msm-layout.ts, which WGSL
 * sees as constants too), the workgroup sizes no plan changes, and which scalar half-planes a
 * batch of windows reads. What varies per job (window size, slots, walker workgroups) is in plan.ts.
 * @module
 */
import { SCALAR_HALVES, windowStart } from '../../params/msm-layout.js';

export { MSM_BYTES, MSM_WORDS, SCALAR_HALVES, wideWindows, windowBits } from '../../params/msm-layout.js';

/** The sort's workgroup (count, scan, scatter): a scan block is 2·SORT_WG counts. */
export const SORT_WG = 256;
/** Reduction workgroup: a multiple of every group a standalone level merges (a group's lanes share one; 12 KiB of workgroup memory). */
export const RED_WG = 64;
/** msm_to_mont's workgroup: a thread per point. */
export const PREP_WG = 256;
/** msm_split's workgroup: a thread per pair of scalars. */
export const SPLIT_WG = 256;
/** msm_quick's workgroup (the quick engine, quick.ts). */
export const QUICK_WG = 64;

/** Bits of one scalar half-plane. */
const HALF_BITS = 16;

/** Scalar halves [lo, hi] the digits of windows [w0, w0 + nw) read (their bits and the look-back bit below them). */
export function batchHalves(c: number, w0: number, nw: number): [number, number] {
  const half = (bit: number) => Math.floor(bit / HALF_BITS);
  return [half(Math.max(0, windowStart(w0, c) - 1)), Math.min(SCALAR_HALVES - 1, half(windowStart(w0 + nw, c) - 1))];
}
