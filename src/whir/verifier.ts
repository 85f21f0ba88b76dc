/**
 * The WHIR verifier in TypeScript: p3-whir 0.9.0-rc.2's `MultilinearPcs::verify` for one table of
 * one column (pcs/adapter.rs `verify`, pcs/verifier/mod.rs `replay`), in suffix order. It replays
 * the transcript with the proof's messages, checks every PoW witness and Merkle multiproof, folds
 * the opened rows, and checks the final claim: claimed sum = Σ constraint weights at the folding
 * randomness × final polynomial there.
 * @module
 */
import { DuplexChallenger } from '../ref/challenger.js';
import { bbMulFast } from '../field/babybear-fast.js';
import { bbAdd, bbSub } from '../field/babybear.js';
import { EF_ONE, EF_ZERO, efAdd, efEquals, efMul, efPowers, efScale, efVecFromList, type Ext4 } from './ext.js';
import { eqAt, evalExt, evalUnivariateExt, expandFromUnivariate } from './multilinear.js';
import type { PcsProof, SumcheckData } from './proof.js';
import { Reject, stirClaims, type SelectClaim, type StirInput } from './stir-claims.js';
import type { OpeningsAhead } from './openings-ahead.js';
import type { WhirSchedule } from './schedule.js';
import { nextSum } from './sumcheck.js';
import { whirProverTranscript } from './transcript/whir-transcript.js';
import { whirShape } from './transcript/separators.js';
import type { WhirTranscript } from './prover.js';

export type WhirVerdict = { ok: true } | { ok: false; error: string };

/** One batched constraint: eq claims and select claims with their coefficients, over `numVariables`. */
interface Constraint {
  numVariables: number;
  eq: { point: Ext4[]; coeff: Ext4 }[];
  select: { x: number; coeff: Ext4 }[];
}

/**
 * Verify `proof` for the commitment `root` under `schedule`: at the point the transcript draws
 * (`MultilinearPcs::verify`), or at `point` when given (`PrescribedPointPcs::verify_at`, with the
 * commitment observed first as the caller of verify_at does). Never throws on a bad proof.
 * `ahead`: the openings the prover of `proof` had checked as it made them (openings-ahead.ts).
 */
export async function verifyWhir(
  schedule: WhirSchedule,
  root: Uint32Array,
  proof: PcsProof,
  point?: readonly Ext4[],
  ahead?: OpeningsAhead,
): Promise<WhirVerdict> {
  try {
    await ahead?.settled();
    const stir = (input: StirInput) => (ahead ? ahead.claims(input) : stirClaims(input));
    await replay(schedule, root, proof, point, stir);
    return { ok: true };
  } catch (e) {
    if (e instanceof Reject) return { ok: false, error: e.message };
    return { ok: false, error: `transcript: ${(e as Error).message}` };
  }
}

