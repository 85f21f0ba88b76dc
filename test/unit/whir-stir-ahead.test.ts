// WHIR openings checked ahead (src/whir/openings-ahead.ts): the verifier takes a result made during the
// open only for the proof's own openings object with the inputs it derives itself, and checks
// anything else itself; a checked open through the public API has every round's openings checked
// ahead. CPU path (Node); seeded tables the code never saw.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProver, type Prover } from '../../src/index.js';
import { whirSchedule } from '../../src/whir/options.js';
import { OpeningsAhead } from '../../src/whir/openings-ahead.js';
import type { StirInput } from '../../src/whir/stir-claims.js';
import { verifyWhir } from '../../src/whir/verifier.js';
import type { PcsProof } from '../../src/whir/proof.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const OPTIONS = { numVariables: 12, foldingFactor: 2, startingLogInvRate: 1 };

/** Records the inputs the verifier derives for each round's openings (and checks them itself). */
class Recorder extends OpeningsAhead {
  inputs: StirInput[] = [];
  override claims(input: StirInput) {
    this.inputs.push(input);
    return super.claims(input);
  }
}

describe('WHIR openings checked ahead', () => {
  let prover: Prover;
  let proof: PcsProof;
  let root: Uint32Array;
  let inputs: StirInput[];
  const schedule = whirSchedule(OPTIONS);
  const rounds = schedule.rounds.length + 1;

  beforeAll(async () => {
    prover = await createProver({ fallback: 'cpu', worker: false });
    const whir = prover.whir(OPTIONS);
    const committed = await whir.commit(new SplitMix64(7331).fieldArray(2 ** OPTIONS.numVariables));
    root = committed.root;
    proof = (await whir.open(committed.handle, { check: 'off' })).proof;
    const recorder = new Recorder();
    expect(await verifyWhir(schedule, root, proof, undefined, recorder)).toEqual({ ok: true });
    inputs = recorder.inputs;
    expect(inputs.length).toBe(rounds);
  });
  afterAll(() => prover?.destroy());

  it('serves the verifier every round from results made ahead of it', async () => {
    const ahead = new OpeningsAhead();
    for (const input of inputs) ahead.add(input);
    expect(await verifyWhir(schedule, root, proof, undefined, ahead)).toEqual({ ok: true });
    expect(ahead.served).toBe(rounds);
  });

  it('checks itself what was made from other inputs or for other openings', async () => {
    const ahead = new OpeningsAhead();
    // Round 0 made at another folding randomness; the last round for a copy of its openings.
    const [first, ...rest] = inputs;
    ahead.add({ ...first, folding: first.folding.map((e) => [(e[0] + 1) % 0x78000001, e[1], e[2], e[3]]) });
    for (const input of rest.slice(0, -1)) ahead.add(input);
    const last = rest[rest.length - 1];
    ahead.add({ ...last, openings: structuredClone(last.openings) });
    expect(await verifyWhir(schedule, root, proof, undefined, ahead)).toEqual({ ok: true });
    expect(ahead.served).toBe(rounds - 2);
  });

  it('rejects a proof whose openings changed, whatever was made ahead', async () => {
    const ahead = new OpeningsAhead();
    for (const input of inputs) ahead.add(input);
    const bad = structuredClone(proof);
    const openings = bad.whir.rounds[0]?.openings ?? bad.whir.finalOpenings;
    if (openings.kind === 'Base') openings.rows[0][0] = (openings.rows[0][0] + 1) % 0x78000001;
    else openings.rows[0][0][0] = (openings.rows[0][0][0] + 1) % 0x78000001;
    const verdict = await verifyWhir(schedule, root, bad, undefined, ahead);
    expect(verdict.ok).toBe(false);
  });

  it('serves a rejection made ahead as the rejection', async () => {
    const bad = structuredClone(proof);
    const ahead = new OpeningsAhead();
    const recorder = new Recorder();
    await verifyWhir(schedule, root, bad, undefined, recorder);
    const openings = bad.whir.finalOpenings;
    const sibling = openings.siblingHashes[0];
    sibling[0] = (sibling[0] + 1) % 0x78000001;
    for (const input of recorder.inputs) ahead.add(input);
    const verdict = await verifyWhir(schedule, root, bad, undefined, ahead);
    expect(verdict).toEqual({ ok: false, error: 'final: Merkle multiproof does not open the commitment' });
    expect(ahead.served).toBe(rounds);
  });

  it('a checked open through the API has every round checked ahead', async () => {
    const claims = vi.spyOn(OpeningsAhead.prototype, 'claims');
    try {
      const whir = prover.whir(OPTIONS);
      const committed = await whir.commit(new SplitMix64(7332).fieldArray(2 ** OPTIONS.numVariables));
      const opening = await whir.open(committed.handle, { check: 'sample' });
      expect(await whir.verify(committed.root, opening)).toEqual({ ok: true });
      const used = claims.mock.contexts as OpeningsAhead[];
      expect(used.length).toBe(rounds);
      expect(used.every((a) => a === used[0])).toBe(true);
      expect(used[0].served).toBe(rounds);
    } finally {
      claims.mockRestore();
    }
  });
});
