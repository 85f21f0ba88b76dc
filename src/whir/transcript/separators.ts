/**
 * Every sub-transcript a p3-whir 0.9.0-rc.2 `open` seeds, built from a `WhirSchedule`:
 * - "p3-whir" v3: `WhirShape::new` / `pattern` / `domain_separator` (p3-whir `src/transcript/mod.rs`);
 * - "p3-sumcheck-quadratic" v1: `SumcheckShape` (p3-sumcheck `src/transcript.rs`), label `[basis]`;
 * - "p3-sumcheck-layout-{commitment,opening,ood,batching}" v1 (p3-sumcheck `src/layout/transcript.rs`),
 *   labels from `LayoutBinding::bind`.
 * The layout is `SuffixProver` (reverse_selectors false, Suffix) with tables as given (default: one
 * table of one column over all `numVariables`), one opening batch of column 0 at a drawn point.
 * @module
 */
import type { WhirSchedule, SoundnessAssumption, FoldingFactorSpec } from '../schedule.js';
import { domainSeparator, LabelBuilder, type DomainSeparator } from './domain-separator.js';
import { delegation, step, TAG_EF, type Interaction } from './pattern.js';

/** One delegated sumcheck phase: rounds and per-round grinding. */
export interface SumcheckPhase {
  rounds: number;
  powBits: number;
}

/** One intermediate round as `WhirRoundShape` sees it. */
export interface WhirRoundShape {
  oodSamples: number;
  queryPowBits: number;
  /** 0 when `numQueries >= folded domain`: every position opens, nothing is drawn. */
  queryDraws: number;
  indexBits: number;
  sumcheck: SumcheckPhase;
  logInvRate: number;
}

/** p3-whir's `WhirShape` (stratified queries and a domain id are not supported: p3-whir's defaults are off/empty). */
export interface WhirShape {
  numVariables: number;
  commitmentOodSamples: number;
  numOpeningClaims: number;
  commitmentRowWidth: number;
  initialSumcheck: SumcheckPhase;
  rounds: WhirRoundShape[];
  finalPolyLen: number;
  finalPowBits: number;
  finalQueryDraws: number;
  finalIndexBits: number;
  finalSumcheck: SumcheckPhase;
}

const log2 = (x: number): number => {
  const l = Math.log2(x);
  if (!Number.isInteger(l)) throw new Error(`${x} is not a power of two`);
  return l;
};
const queryDraws = (folded: number, numQueries: number): number => (numQueries >= folded ? 0 : numQueries);

/** `WhirShape::new(config, num_opening_claims)`. */
export function whirShape(s: WhirSchedule, numOpeningClaims = 1): WhirShape {
  if (s.stratifiedQueries || s.domainId.length > 0) throw new Error('whirShape: stratified queries / a domain id are not supported');
  const fold = (i: number): number => s.foldingSchedule[i];
  const rounds = s.rounds.map((r, i) => {
    const folded = r.domainSize / 2 ** fold(i);
    return {
      oodSamples: r.oodSamples,
      queryPowBits: r.powBits,
      queryDraws: queryDraws(folded, r.numQueries),
      indexBits: log2(folded),
      sumcheck: { rounds: fold(i + 1), powBits: r.foldingPowBits },
      logInvRate: r.logInvRate,
    };
  });
  // WhirConfig::final_round_config: the last round's domain shrunk by its RS reduction, or the starting domain.
  const n = s.rounds.length;
  let finalDomain: number, finalVars: number;
  if (n === 0) {
    finalDomain = 2 ** (s.numVariables + s.params.startingLogInvRate);
    finalVars = s.numVariables - fold(0);
  } else {
    const last = s.rounds[n - 1];
    const prevRate = n === 1 ? s.params.startingLogInvRate : s.rounds[n - 2].logInvRate;
    finalDomain = last.domainSize / 2 ** (prevRate + fold(n - 1) - last.logInvRate);
    finalVars = last.numVariables - fold(n);
  }
  const finalFolded = finalDomain / 2 ** fold(n);
  return {
    numVariables: s.numVariables,
    commitmentOodSamples: s.commitmentOodSamples,
    numOpeningClaims,
    commitmentRowWidth: 2 ** fold(0),
    initialSumcheck: { rounds: fold(0), powBits: s.startingFoldingPowBits },
    rounds,
    finalPolyLen: 2 ** finalVars,
    finalPowBits: s.terminal.powBits,
    finalQueryDraws: queryDraws(finalFolded, s.terminal.numQueries),
    finalIndexBits: log2(finalFolded),
    finalSumcheck: { rounds: s.finalSumcheckRounds, powBits: s.finalFoldingPowBits },
  };
}

