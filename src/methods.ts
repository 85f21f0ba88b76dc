/**
 * The names of the Prover's job methods and of each GPU handle's methods, once: the wrappers that
 * forward calls by name (device recovery, the worker's host and client) all read them here, so a
 * method added to a facet is added here and nowhere else. Plain data: the page's worker client
 * imports it without the prover.
 * @module
 */

/** Prover methods that run a job (everything but info, stats, lost and destroy), and warmUp, which is forwarded the same way. */
export const JOB_METHODS = [
  'batchField',
  'dft',
  'idft',
  'lde',
  'encode',
  'poseidon2',
  'merkleCommit',
  'grind',
  'commit',
  'msm',
  'msmBases',
  'groth16',
  'warmUp',
] as const;

export type JobMethod = (typeof JOB_METHODS)[number];

/** Protocol methods (WHIR's commit, Groth16's fullProve): built on the job methods by the family router, served by the worker as jobs are. */
export const PROTOCOL_METHODS = ['whirCommit', 'groth16FullProve'] as const;

/** Everything the worker's client may call on the prover. */
export const PROVER_CALLS = [...JOB_METHODS, ...PROTOCOL_METHODS] as const;

/**
 * Each handle's methods that run a job (`calls`), the one that frees it (`free`), and the ones that
 * return data fixed when it was made (`fixed`: through the worker, sent once with the handle and
 * answered without a round trip).
 */
export const HANDLE_METHODS = {
  NttMatrix: { calls: ['read'], free: 'destroy', fixed: [] },
  MerkleTree: { calls: ['open', 'openMany'], free: 'dispose', fixed: [] },
  MsmBases: { calls: ['msm', 'msmBatch', 'msmProfiled'], free: 'destroy', fixed: ['stats'] },
  WhirCommitment: { calls: ['prove'], free: 'dispose', fixed: [] },
  Groth16Key: { calls: ['prove'], free: 'destroy', fixed: ['verificationKey', 'stats'] },
} as const satisfies Record<string, { calls: readonly string[]; free: string; fixed: readonly string[] }>;

export type HandleKind = keyof typeof HANDLE_METHODS;

/** Which handle `o` is, by the methods it has (none of the kinds has all of another's). */
export function handleKind(o: Record<string, unknown>): HandleKind | undefined {
  for (const [kind, m] of Object.entries(HANDLE_METHODS) as [HandleKind, (typeof HANDLE_METHODS)[HandleKind]][]) {
    if ([...m.calls, m.free, ...m.fixed].every((k) => typeof o[k] === 'function')) return kind;
  }
  return undefined;
}

/** The kernel families: the unit of the self-check, the run-time checks and the CPU path. */
export const FAMILIES = ['field', 'ntt', 'poseidon2', 'merkle', 'grind', 'commit', 'msm', 'groth16'] as const;

export type Family = (typeof FAMILIES)[number];

/** The job methods that run a family's kernels (warmUp only compiles them). */
export type FamilyMethod = Exclude<JobMethod, 'warmUp'>;
export const FAMILY_METHODS = JOB_METHODS.filter((m): m is FamilyMethod => m !== 'warmUp');

/** The family each job method runs in. */
export const METHOD_FAMILY: Record<FamilyMethod, Family> = {
  batchField: 'field',
  dft: 'ntt',
  idft: 'ntt',
  lde: 'ntt',
  encode: 'ntt',
  poseidon2: 'poseidon2',
  merkleCommit: 'merkle',
  grind: 'grind',
  commit: 'commit',
  msm: 'msm',
  msmBases: 'msm',
  groth16: 'groth16',
};
