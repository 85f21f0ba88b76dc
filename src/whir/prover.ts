/**
 * The WHIR prover: p3-whir 0.9.0-rc.2's `MultilinearPcs::commit` / `open` for one table of one
 * column with the SuffixProver layout and a verifier-drawn opening point, step for step
 * (pcs/adapter.rs, pcs/prover/mod.rs). Encoding and Merkle trees go through a `WhirBackend`
 * (the prover's GPU commit, or its CPU path); the sequential protocol runs here, and every
 * Fiat–Shamir step goes through a `WhirTranscript`.
 * @module
 */
import { DIGEST } from '../ref/merkle.js';
import { efPowers, efVecToList, type Ext4 } from './ext.js';
import { domainPoint, evalBase, evalExt, expandFromUnivariate } from './multilinear.js';
import type { GpuTable, SumcheckEngine, SumcheckEngineFactory } from './engine.js';
import { prunedSiblings, type Digest } from './multiproof.js';
import { emptySumcheck, type PcsProof, type QueryOpenings, type SumcheckData, type WhirRoundProof } from './proof.js';
import type { WhirSchedule } from './schedule.js';
import type { OpeningsAhead } from './openings-ahead.js';
import type { RoundMessage } from './sumcheck.js';

/** A committed codeword: its root and the rows + authentication paths the queries open. */
export interface CommittedCodeword {
  root: Uint32Array;
  /** Rows `indices` of the codeword (flattened base values) and their sibling digests, leaf level first, in one request. */
  openMany(indices: number[]): Promise<{ row: Uint32Array; path: Uint32Array[] }[]>;
  /** log2 of the codeword's height. */
  levels: number;
  dispose(): void;
}

/** Where the work runs: the encode-and-commit (`coeffs` row-major, `width` columns, blow-up 2^addedBits) and the sumcheck tables. */
export interface WhirBackend {
  commit(coeffs: Uint32Array, width: number, addedBits: number): Promise<CommittedCodeword>;
  /**
   * Commit the polynomial's table as commit() does and keep it for the sumcheck engine: on the
   * GPU, the upload itself; on the host, a copy (the caller's array may change before prove).
   */
  commitTable(evals: Uint32Array, width: number, addedBits: number): Promise<{ codeword: CommittedCodeword; table: KeptTable }>;
  /** Commit the engine's current evaluations where they are (no readback); null when it cannot. */
  commitEngine?(engine: SumcheckEngine, width: number, addedBits: number): Promise<CommittedCodeword | null>;
  sumcheck: SumcheckEngineFactory;
  /** Called as each phase starts (the caller's abort and progress point): tables, claims, initial fold, round i commit/grind/openings/fold, final. */
  phase(stage: string): void;
}

/** How many `phase` calls an open of `schedule` makes. */
export function openPhases(schedule: WhirSchedule): number {
  return 4 + 4 * schedule.rounds.length;
}

/** The Fiat–Shamir steps of commit and open, in p3's order (each does exactly Rust's sponge work). */
export interface WhirTranscript {
  /** The layout's commitment sub-transcript: seed, then the root. */
  observeCommitment(root: Uint32Array): void;
  /** The layout's OOD sub-transcript: seed, draw z (the caller evaluates and calls `virtualAnswer`). */
  virtualPoint(): Ext4;
  virtualAnswer(value: Ext4): void;
  /** The layout's opening sub-transcript: seed, draw z; then the evaluations. */
  openingPoint(): Ext4;
  openingAnswers(values: Ext4[]): void;
  /**
   * The layout's opening sub-transcript at a caller-given point (`eval_at`, `PointSource::Given`):
   * seed, then the evaluations; the point itself is not absorbed.
   */
  openingAnswersAt(values: Ext4[]): void;
  /** Seed WHIR's own transcript (WhirProverTranscript::new). */
  startWhir(): void;
  /** The layout's batching sub-transcript: seed, draw α. */
  batchingChallenge(): Ext4;
  /** A quadratic-sumcheck sub-transcript of `rounds` rounds with `powBits` grinding per round. */
  sumcheck(rounds: number, powBits: number): SumcheckTranscript;
  commitment(root: Uint32Array): void;
  oodPoint(): Ext4;
  oodAnswer(value: Ext4): void;
  /** Grind the query PoW of `round` (the terminal one at round = number of rounds); 0 when its bits are 0. */
  queryPow(round: number): Promise<number>;
  queryIndices(round: number): number[];
  roundBatching(): Ext4;
  finalPoly(values: Ext4[]): void;
  /** Check every step of WHIR's pattern was played. */
  finish(): void;
}

