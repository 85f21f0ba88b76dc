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
import { cpuSumcheckEngine, type SumcheckEngine, type SumcheckEngineFactory } from './engine.js';
import { GpuSumcheckEngine, gpuSumcheckEngine } from './gpu-engine.js';
import { commitEngineEvals, commitTable } from './gpu-commit.js';
import { verifyWhir } from './verifier.js';
import { OpeningsAhead } from './openings-ahead.js';
import type { LiveDevice } from '../device-recovery.js';
import type { CheckMode } from '../sched/job.js';
import { whirSchedule, type WhirOptions } from './options.js';
import {
  disposeCommitment,
  openPhases,
  whirCommit,
  whirOpen,
  type CommittedCodeword,
  type WhirBackend,
  type WhirOpening,
} from './prover.js';
import type { WhirSchedule } from './schedule.js';
import { whirProverTranscript } from './transcript/whir-transcript.js';
import { traceJsonl, tracePermutations } from './transcript/fs-prover.js';
import { requireOpenOptions, type WhirOpenOptions } from './open-options.js';

export { whirSchedule };

export type { WhirOptions, WhirOpening, WhirOpenOptions, WhirSchedule };

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
   * The opening proof at a point drawn from the transcript (p3-whir's `MultilinearPcs::open`), or
   * at `options.point` (`PrescribedPointPcs::open_at`); `options.trace` adds the permutation trace.
   * Progress is reported per protocol phase (tables, claims, initial fold, each round's commit, grind, openings
   * and fold, final); an abort stops at the next phase and leaves the prover usable.
   * A bad option throws before the handle is used, so it can be proved again.
   * @throws ProverError INVALID_ARGUMENT / INVALID_LENGTH / NON_CANONICAL (options, the point), DESTROYED (already proved or disposed), ABORTED, and the commit's and grind's errors
   */
  prove(options?: WhirOpenOptions): Promise<WhirOpening>;
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

/** Where WHIR's own GPU work may run, and how its proofs are checked. */
export interface WhirPaths {
  /** The live GPU device when the commit family runs on it, else null (the TypeScript engine). */
  gpu?: () => Promise<LiveDevice | null>;
  /** The prover's check mode: anything but 'off' verifies each proof before returning it. */
  check?: CheckMode;
  /** Called when a GPU-engine proof failed verification and was made again on the CPU. */
  onGpuFailure?: (reason: string) => void;
}

/**
 * The WHIR facet over `host`. With `paths.gpu`, the sumcheck tables and round commits stay on the
 * GPU; unless the check mode is 'off', every proof is verified (p3-whir's verifier in TS, a few
 * ms) before it is returned, and one the GPU engine got wrong is made again with the TypeScript
 * engine from the same transcript state (CHECK_FAILED only if that fails too).
 */
export function whirMethods(host: WhirHost, paths: WhirPaths = {}): WhirMethods {
  let gpuEngineOk = true;
  return {
    async whirCommit(options, given, jobGiven) {
      const schedule = whirSchedule(options);
      const job = requireJobOptions('whirCommit job options', jobGiven);
      // Values are range-checked on the GPU by the commit below (a host scan of 2^24 values costs ~20 ms).
      const evals = requireFieldArray('evals', given, true);
      const n = schedule.numVariables;
      if (evals.length !== 2 ** n) {
        throw new ProverError('INVALID_LENGTH', `evals has ${evals.length} values; a ${n}-variable polynomial has 2^${n} = ${2 ** n}`);
      }
      const challenger = new DuplexChallenger();
      // The commit's few permutations (35 seed elements + 8 root values, 8 per permutation: 5) are kept,
      // so a traced open covers the whole transcript; an untraced one ignores them.
      const commitTrace = tracePermutations(challenger);
      const backend = hostBackend(host, (await paths.gpu?.()) ?? null, job, 'whirCommit', 1);
      backend.phase('commit');
      const committed = await whirCommit(schedule, backend, evals, whirProverTranscript(schedule, challenger));
      challenger.onPermute = undefined;
      let live: typeof committed | null = committed;
      // The caller gets copies: a result crossing from the worker has its arrays transferred, and
      // prove() still needs the codeword's own root.
      const handle: WhirCommitment = {
        root: committed.codeword.root.slice(),
        async prove(given) {
          const { job: proveJob, point, trace } = requireOpenOptions('prove options', given, schedule.numVariables);
          if (!live)
            throw new ProverError('DESTROYED', 'this WHIR commitment was already proved or disposed; commit again to make another proof');
          const mine = live;
          live = null;
          try {
            const device = gpuEngineOk ? ((await paths.gpu?.()) ?? null) : null;
            const mode = proveJob.check ?? paths.check ?? 'sample';
            // A proof that is verified below needs no checks of its own steps (round codewords,
            // openings): the verifier checks every opening and fold, as p3-whir's does. The commit's
            // checks stay: no proof shows an input corrupted before it was encoded.
            const inner: CheckMode | undefined = mode === 'off' ? undefined : 'off';
            // A checked proof's openings are checked as they are made, beside the prover (openings-ahead.ts).
            const attempt = async (gpu: LiveDevice | null, ahead?: OpeningsAhead) => {
              const ch = challenger.clone();
              // Grinding searches run on clones (untraced); only check_witness's real step is recorded, as in Rust.
              const records = trace ? tracePermutations(ch, commitTrace) : null;
              const transcript = whirProverTranscript(schedule, ch, (c, bits) => host.grind(c, bits, { signal: proveJob.signal }));
              const backend = hostBackend(host, gpu, proveJob, 'whir prove', openPhases(schedule), inner);
              const opening = await whirOpen(schedule, backend, mine, transcript, point, ahead);
              ch.onPermute = undefined;
              return records ? { ...opening, trace: traceJsonl(records) } : opening;
            };
            if (mode === 'off') return await attempt(device);
            /** An attempt and its verification, the openings checked as they are made. */
            const verified = async (gpu: LiveDevice | null) => {
              const ahead = new OpeningsAhead();
              const opening = await attempt(gpu, ahead);
              return { opening, verdict: await verifyWhir(schedule, mine.codeword.root, opening.proof, point, ahead) };
            };
            const { opening, verdict } = await verified(device);
            if (verdict.ok) return opening;
            if (device) {
              gpuEngineOk = false;
              paths.onGpuFailure?.(verdict.error);
              const again = await verified(null);
              if (again.verdict.ok) return again.opening;
            }
            throw new ProverError('CHECK_FAILED', `whir: the proof failed its own verification (${verdict.error}); nothing was returned`);
          } finally {
            disposeCommitment(mine);
          }
        },
        dispose() {
          if (live) disposeCommitment(live);
          live = null;
        },
      };
      return { root: committed.codeword.root.slice(), handle };
    },
  };
}

/** `check`: the sub-jobs' check mode (absent: the prover's). */
function hostBackend(host: WhirHost, gpu: LiveDevice | null, job: JobOptions, name: string, total: number, check?: CheckMode): WhirBackend {
  let done = 0;
  const sub: JobOptions = check ? { signal: job.signal, check } : { signal: job.signal };
  const sumcheck: SumcheckEngineFactory = gpu ? gpuSumcheckEngine(gpu.ctx) : cpuSumcheckEngine;
  const asCodeword = ({ root, tree }: { root: Uint32Array; tree: MerkleTree }): CommittedCodeword => ({
    root,
    levels: Math.log2(tree.height),
    async openMany(indices) {
      const openings = await tree.openMany(indices, sub);
      return openings.map(({ row, siblings }) => ({ row, path: siblings }));
    },
    dispose: () => tree.dispose(),
  });
  return {
    sumcheck,
    async commitEngine(engine: SumcheckEngine, width: number, addedBits: number) {
      if (!gpu || !(engine instanceof GpuSumcheckEngine)) return null;
      if (job.signal?.aborted) throw abortError(name, job.signal);
      const committed = await commitEngineEvals(gpu.ctx, gpu.sched, engine, width, addedBits);
      return committed ? asCodeword(committed) : null;
    },
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
      return asCodeword(await host.commit(coeffs, { width, addedBits, ...sub }));
    },
    async commitTable(evals, width, addedBits) {
      if (!gpu) return { codeword: await this.commit(evals, width, addedBits), table: evals.slice() };
      const { table, ...committed } = await commitTable(gpu.ctx, gpu.sched, evals, width, addedBits, sub);
      return { codeword: asCodeword(committed), table };
    },
  };
}
