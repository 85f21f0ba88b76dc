/**
 * The WHIR facet. `prover.whirCommit(options, evals)` commits (a job method, so it runs where the
 * prover runs: in its worker by default) and returns the root and a `WhirCommitment` handle whose
 * `prove()` makes the opening proof. `prover.whir(options)` wraps both in a configured instance
 * (facade.ts). Encoding and Merkle trees run on the prover's `commit`, PoW on its `grind`, the
 * sumcheck tables on a `SumcheckEngine`; the sequential protocol is prover.ts.
 * @module
 */
import { ProverError } from '../errors.js';
import { DuplexChallenger } from '../ref/challenger.js';
import { requireFieldArray } from '../validate.js';
import type { MerkleTree } from '../api/merkle.js';
import { abortError, requireJobOptions, type JobOptions } from '../sched/job.js';
import { cpuSumcheckEngine, type SumcheckEngineFactory } from './engine.js';
import { deriveWhirSchedule, validateInitialClaims, whirParameters, type WhirOptions } from './params.js';
import { openPhases, whirCommit, whirOpen, type CommittedCodeword, type WhirBackend, type WhirOpening } from './prover.js';
import type { WhirSchedule } from './schedule.js';
import { whirProverTranscript } from './transcript/whir-transcript.js';

export type { WhirOptions, WhirOpening, WhirSchedule };

/** The prover methods WHIR runs on. */
export interface WhirHost {
  commit(coeffs: Uint32Array, options: { width: number; addedBits: number } & JobOptions): Promise<{ root: Uint32Array; tree: MerkleTree }>;
  /** Finds the smallest PoW witness and advances `challenger` past it. */
  grind(challenger: DuplexChallenger, bits: number, job?: JobOptions): Promise<number>;
}

/** A committed polynomial, prover side: `prove()` opens it once. */
export interface WhirCommitment {
  readonly root: Uint32Array;
  /**
   * The opening proof at a point drawn from the transcript (p3-whir's `MultilinearPcs::open`).
   * Progress is reported per protocol phase (claims, initial fold, each round's commit, queries
   * and fold, final); an abort stops at the next phase and leaves the prover usable.
   * @throws ProverError DESTROYED (already proved or disposed), ABORTED, and the commit's and grind's errors
   */
  prove(job?: JobOptions): Promise<WhirOpening>;
  /** Free the codeword on the GPU (prove does this itself). */
  dispose(): void;
}

export interface WhirMethods {
  /**
   * Commit to a multilinear polynomial given by its 2^numVariables evaluations over the hypercube
   * (natural index order, canonical BabyBear values), with the WHIR configuration `options`.
   * @throws ProverError INVALID_ARGUMENT (options; the message names p3-whir's error), INVALID_LENGTH, NON_CANONICAL, ABORTED, and the commit's GPU errors
   * @example const { root, handle } = await prover.whirCommit({ numVariables: 20, foldingFactor: 4, startingLogInvRate: 1 }, evals);
   */
  whirCommit(options: WhirOptions, evals: Uint32Array, job?: JobOptions): Promise<{ root: Uint32Array; handle: WhirCommitment }>;
}

/** The schedule for `options`, checked as p3-whir checks it when opening (one opening claim plus the OOD claims). */
export function whirSchedule(options: WhirOptions): WhirSchedule {
  const { numVariables, params } = whirParameters(options);
  const schedule = deriveWhirSchedule(numVariables, params);
  validateInitialClaims(schedule, 1 + schedule.commitmentOodSamples);
  return schedule;
}

/** The WHIR facet over `host`; `engine` makes the sumcheck tables (default: the TypeScript engine). */
export function whirMethods(host: WhirHost, engine: SumcheckEngineFactory = cpuSumcheckEngine): WhirMethods {
  return {
    async whirCommit(options, given, jobGiven) {
      const schedule = whirSchedule(options);
      const job = requireJobOptions('whirCommit job options', jobGiven);
      const evals = requireFieldArray('evals', given);
      const n = schedule.numVariables;
      if (evals.length !== 2 ** n) {
        throw new ProverError('INVALID_LENGTH', `evals has ${evals.length} values; a ${n}-variable polynomial has 2^${n} = ${2 ** n}`);
      }
      const challenger = new DuplexChallenger();
      const backend = hostBackend(host, engine, job, 'whirCommit', 1);
      backend.phase('commit');
      const committed = await whirCommit(schedule, backend, evals.slice(), whirProverTranscript(schedule, challenger));
      let live: typeof committed | null = committed;
      const handle: WhirCommitment = {
        root: committed.codeword.root,
        async prove(proveJobGiven) {
          const proveJob = requireJobOptions('prove job options', proveJobGiven);
          if (!live) throw new ProverError('DESTROYED', 'this WHIR commitment was already proved or disposed; commit again to make another proof');
          const mine = live;
          live = null;
          try {
            const transcript = whirProverTranscript(schedule, challenger, (c, bits) => host.grind(c, bits, { signal: proveJob.signal }));
            return await whirOpen(schedule, hostBackend(host, engine, proveJob, 'whir prove', openPhases(schedule)), mine, transcript);
          } finally {
            mine.codeword.dispose();
          }
        },
        dispose() {
          live?.codeword.dispose();
          live = null;
        },
      };
      return { root: committed.codeword.root, handle };
    },
  };
}

function hostBackend(host: WhirHost, sumcheck: SumcheckEngineFactory, job: JobOptions, name: string, total: number): WhirBackend {
  let done = 0;
  const sub: JobOptions = { signal: job.signal };
  return {
    sumcheck,
    phase(stage) {
      if (job.signal?.aborted) throw abortError(name, job.signal);
      try {
        job.onProgress?.({ job: name, stage, done: Math.min(done, total), total });
      } catch {
        // A throwing progress callback does not stop the proof (as for every job).
      }
      done++;
    },
    async commit(coeffs, width, addedBits): Promise<CommittedCodeword> {
      const { root, tree } = await host.commit(coeffs, { width, addedBits, ...sub });
      return {
        root,
        levels: Math.log2(tree.height),
        async openMany(indices) {
          const openings = await tree.openMany(indices, sub);
          return openings.map(({ row, siblings }) => ({ row, path: siblings }));
        },
        dispose: () => tree.dispose(),
      };
    },
  };
}