export interface SumcheckTranscript {
  /** Observe [h(0), h(∞)], grind if the phase has pow bits, draw r. */
  round(message: RoundMessage): Promise<{ r: Ext4; witness: number | null }>;
}

/** The committed table as the commitment keeps it: host values, or a GPU buffer it frees with `release`. */
export type KeptTable = Uint32Array | (GpuTable & { release(): void });

/** What commit leaves for open: the evaluations and the committed codeword. */
export interface WhirCommitment {
  table: KeptTable;
  codeword: CommittedCodeword;
}

/** Free what a commitment holds (the codeword's tree, a table on the GPU); safe to call twice. */
export function disposeCommitment(c: WhirCommitment): void {
  c.codeword.dispose();
  if (!(c.table instanceof Uint32Array)) c.table.release();
}

/** Commit 2^n base-field evaluations: the message is the table as rows of 2^fold0 (suffix layout). */
export async function whirCommit(
  schedule: WhirSchedule,
  backend: WhirBackend,
  evals: Uint32Array,
  transcript: WhirTranscript,
): Promise<WhirCommitment> {
  const fold0 = schedule.foldingSchedule[0];
  const { codeword, table } = await backend.commitTable(evals, 2 ** fold0, schedule.params.startingLogInvRate);
  transcript.observeCommitment(codeword.root);
  return { table, codeword };
}

/** The opening: the point (drawn by the transcript, or the caller's), the value there, and the proof. */
export interface WhirOpening {
  /** n coordinates, x_0 (the index's most significant bit) first: p3's `Point` order. */
  point: Ext4[];
  /**
   * 'drawn': the transcript chose the point (`MultilinearPcs::open`); 'given': the caller did
   * (`PrescribedPointPcs::open_at`), and a verifier needs the point too.
   */
  pointSource: 'drawn' | 'given';
  value: Ext4;
  proof: PcsProof;
  /** With `trace: true`: every challenger permutation of the commit and the open, as JSONL (the oracle's `--trace` format). */
  trace?: string;
}

/**
 * Open a commitment at a point drawn from the transcript (the standalone-PCS convention), or at
 * `given` (p3-whir's `open_at`: the same transcript without the `opening_point` draw). With
 * `ahead`, each round's openings are checked as they are made, for the verifier (openings-ahead.ts).
 */
export async function whirOpen(
  schedule: WhirSchedule,
  backend: WhirBackend,
  committed: WhirCommitment,
  transcript: WhirTranscript,
  given?: Ext4[],
  ahead?: OpeningsAhead,
): Promise<WhirOpening> {
  backend.phase('tables');
  const engine = await backend.sumcheck(committed.table);
  // The rounds' codewords; each is freed once the next round has opened it, and all of them here
  // if the open fails or is aborted midway (dispose is idempotent).
  const rounds: CommittedCodeword[] = [];
  try {
    return await openWith(schedule, backend, committed, transcript, engine, given, rounds, ahead);
  } finally {
    engine.dispose();
    for (const c of rounds) c.dispose();
  }
}

