/**
 * A checked open's openings, checked ahead (the verifier's costliest step: stir-claims.ts): the
 * prover hands each round's openings to the check thread (checks/check-thread.ts) as it makes
 * them, so the check runs beside the prover's next rounds rather than after the proof. The
 * verifier then takes a result made ahead only for the very openings object of the proof it
 * checks, and only when the inputs it derives itself (query indices, root, levels, folding
 * randomness) equal those the result was made from; otherwise it checks them itself. The prover
 * never changes a proof's pieces once made, so a result made ahead is the verifier's own.
 * @module
 */
import { checkTask } from '../checks/check-thread.js';
import type { Ext4 } from './ext.js';
import type { QueryOpenings } from './proof.js';
import { Reject, stirClaims, type SelectClaim, type StirInput } from './stir-claims.js';

const sameWords = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => v === b[i]);

/**
 * `input` with its arrays copied to their own buffers: a message copies a view's whole buffer,
 * and an opened row may be a view of a larger readback.
 */
function compact(input: StirInput): StirInput {
  const rows: QueryOpenings['rows'] = input.openings.kind === 'Base' ? input.openings.rows.map((r) => r.slice()) : input.openings.rows;
  const openings = { kind: input.openings.kind, rows, siblingHashes: input.openings.siblingHashes.map((d) => d.slice()) } as QueryOpenings;
  return { ...input, openings };
}

/** Whether the verifier's own inputs equal those a result was made from (the openings object aside). */
function sameInputs(made: StirInput, now: StirInput): boolean {
  return (
    made.levels === now.levels &&
    made.logFolded === now.logFolded &&
    sameWords(made.indices, now.indices) &&
    sameWords(made.root, now.root) &&
    made.folding.length === now.folding.length &&
    made.folding.every((e, i) => sameWords(e, now.folding[i]))
  );
}

/** One open's openings, checked ahead as the prover makes them (see the module's note). */
export class OpeningsAhead {
  private readonly made = new WeakMap<QueryOpenings, { input: StirInput; result: SelectClaim[] | Reject }>();
  private queue: Promise<void> = Promise.resolve();
  /** How many of the verifier's checks a result made ahead served (tests read it). */
  served = 0;

  /** Have `input` checked on the check thread; its small inputs are copied now (the openings are the proof's own). */
  add(given: StirInput): void {
    const input: StirInput = {
      ...given,
      indices: [...given.indices],
      root: given.root.slice(),
      folding: given.folding.map((e) => [...e] as Ext4),
    };
    // A task that fails leaves no result: the verifier then checks these openings itself.
    const made = checkTask({ kind: 'stir', input: compact(input) }).then(
      (answer) => {
        if (answer.kind !== 'stir') return;
        this.made.set(input.openings, { input, result: 'claims' in answer ? answer.claims : new Reject(answer.reject) });
      },
      () => {},
    );
    this.queue = Promise.all([this.queue, made]).then(() => {});
  }

  /** Resolves once every check added so far is made. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** stirClaims(input): the result made ahead for these openings and equal inputs, else made now. */
  claims(input: StirInput): SelectClaim[] {
    const got = this.made.get(input.openings);
    if (!got || !sameInputs(got.input, input)) return stirClaims(input);
    this.served++;
    if (got.result instanceof Reject) throw got.result;
    return got.result;
  }
}
