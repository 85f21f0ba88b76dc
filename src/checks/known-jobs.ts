/**
 * The sizes of the self-check's known-answer jobs (known-answer.ts), as plain data and the rules
 * that shape the ntt, commit and poseidon2 families' after the first call: the prover compiles
 * their pipelines with the family's first call (src/kernels/first-call.ts) without importing the
 * jobs themselves.
 * @module
 */
import { MONTY31_FIELDS, type FieldName } from '../params/fields.js';
import { BABYBEAR_POSEIDON2, nttCallSpec, type Poseidon2Shape } from '../kernels/first-call.js';
import type { Family } from '../methods.js';
import type { NttJob, NttOp } from '../kernels/ntt/job.js';

/**
 * The ntt family's known-answer jobs when the first call's shape is unknown, as options: width 8,
 * natural order, as most callers ask.
 * Every distinct pass (flag set, width) is a pipeline the first call compiles on top of its own
 * (~0.3 s each on the H100's host), so these share as many as they can with typical jobs and
 * with `warmUp(['ntt'])` (src/kernels/warm-up.ts).
 */
export const KNOWN_NTT = {
  lde: { height: 32, options: { width: 8, addedBits: 1, shift: 31, bitReversedOutput: false } },
  idft: { height: 32, options: { width: 8 } },
} as const;

/** An NTT known-answer job as a prover call takes it: the op, the rows, the call's options. */
export interface KnownNttJob {
  op: NttOp;
  height: number;
  options: { width: number; addedBits?: number; shift?: number; bitReversedOutput?: boolean; field?: FieldName };
}

/** Largest output and blow-up of a job shaped after a call: any device runs it, the CPU half in a few ms. */
const KNOWN_MAX_VALUES = 1 << 16;
const KNOWN_MAX_ADDED_BITS = 4;

/**
 * The ntt family's known-answer jobs for a first call of shape `call` (its NttJob), or KNOWN_NTT's
 * without one: the call's own op, width, options and field at 2^m rows, m the call's own log2
 * height where its output fits KNOWN_MAX_VALUES, else the largest that fits with m ≡ log2(height)
 * (mod 5). A plan's passes are radix-32 ones plus one for the height's remainder mod 5 bits, with
 * the same flags at the same places, so the check runs the call's kernels and a first call
 * compiles no pipeline for the check alone (every op at widths 1, 8, 16 and heights 2 .. 2^23:
 * test/unit/first-call.test.ts; KNOWN_NTT's added 2-4). A shape no small job could take (too wide,
 * a blow-up past 2^4, a shift outside [1, p)) gets KNOWN_NTT's: the call reports its own bad
 * input, and the check must not fail for it.
 */
export function knownNttJobs(call?: NttJob): KnownNttJob[] {
  const height = call && shapedHeight(call);
  if (!call || height === undefined) return (Object.keys(KNOWN_NTT) as (keyof typeof KNOWN_NTT)[]).map((op) => ({ op, ...KNOWN_NTT[op] }));
  const { op, width, addedBits, shift, bitReversed, field } = call;
  return [{ op, height, options: { width, addedBits, shift, bitReversedOutput: bitReversed, field } }];
}

/**
 * The height of a known-answer job shaped after `call` (knownNttJobs says how), or undefined
 * where no small job of its shape could run.
 */
function shapedHeight(call: NttJob): number | undefined {
  const log = Math.log2(call.height);
  const room = Math.floor(Math.log2(KNOWN_MAX_VALUES / (call.width * 2 ** (call.addedBits ?? 0))));
  const m = log <= room ? log : room - ((((room - log) % 5) + 5) % 5);
  const p = MONTY31_FIELDS[call.field ?? 'babybear'].p;
  const fits =
    m >= 1 &&
    (call.addedBits ?? 0) >= 0 &&
    (call.addedBits ?? 0) <= KNOWN_MAX_ADDED_BITS &&
    (call.shift === undefined || (Number.isInteger(call.shift) && call.shift >= 1 && call.shift < p));
  return fits ? 2 ** m : undefined;
}

/** The commit family's known-answer job: coefficient rows, width and blow-up of a commit. */
export interface KnownCommitJob {
  height: number;
  width: number;
  addedBits: number;
}

/**
 * The commit family's known-answer job (an encode and its tree), shaped after the first commit as
 * the ntt family's is after an NTT (`call`: the commit's encode, nttCallSpec('commit', ...)), so it
 * compiles no NTT pass the commit does not; 8 rows x 4 where the shape does not fit.
 */
export function knownCommitJob(call?: NttJob): KnownCommitJob {
  const height = call && call.field === undefined ? shapedHeight(call) : undefined;
  if (!call || height === undefined) return { height: 8, width: 4, addedBits: 1 };
  return { height, width: call.width, addedBits: call.addedBits ?? 0 };
}

/**
 * The NTT jobs, as plans read them, that `family`'s known-answer job runs where its first call's
 * NTT shape is `call`: what that call's prefetch compiles for the self-check (src/prover.ts).
 */
export function knownNttSpecs(family: Family, call?: NttJob): NttJob[] {
  if (family === 'commit') {
    const { height, width, addedBits } = knownCommitJob(call);
    return [
      nttCallSpec('commit', [
        { height, width },
        { width, addedBits },
      ])!,
    ];
  }
  if (family !== 'ntt') return [];
  return knownNttJobs(call).flatMap((j) => nttCallSpec(j.op, [{ height: j.height }, j.options]) ?? []);
}

/**
 * The poseidon2 family's known-answer jobs: the first call's width and field, or both BabyBear
 * widths without one. Each width is its own pipeline (the width-24 one compiled in 0.4-0.7 s on
 * the H100's host, the slowest of a first width-16 call's), so a check of the call's own width
 * compiles nothing the call does not.
 */
export function knownPoseidon2Jobs(call?: Poseidon2Shape): readonly Poseidon2Shape[] {
  return call ? [call] : BABYBEAR_POSEIDON2;
}

/** A family's first call as its self-check reads it (undefined fields: not that family's, or not understood). */
export interface FirstShape {
  ntt?: NttJob;
  poseidon2?: Poseidon2Shape;
}

/** Points in the msm family's known-answer job. */
export const KNOWN_MSM_POINTS = 32;