const pushPow = (out: Interaction[], label: string, bits: number): void => {
  if (bits > 0) out.push(step.pow(label, bits));
};
const pushQueries = (out: Interaction[], label: string, bits: number, draws: number): void => {
  if (draws > 0) out.push(step.uniformBits(label, bits, draws));
};

/** `WhirShape::pattern`. */
export function whirSteps(sh: WhirShape): Interaction[] {
  const out: Interaction[] = [...delegation('initial_fold')];
  for (const r of sh.rounds) {
    out.push(step.opaque('Message', 'commitment'));
    for (let i = 0; i < r.oodSamples; i++) {
      out.push(step.algebra('Challenge', 'ood_point', 'Scalar'), step.algebra('Message', 'ood_answer', 'Scalar'));
    }
    pushPow(out, 'query_pow', r.queryPowBits);
    pushQueries(out, 'query_indices', r.indexBits, r.queryDraws);
    out.push(step.algebra('Challenge', 'round_batching', 'Scalar'), ...delegation('round_fold'));
  }
  out.push(step.algebra('Message', 'final_poly', { fixed: sh.finalPolyLen }));
  pushPow(out, 'final_query_pow', sh.finalPowBits);
  pushQueries(out, 'final_query_indices', sh.finalIndexBits, sh.finalQueryDraws);
  if (sh.finalSumcheck.rounds > 0) out.push(...delegation('final_fold'));
  return out;
}

const SOUNDNESS: Record<SoundnessAssumption, number> = { UniqueDecoding: 0, JohnsonBound: 1, CapacityBound: 2 };

/** `bind_folding_factor`: the variant discriminant, then its numbers. */
function bindFolding(l: LabelBuilder, f: FoldingFactorSpec): void {
  if (f.kind === 'Constant') l.u64(0).u64(f.factor);
  else if (f.kind === 'ConstantFromSecondRound') l.u64(1).u64(f.first).u64(f.rest);
  else {
    l.u64(2).u64(f.factors.length);
    for (const x of f.factors) l.u64(x);
  }
}

/** `WhirShape::domain_separator`: "p3-whir" v3. */
export function whirSeparator(s: WhirSchedule, numOpeningClaims = 1): DomainSeparator {
  const sh = whirShape(s, numOpeningClaims);
  const l = new LabelBuilder()
    .u64(sh.numVariables)
    .u64(sh.commitmentOodSamples)
    .u64(sh.numOpeningClaims)
    .u64(sh.commitmentRowWidth)
    .u64(s.params.securityLevel)
    .u64(s.params.powBits)
    .u64(s.params.startingLogInvRate)
    .u64(SOUNDNESS[s.params.soundness]);
  bindFolding(l, s.params.foldingFactor);
  l.u64(sh.initialSumcheck.rounds).u64(sh.initialSumcheck.powBits).u64(sh.finalSumcheck.rounds).u64(sh.finalSumcheck.powBits);
  l.u64(sh.rounds.length);
  for (const r of sh.rounds) l.u64(r.logInvRate).u64(r.sumcheck.rounds).u64(r.sumcheck.powBits);
  return domainSeparator(3, 'p3-whir', whirSteps(sh), l.bytes());
}

/** "p3-sumcheck-quadratic" v1 with `Basis::Evaluation` (label `[0]`). Never seeded when rounds = 0. */
export function quadraticSeparator(phase: SumcheckPhase): DomainSeparator {
  const steps: Interaction[] = [];
  for (let i = 0; i < phase.rounds; i++) {
    steps.push(step.algebra('Message', 'round_poly', { fixed: 2 }));
    pushPow(steps, 'round_pow', phase.powBits);
    steps.push(step.algebra('Challenge', 'round_challenge', 'Scalar'));
  }
  return domainSeparator(1, 'p3-sumcheck-quadratic', steps, new LabelBuilder().byte(0).bytes());
}

/** p3-sumcheck's `LayoutBinding`: stacked arity, strategy, table shapes. */
export interface LayoutBinding {
  numVariables: number;
  reverseSelectors: boolean;
  variableOrder: 'Prefix' | 'Suffix';
  tables: { numVariables: number; width: number }[];
}

/** SuffixProver over one table of one column of `n` variables. */
export function suffixBinding(n: number): LayoutBinding {
  return { numVariables: n, reverseSelectors: false, variableOrder: 'Suffix', tables: [{ numVariables: n, width: 1 }] };
}

function bindLayout(b: LayoutBinding): LabelBuilder {
  const l = new LabelBuilder()
    .u64(b.numVariables)
    .byte(b.reverseSelectors ? 1 : 0)
    .byte(b.variableOrder === 'Suffix' ? 1 : 0);
  l.u64(b.tables.length);
  for (const t of b.tables) l.u64(t.numVariables).u64(t.width);
  return l;
}

