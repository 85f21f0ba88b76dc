/**
 * The sizes of the self-check's known-answer jobs (known-answer.ts), as plain data: the prover
 * compiles their pipelines with the family's first call (src/kernels/first-call.ts) without
 * importing the jobs themselves.
 * @module
 */
/**
 * The ntt family's known-answer jobs, as options. Widths 8 and 1, the warm-up's
 * (src/kernels/warm-up.ts): the width is a module constant, so these share their modules with
 * typical jobs and with `warmUp(['ntt'])` instead of compiling widths no caller uses.
 */
export const KNOWN_NTT = {
  lde: { height: 32, options: { width: 8, addedBits: 1, shift: 31, bitReversedOutput: true } },
  idft: { height: 64, options: { width: 1 } },
} as const;
/** Points in the msm family's known-answer job. */
export const KNOWN_MSM_POINTS = 32;

