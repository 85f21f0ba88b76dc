/**
 * The MSM tuning a caller may pass to msmProfiled (benches, tests), checked like any option:
 * every field within the range the plan and the kernels were built and tested for, unknown
 * fields refused. Without this a window size of 0 made the plan search loop forever on the
 * caller's thread, and fractional or negative values reached WGSL constants.
 * @module
 */
import { ProverError } from '../errors.js';
import { walkTreeBytes, type MsmTuning } from '../kernels/msm/plan.js';
import type { WorkgroupLimits } from '../gpu/context.js';
import { windowCount } from '../params/msm-layout.js';
import { MAX_PARTS } from '../kernels/msm/runs.js';
import { optionalBoolean, requireInt, requireOptions, requirePow2, show } from '../validate.js';

const FIELDS = [
  'c',
  'S',
  'slice',
  'mul13',
  'wgInv',
  'riders',
  'pairBytes',
  'scratchBytes',
  'lowMemory',
  'walkWg',
  'fixWg',
  'parts',
  'chains',
  'engine',
] as const;

/**
 * Window sizes the plan considers (pickC): one window's digit (c + 1 bits) must fit the two
 * 16-bit scalar halves the sort reads, and below 4 the window count passes 64.
 */
export const MSM_C_RANGE = [4, 16] as const;
/** Slots per walker thread: powers of two up to 16 (the 2^22 default). */
export const MSM_MAX_S = 16;
/** Entries per walker slot the tuning may ask for. */
export const MSM_MAX_SLICE = 64;
/** Smallest walker or fix-up workgroup the tuning may ask for (two warps of 32). */
export const MSM_MIN_WG = 64;
/** Upper bound of the byte-size fields: one storage binding on any device. */
const MAX_BYTES = 2 ** 31;

/** A validated copy of `t` (known fields only), or a ProverError naming the bad field and its range. */
export function requireMsmTuning(t: unknown, limits: WorkgroupLimits): MsmTuning {
  const o = requireOptions<MsmTuning>('msm tuning', t, true, FIELDS);
  const out: MsmTuning = {};
  if (o.c !== undefined) out.c = requireInt('tuning.c', o.c, MSM_C_RANGE[0], MSM_C_RANGE[1], 'the window size in bits');
  if (o.S !== undefined) out.S = requirePow2('tuning.S', o.S, 1, MSM_MAX_S);
  if (o.slice !== undefined) out.slice = requireInt('tuning.slice', o.slice, 1, MSM_MAX_SLICE, 'entries per walker slot');
  for (const k of ['mul13', 'wgInv', 'riders', 'lowMemory', 'chains'] as const) {
    const v = optionalBoolean(`tuning.${k}`, o[k]);
    if (v !== undefined) out[k] = v;
  }
  if (o.pairBytes !== undefined) {
    // Every window keeps at least one (W, S) pair of 192 bytes; the most windows any c has is at c = 4.
    const least = 192 * windowCount(out.c ?? MSM_C_RANGE[0]);
    out.pairBytes = requireInt(
      'tuning.pairBytes',
      o.pairBytes,
      least,
      MAX_BYTES,
      `at least one 192-byte pair for each of ${least / 192} windows`,
    );
  }
  if (o.scratchBytes !== undefined) out.scratchBytes = requireInt('tuning.scratchBytes', o.scratchBytes, 1, MAX_BYTES);
  if (o.walkWg !== undefined) {
    const wg = requirePow2('tuning.walkWg', o.walkWg, MSM_MIN_WG, limits.threads);
    if (walkTreeBytes(wg) > limits.tileBytes) {
      throw new ProverError(
        'TOO_LARGE',
        `tuning.walkWg ${wg} needs ${walkTreeBytes(wg)} bytes of workgroup memory; this device has ${limits.tileBytes}; pick a smaller walkWg`,
      );
    }
    out.walkWg = wg;
  }
  if (o.fixWg !== undefined) out.fixWg = requirePow2('tuning.fixWg', o.fixWg, MSM_MIN_WG, limits.threads);
  if (o.parts !== undefined) out.parts = requireInt('tuning.parts', o.parts, 1, MAX_PARTS, 'runs the job is cut into');
  if (o.engine !== undefined) {
    if (o.engine !== 'quick' && o.engine !== 'walker')
      throw new ProverError('INVALID_ARGUMENT', `tuning.engine must be 'quick' or 'walker', got ${show(o.engine)}`);
    out.engine = o.engine;
  }
  return out;
}