async function replay(
  schedule: WhirSchedule,
  root: Uint32Array,
  proof: PcsProof,
  given: readonly Ext4[] | undefined,
  stir: (input: StirInput) => SelectClaim[],
): Promise<void> {
  const w = proof.whir;
  const shape = whirShape(schedule, 1);
  const n = schedule.numVariables;
  if (w.rounds.length !== schedule.rounds.length) throw new Reject(`${w.rounds.length} rounds, the schedule has ${schedule.rounds.length}`);
  if (w.initialOodAnswers.length !== schedule.commitmentOodSamples) throw new Reject('wrong number of initial OOD answers');
  if (schedule.finalSumcheckRounds > 0 !== (w.finalSumcheck !== null))
    throw new Reject('final sumcheck presence does not match the schedule');
  w.rounds.forEach((r, i) => {
    if (shape.rounds[i].queryPowBits === 0 && r.powWitness !== 0) throw new Reject(`round ${i}: non-zero witness for a zero-bit PoW`);
  });
  if (shape.finalPowBits === 0 && w.finalPowWitness !== 0) throw new Reject('final: non-zero witness for a zero-bit PoW');

  // The transcript is the prover's, with the proof's witnesses handed over as "ground" ones (checked there).
  let pending = 0;
  const challenger = new DuplexChallenger();
  const t: WhirTranscript = whirProverTranscript(schedule, challenger, async () => pending);

  t.observeCommitment(root);
  const claims: { point: Ext4[]; value: Ext4 }[] = [];
  for (const answer of w.initialOodAnswers) {
    const point = expandFromUnivariate(t.virtualPoint(), n);
    t.virtualAnswer(answer);
    claims.push({ point, value: answer });
  }
  if (given && given.length !== n) throw new Reject(`the opening point has ${given.length} coordinates, expected ${n}`);
  const opening = { point: given ? [...given] : expandFromUnivariate(t.openingPoint(), n), value: proof.evaluation };
  if (given) t.openingAnswersAt([proof.evaluation]);
  else t.openingAnswers([proof.evaluation]);
  t.startWhir();
  const alpha = t.batchingChallenge();
  const ordered = [opening, ...claims];
  const alphas = efPowers(alpha, ordered.length);
  const constraints: Constraint[] = [{ numVariables: n, eq: ordered.map((c, i) => ({ point: c.point, coeff: alphas[i] })), select: [] }];
  let claimed = ordered.reduce((s, c, i) => efAdd(s, efMul(alphas[i], c.value)), EF_ZERO);

  const sumcheck = async (data: SumcheckData, rounds: number, powBits: number, what: string): Promise<Ext4[]> => {
    if (data.polynomialEvaluations.length !== rounds)
      throw new Reject(`${what}: ${data.polynomialEvaluations.length} sumcheck rounds, expected ${rounds}`);
    if (data.powWitnesses.length !== (powBits > 0 ? rounds : 0)) throw new Reject(`${what}: wrong number of sumcheck PoW witnesses`);
    const phase = t.sumcheck(rounds, powBits);
    const rs: Ext4[] = [];
    for (const [k, message] of data.polynomialEvaluations.entries()) {
      pending = powBits > 0 ? data.powWitnesses[k] : 0;
      const { r } = await phase.round(message);
      claimed = nextSum(claimed, message, r);
      rs.push(r);
    }
    return rs;
  };

  const randomness: Ext4[][] = [
    await sumcheck(w.initialSumcheck, schedule.foldingSchedule[0], schedule.startingFoldingPowBits, 'initial fold'),
  ];
  let previousRoot = root;
  for (let i = 0; i < schedule.rounds.length; i++) {
    const round = schedule.rounds[i];
    const rp = w.rounds[i];
    if (rp.oodAnswers.length !== round.oodSamples) throw new Reject(`round ${i}: wrong number of OOD answers`);
    t.commitment(rp.commitment);
    const eq = rp.oodAnswers.map((answer) => {
      const point = expandFromUnivariate(t.oodPoint(), round.numVariables);
      t.oodAnswer(answer);
      return { point, value: answer };
    });
    pending = rp.powWitness;
    await t.queryPow(i);
    const select = stir({
      indices: t.queryIndices(i),
      openings: rp.openings,
      root: previousRoot,
      levels: shape.rounds[i].indexBits,
      logFolded: round.logFoldedDomainSize,
      folding: randomness[randomness.length - 1],
      what: `round ${i}`,
    });
    const gamma = t.roundBatching();
    const gammas = efPowers(gamma, 1 + eq.length + select.length);
    constraints.push({
      numVariables: round.numVariables,
      eq: eq.map((c, j) => ({ point: c.point, coeff: gammas[1 + j] })),
      select: select.map((c, j) => ({ x: c.x, coeff: gammas[1 + eq.length + j] })),
    });
    [...eq, ...select].forEach((c, j) => {
      claimed = efAdd(claimed, efMul(gammas[1 + j], c.value));
    });
    randomness.push(await sumcheck(rp.sumcheck, schedule.foldingSchedule[i + 1], round.foldingPowBits, `round ${i}`));
    previousRoot = rp.commitment;
  }

  const finalVars = schedule.numVariables - schedule.foldingSchedule.reduce((a, b) => a + b, 0);
  if (w.finalPoly.length !== 2 ** finalVars) throw new Reject(`final polynomial has ${w.finalPoly.length} values, expected 2^${finalVars}`);
  t.finalPoly(w.finalPoly);
  pending = w.finalPowWitness;
  const last = schedule.rounds.length;
  await t.queryPow(last);
  const finalSelect = stir({
    indices: t.queryIndices(last),
    openings: w.finalOpenings,
    root: previousRoot,
    levels: shape.finalIndexBits,
    logFolded: shape.finalIndexBits,
    folding: randomness[randomness.length - 1],
    what: 'final',
  });
  const finalPoly = efVecFromList(w.finalPoly);
  finalSelect.forEach((c, j) => {
    if (!efEquals(evalUnivariateExt(finalPoly, c.x), c.value))
      throw new Reject(`final: opened row ${j} does not fold to the final polynomial`);
  });
  const finalRs = w.finalSumcheck
    ? await sumcheck(w.finalSumcheck, schedule.finalSumcheckRounds, schedule.finalFoldingPowBits, 'final fold')
    : [];
  randomness.push(finalRs);
  t.finish();

  const all = randomness.flat();
  const reversed = [...all].reverse();
  let weight = EF_ZERO;
  for (const c of constraints) weight = efAdd(weight, constraintWeight(c, reversed.slice(0, c.numVariables)));
  const finalValue = evalExt(finalPoly, [...finalRs].reverse());
  if (!efEquals(claimed, efMul(weight, finalValue)))
    throw new Reject('final sumcheck claim does not match the constraints times the final polynomial');
}

/** Σ coeff·eq(point, c) + Σ coeff·Π_i((1 - c_i) + c_i·x^(2^(m-1-i))) at the local challenge c. */
function constraintWeight(c: Constraint, local: Ext4[]): Ext4 {
  let acc = EF_ZERO;
  for (const e of c.eq) acc = efAdd(acc, efMul(e.coeff, eqAt(e.point, local)));
  const m = local.length;
  for (const s of c.select) {
    // Last variable first, so x^(2^(m-1-i)) comes from one squaring per step; (1 - c) + c·y = 1 + c·(y - 1).
    let prod = EF_ONE;
    let xPow = s.x;
    for (let i = m - 1; i >= 0; i--) {
      const term = efScale(local[i], bbSub(xPow, 1));
      term[0] = bbAdd(term[0], 1);
      prod = efMul(prod, term);
      xPow = bbMulFast(xPow, xPow);
    }
    acc = efAdd(acc, efMul(s.coeff, prod));
  }
  return acc;
}
