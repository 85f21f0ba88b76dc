/**
 * The prover's Fiat–Shamir steps for one commit + open (the `WhirTranscript` the prover calls),
 * played on one `DuplexChallenger` through the seeded sub-transcripts of `separators.ts`, in the
 * order README.md lists. Grinding is injected (`grind`), so the GPU grinder can find witnesses;
 * the default is the CPU search for the smallest witness.
 * @module
 */
import type { DuplexChallenger } from '../../ref/challenger.js';
import type { WhirSchedule } from '../schedule.js';
import type { RoundMessage } from '../sumcheck.js';
import type { SumcheckTranscript, WhirTranscript } from '../prover.js';
import { FsProver, type Ext4 } from './fs-prover.js';
import { whirDomainSeparators, type WhirSeparators } from './separators.js';

/** Finds a PoW witness for `bits` from a copy of the challenger's state (the transcript then checks and absorbs it). */
export type Grinder = (challenger: DuplexChallenger, bits: number) => Promise<number>;

/** The transcript of one commitment's commit and open. */
export function whirProverTranscript(schedule: WhirSchedule, challenger: DuplexChallenger, grind?: Grinder): WhirTranscript {
  const s: WhirSeparators = whirDomainSeparators(schedule);
  const shape = s.shape;
  let whir: FsProver | null = null;
  let ood: FsProver | null = null;
  let opening: FsProver | null = null;
  /** The quadratic phase next to run: 0 initial, 1..rounds, then the final one. */
  let phase = 0;

  const pow = async (fs: FsProver, label: string, bits: number): Promise<number> => {
    if (grind) {
      const w = await grind(challenger.clone(), bits);
      fs.observePowWitness(label, bits, w);
      return w;
    }
    return fs.observePow(label, bits);
  };
  const live = (): FsProver => {
    if (!whir) throw new Error('WHIR transcript used before startWhir()');
    return whir;
  };

  return {
    observeCommitment(root) {
      const fs = FsProver.seed(challenger, s.commitment);
      fs.observeOpaque('commitment', Array.from(root));
      fs.finish();
    },
    virtualPoint() {
      ood = FsProver.seed(challenger, s.ood);
      return ood.challengeExtension('virtual_point');
    },
    virtualAnswer(value) {
      ood!.observeExtension('virtual_eval', value);
      ood!.finish();
      ood = null;
    },
    openingPoint() {
      opening = FsProver.seed(challenger, s.opening);
      return opening.challengeExtension('opening_point');
    },
    openingAnswers(values) {
      opening!.observeExtensions('current_evals', values);
      opening!.finish();
      opening = null;
    },
    openingAnswersAt(values) {
      // eval_at / add_claim_at: the point is the caller's, so nothing about it touches the sponge.
      const fs = FsProver.seed(challenger, s.openingGiven);
      fs.observeExtensions('current_evals', values);
      fs.finish();
    },
    startWhir() {
      whir = FsProver.seed(challenger, s.whir);
    },
    batchingChallenge() {
      live().begin('initial_fold');
      const fs = FsProver.seed(challenger, s.batching);
      const alpha = fs.challengeExtension('batching');
      fs.finish();
      return alpha;
    },
    sumcheck(rounds, powBits): SumcheckTranscript {
      const index = phase++;
      const ds = s.quadratic[index];
      const bracket = index === 0 ? 'initial_fold' : index <= shape.rounds.length ? 'round_fold' : 'final_fold';
      if (index > 0) live().begin(bracket);
      const fs = ds ? FsProver.seed(challenger, ds) : null;
      let played = 0;
      const close = (): void => {
        fs?.finish();
        live().end(bracket);
      };
      if (rounds === 0) close();
      return {
        async round(message: RoundMessage) {
          const [h0, hInf] = message;
          fs!.observeExtensions('round_poly', [h0, hInf]);
          const witness = powBits > 0 ? await pow(fs!, 'round_pow', powBits) : null;
          const r = fs!.challengeExtension('round_challenge') as Ext4;
          if (++played === rounds) close();
          return { r, witness };
        },
      };
    },
    commitment(root) {
      live().observeOpaque('commitment', Array.from(root));
    },
    oodPoint() {
      return live().challengeExtension('ood_point');
    },
    oodAnswer(value) {
      live().observeExtension('ood_answer', value);
    },
    async queryPow(round) {
      const final = round === shape.rounds.length;
      const bits = final ? shape.finalPowBits : shape.rounds[round].queryPowBits;
      if (bits === 0) return 0;
      return pow(live(), final ? 'final_query_pow' : 'query_pow', bits);
    },
    queryIndices(round) {
      const final = round === shape.rounds.length;
      const bits = final ? shape.finalIndexBits : shape.rounds[round].indexBits;
      const draws = final ? shape.finalQueryDraws : shape.rounds[round].queryDraws;
      if (draws === 0) return Array.from({ length: 2 ** bits }, (_, i) => i);
      return live().challengeUniformBits(final ? 'final_query_indices' : 'query_indices', bits, draws);
    },
    roundBatching() {
      return live().challengeExtension('round_batching');
    },
    finalPoly(values) {
      live().observeExtensions('final_poly', values);
    },
    finish() {
      live().finish();
    },
  };
}