/** Draw a point (expanded from the univariate draw to m variables), evaluate there, answer. */
async function drawnClaim(
  engine: SumcheckEngine,
  m: number,
  draw: () => Ext4,
  answer: (value: Ext4) => void,
): Promise<{ point: Ext4[]; value: Ext4 }> {
  const point = expandFromUnivariate(draw(), m);
  const value = await engine.evaluate(point);
  answer(value);
  return { point, value };
}

async function openWith(
  schedule: WhirSchedule,
  backend: WhirBackend,
  committed: WhirCommitment,
  transcript: WhirTranscript,
  engine: SumcheckEngine,
  given: Ext4[] | undefined,
  owned: CommittedCodeword[],
  ahead: OpeningsAhead | undefined,
): Promise<WhirOpening> {
  const n = schedule.numVariables;
  backend.phase('claims');
  // Claims in α-power order: the opening first, then the OOD (virtual) claims drawn before it.
  const virtual: { point: Ext4[]; value: Ext4 }[] = [];
  for (let i = 0; i < schedule.commitmentOodSamples; i++) {
    virtual.push(
      await drawnClaim(
        engine,
        n,
        () => transcript.virtualPoint(),
        (v) => transcript.virtualAnswer(v),
      ),
    );
  }
  const openingPoint = given ? given.map((c) => [...c] as Ext4) : expandFromUnivariate(transcript.openingPoint(), n);
  const openingValue = await engine.evaluate(openingPoint);
  if (given) transcript.openingAnswersAt([openingValue]);
  else transcript.openingAnswers([openingValue]);

  transcript.startWhir();
  const alpha = transcript.batchingChallenge();
  const claims = [{ point: openingPoint, value: openingValue }, ...virtual];
  const alphas = efPowers(alpha, claims.length);
  await engine.addClaims(
    claims.map((c, i) => ({ ...c, coeff: alphas[i] })),
    [],
  );
  backend.phase('initial fold');
  const initial = await runSumcheck(engine, transcript, schedule.foldingSchedule[0], schedule.startingFoldingPowBits);

  let foldingRandomness = initial.challenges;
  let previous: { codeword: CommittedCodeword; kind: 'Base' | 'Extension' } = { codeword: committed.codeword, kind: 'Base' };
  const rounds: WhirRoundProof[] = [];
  for (let i = 0; i < schedule.rounds.length; i++) {
    const round = schedule.rounds[i];
    const nextFold = schedule.foldingSchedule[i + 1];
    const m = engine.numVariables;
    backend.phase(`round ${i} commit`);
    const width = 4 * 2 ** nextFold;
    const codeword =
      (await backend.commitEngine?.(engine, width, round.logInvRate)) ??
      (await backend.commit(await engine.evals(), width, round.logInvRate));
    owned.push(codeword);
    transcript.commitment(codeword.root);

    const ood: { point: Ext4[]; value: Ext4 }[] = [];
    for (let j = 0; j < round.oodSamples; j++) {
      ood.push(
        await drawnClaim(
          engine,
          m,
          () => transcript.oodPoint(),
          (v) => transcript.oodAnswer(v),
        ),
      );
    }
    backend.phase(`round ${i} grind`);
    const powWitness = await transcript.queryPow(i);
    backend.phase(`round ${i} openings`);
    const indices = transcript.queryIndices(i);
    const queryPoint = [...foldingRandomness].reverse();
    const openings = await openRows(previous.codeword, previous.kind, indices);
    ahead?.add({
      indices,
      openings: openings.proof,
      root: previous.codeword.root,
      levels: previous.codeword.levels,
      logFolded: round.logFoldedDomainSize,
      folding: foldingRandomness,
      what: `round ${i}`,
    });
    const selectValues = openings.flat.map((row) => (previous.kind === 'Base' ? evalBase(row, queryPoint) : evalExt(row, queryPoint)));

    const gamma = transcript.roundBatching();
    const gammas = efPowers(gamma, 1 + ood.length + indices.length);
    await engine.addClaims(
      ood.map((c, j) => ({ ...c, coeff: gammas[1 + j] })),
      indices.map((index, j) => ({
        x: domainPoint(round.logFoldedDomainSize, index),
        coeff: gammas[1 + ood.length + j],
        value: selectValues[j],
      })),
    );
    backend.phase(`round ${i} fold`);
    const folded = await runSumcheck(engine, transcript, nextFold, round.foldingPowBits);
    foldingRandomness = folded.challenges;
    if (previous.kind === 'Extension') previous.codeword.dispose();
    previous = { codeword, kind: 'Extension' };
    rounds.push({
      commitment: codeword.root,
      oodAnswers: ood.map((c) => c.value),
      powWitness,
      openings: openings.proof,
      sumcheck: folded.data,
    });
  }

  backend.phase('final');
  const finalValues = efVecToList(await engine.evals());
  transcript.finalPoly(finalValues);
  const finalPowWitness = await transcript.queryPow(schedule.rounds.length);
  const finalIndices = transcript.queryIndices(schedule.rounds.length);
  const finalOpenings = await openRows(previous.codeword, previous.kind, finalIndices);
  ahead?.add({
    indices: finalIndices,
    openings: finalOpenings.proof,
    root: previous.codeword.root,
    levels: previous.codeword.levels,
    logFolded: previous.codeword.levels,
    folding: foldingRandomness,
    what: 'final',
  });
  const finalSumcheck =
    schedule.finalSumcheckRounds > 0
      ? (await runSumcheck(engine, transcript, schedule.finalSumcheckRounds, schedule.finalFoldingPowBits)).data
      : null;
  if (previous.kind === 'Extension') previous.codeword.dispose();
  transcript.finish();

  return {
    point: openingPoint,
    pointSource: given ? 'given' : 'drawn',
    value: openingValue,
    proof: {
      whir: {
        initialOodAnswers: virtual.map((v) => v.value),
        initialSumcheck: initial.data,
        rounds,
        finalPoly: finalValues,
        finalPowWitness,
        finalOpenings: finalOpenings.proof,
        finalSumcheck,
      },
      evaluation: openingValue,
    },
  };
}

