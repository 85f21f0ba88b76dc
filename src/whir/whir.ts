/**
 * The public WHIR facet: `prover.whir(options)` returns a configured instance whose `commit` and
 * `open` run p3-whir 0.9.0-rc.2's polynomial commitment (one multilinear polynomial given by its
 * 2^n evaluations, the point drawn by the verifier's transcript). Encoding and Merkle trees run
 * on the prover's `commit` (the GPU, or its CPU path); grinding on the prover's `grind`.
 * @module
 */
import { ProverError } from '../errors.js';
import { DuplexChallenger } from '../ref/challenger.js';
import { requireFieldArray } from '../validate.js';
import type { MerkleTree } from '../api/merkle.js';
import { deriveWhirSchedule, validateInitialClaims, whirParameters, type WhirOptions } from './params.js';
import { whirCommit, whirOpen, type CommittedCodeword, type WhirBackend, type WhirCommitment, type WhirOpening } from './prover.js';
import type { WhirSchedule } from './schedule.js';
import { cpuSumcheckEngine } from './engine.js';
import { whirProverTranscript, type Grinder } from './transcript/whir-transcript.js';

export type { WhirOptions, WhirOpening, WhirSchedule };

/** The prover methods WHIR runs on. */
export interface WhirHost {
  commit(coeffs: Uint32Array, options: { width: number; addedBits: number }): Promise<{ root: Uint32Array; tree: MerkleTree }>;
  /** Finds the smallest PoW witness and advances `challenger` past it (the prover's grind). */
  grind(challenger: DuplexChallenger, bits: number): Promise<number>;
}

/** A commitment's prover-side state: open it once with `whir.open(handle)`. */
export interface WhirHandle {
  readonly root: Uint32Array;
  /** Free the codeword (open does this itself). */
  dispose(): void;
}

export interface Whir {
  /** The derived configuration (rounds, queries, PoW bits), exactly as p3-whir derives it. */
  schedule(): WhirSchedule;
  /**
   * Commit to a multilinear polynomial given by its 2^numVariables evaluations over the
   * hypercube (natural index order, canonical BabyBear values).
   * @throws ProverError INVALID_LENGTH, NON_CANONICAL, and the commit's GPU errors
   */
  commit(evals: Uint32Array): Promise<{ root: Uint32Array; handle: WhirHandle }>;
  /**
   * Prove the polynomial's value at a point drawn from the transcript (p3-whir's
   * `MultilinearPcs::open`); the handle is used up.
   * @throws ProverError DESTROYED (a handle already opened or disposed)
   */
  open(handle: WhirHandle): Promise<WhirOpening>;
}

interface HandleState extends WhirHandle {
  committed: WhirCommitment | null;
  challenger: DuplexChallenger;
}

/** Configure WHIR for `options` on `host` (a Prover: its commit encodes and hashes, its grind finds PoW witnesses). */
export function createWhir(host: WhirHost, options: WhirOptions): Whir {
  const { numVariables, params } = whirParameters(options);
  const schedule = deriveWhirSchedule(numVariables, params);
  validateInitialClaims(schedule, 1 + schedule.commitmentOodSamples);
  const backend = hostBackend(host);
  const grind: Grinder = (challenger, bits) => host.grind(challenger, bits);
  const handles = new WeakSet<WhirHandle>();
  return {
    schedule: () => structuredClone(schedule),
    async commit(given) {
      const evals = requireFieldArray('evals', given);
      if (evals.length !== 2 ** numVariables) {
        throw new ProverError('INVALID_LENGTH', `evals has ${evals.length} values; a ${numVariables}-variable polynomial has 2^${numVariables} = ${2 ** numVariables}`);
      }
      const challenger = new DuplexChallenger();
      const transcript = whirProverTranscript(schedule, challenger, grind);
      const committed = await whirCommit(schedule, backend, evals.slice(), transcript);
      const handle: HandleState = {
        root: committed.codeword.root,
        committed,
        challenger,
        dispose() {
          this.committed?.codeword.dispose();
          this.committed = null;
        },
      };
      handles.add(handle);
      return { root: committed.codeword.root, handle };
    },
    async open(given) {
      const handle = given as HandleState;
      if (!handles.has(given) || !handle.committed) {
        throw new ProverError('DESTROYED', 'this WHIR handle was already opened or disposed (or comes from another instance); commit again');
      }
      const committed = handle.committed;
      handle.committed = null;
      try {
        // The transcript continues from the commit's sponge state, as p3's open does.
        const transcript = whirProverTranscript(schedule, handle.challenger, grind);
        return await whirOpen(schedule, backend, committed, transcript);
      } finally {
        committed.codeword.dispose();
      }
    },
  };
}

function hostBackend(host: WhirHost): WhirBackend {
  return {
    sumcheck: cpuSumcheckEngine,
    async commit(coeffs, width, addedBits): Promise<CommittedCodeword> {
      const { root, tree } = await host.commit(coeffs, { width, addedBits });
      return {
        root,
        levels: Math.log2(tree.height),
        async open(index) {
          const { row, siblings } = await tree.open(index);
          return { row, path: siblings };
        },
        dispose: () => tree.dispose(),
      };
    },
  };
}
