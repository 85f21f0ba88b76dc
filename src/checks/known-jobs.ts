/**
 * The sizes of the self-check's known-answer jobs (known-answer.ts), as plain data: the prover
 * compiles their pipelines with the family's first call (src/kernels/first-call.ts) without
 * importing the jobs themselves.
 * @module
 */
/**
 * The ntt family's known-answer jobs, as options: width 8, natural order, as most callers ask.
 * Every distinct pass (flag set, width) is a pipeline the first call compiles on top of its own
 * (~0.3 s each on the H100's host), so these share as many as they can with typical jobs and
 * with `warmUp(['ntt'])` (src/kernels/warm-up.ts).
 */
export const KNOWN_NTT = {
  lde: { height: 32, options: { width: 8, addedBits: 1, shift: 31, bitReversedOutput: false } },
  idft: { height: 32, options: { width: 8 } },
} as const;
/** Points in the msm family's known-answer job. */
export const KNOWN_MSM_POINTS = 32;