/** `rounds` sumcheck rounds: message out, (grind,) challenge in, bind. Returns the challenges in sampling order. */
async function runSumcheck(
  engine: SumcheckEngine,
  transcript: WhirTranscript,
  rounds: number,
  powBits: number,
): Promise<{ challenges: Ext4[]; data: SumcheckData }> {
  const phase = transcript.sumcheck(rounds, powBits);
  const data = emptySumcheck();
  const challenges: Ext4[] = [];
  for (let i = 0; i < rounds; i++) {
    const message = await engine.roundMessage();
    const { r, witness } = await phase.round(message);
    data.polynomialEvaluations.push(message);
    if (witness !== null) data.powWitnesses.push(witness);
    await engine.bind(message, r);
    challenges.push(r);
  }
  return { challenges, data };
}

/** Open `indices` (draw order, repeats kept) of a codeword: the rows and the pruned multiproof. */
async function openRows(
  codeword: CommittedCodeword,
  kind: 'Base' | 'Extension',
  indices: number[],
): Promise<{ proof: QueryOpenings; flat: Uint32Array[] }> {
  const unique = [...new Set(indices)];
  const openings = await codeword.openMany(unique);
  const opened = new Map(unique.map((i, k) => [i, openings[k]] as const));
  const paths = new Map<number, Digest[]>([...opened].map(([i, o]) => [i, o.path.map((d) => d.subarray(0, DIGEST))]));
  const siblingHashes = prunedSiblings(indices, codeword.levels, paths);
  const flat = indices.map((i) => opened.get(i)!.row);
  if (kind === 'Base') return { proof: { kind, rows: flat, siblingHashes }, flat };
  return { proof: { kind, rows: flat.map(efVecToList), siblingHashes }, flat };
}