/** "p3-sumcheck-layout-commitment" v1: one opaque step, empty label. */
export function layoutCommitmentSeparator(): DomainSeparator {
  return domainSeparator(1, 'p3-sumcheck-layout-commitment', [step.opaque('Message', 'commitment')]);
}

/** "p3-sumcheck-layout-ood" v1: `virtual_point` drawn, `virtual_eval` observed. */
export function layoutOodSeparator(b: LayoutBinding): DomainSeparator {
  const steps = [step.algebra('Challenge', 'virtual_point', 'Scalar'), step.algebra('Message', 'virtual_eval', 'Scalar')];
  return domainSeparator(1, 'p3-sumcheck-layout-ood', steps, bindLayout(b).bytes());
}

/** One opening batch (`OpeningShape`): the columns opened directly (`current`) and via the successor view (`next`). */
export interface OpeningBatchShape {
  tableIndex: number;
  current: number[];
  next: number[];
  pointDrawn: boolean;
}

/** "p3-sumcheck-layout-opening" v1. */
export function layoutOpeningSeparator(b: LayoutBinding, o: OpeningBatchShape): DomainSeparator {
  const steps: Interaction[] = [];
  if (o.pointDrawn) steps.push(step.algebra('Challenge', 'opening_point', 'Scalar'));
  if (o.current.length > 0) steps.push(step.algebra('Message', 'current_evals', { fixed: o.current.length }));
  if (o.next.length > 0) steps.push(step.algebra('Message', 'next_evals', { fixed: o.next.length }));
  const l = bindLayout(b).u64(o.tableIndex).u64(b.tables[o.tableIndex].numVariables);
  l.u64(o.current.length);
  for (const c of o.current) l.u64(c);
  l.u64(o.next.length);
  for (const c of o.next) l.u64(c);
  return domainSeparator(1, 'p3-sumcheck-layout-opening', steps, l.bytes());
}

/** "p3-sumcheck-layout-batching" v1: one EF challenge; both claim counts in the label. */
export function layoutBatchingSeparator(b: LayoutBinding, numClaims: number, numVirtualClaims: number): DomainSeparator {
  const steps = [step.algebra('Challenge', 'batching', 'Scalar', TAG_EF)];
  return domainSeparator(1, 'p3-sumcheck-layout-batching', steps, bindLayout(b).u64(numClaims).u64(numVirtualClaims).bytes());
}

/** Every separator one standard `open` (one table, one column, one opening of column 0, drawn or given) seeds. */
export interface WhirSeparators {
  commitment: DomainSeparator;
  ood: DomainSeparator;
  opening: DomainSeparator;
  /** The same opening with the point fixed by the caller (`open_at`'s `PointSource::Given`): no `opening_point` step. */
  openingGiven: DomainSeparator;
  whir: DomainSeparator;
  batching: DomainSeparator;
  /** Initial fold, then one per round, then the final fold: `null` where the phase has 0 rounds (never seeded). */
  quadratic: (DomainSeparator | null)[];
  shape: WhirShape;
}

/** Separators by schedule: they depend on nothing else, and building one set hashes every pattern (~1-2 ms). */
const made = new Map<string, WhirSeparators>();
const MADE_MAX = 16;

/**
 * All sub-transcripts of `commit` + `open` for `schedule` (see README.md for the order they run
 * in), made once per schedule: every commit, proof and verification of a configuration seeds the
 * same ones. The records are read, never written, by their users.
 */
export function whirDomainSeparators(schedule: WhirSchedule): WhirSeparators {
  const key = JSON.stringify(schedule);
  let s = made.get(key);
  if (!s) {
    if (made.size >= MADE_MAX) made.delete(made.keys().next().value!);
    s = buildSeparators(schedule);
    made.set(key, s);
  }
  return s;
}

function buildSeparators(schedule: WhirSchedule): WhirSeparators {
  const binding = suffixBinding(schedule.numVariables);
  const shape = whirShape(schedule, 1);
  const phases = [shape.initialSumcheck, ...shape.rounds.map((r) => r.sumcheck), shape.finalSumcheck];
  return {
    commitment: layoutCommitmentSeparator(),
    ood: layoutOodSeparator(binding),
    opening: layoutOpeningSeparator(binding, { tableIndex: 0, current: [0], next: [], pointDrawn: true }),
    openingGiven: layoutOpeningSeparator(binding, { tableIndex: 0, current: [0], next: [], pointDrawn: false }),
    whir: whirSeparator(schedule, 1),
    batching: layoutBatchingSeparator(binding, 1, schedule.commitmentOodSamples),
    quadratic: phases.map((p) => (p.rounds > 0 ? quadraticSeparator(p) : null)),
    shape,
  };
}
