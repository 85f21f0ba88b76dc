// The WHIR Fiat-Shamir layer against p3-whir 0.9.0-rc.2 itself: separator renders, labels and
// seeds byte for byte; each FsProver op against a Rust ProverState; and a whole commit + open
// replayed op by op against the crate's logged challenger calls (test/vectors/whir-fs-*.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DuplexChallenger } from '../../src/ref/challenger.js';
import type { WhirSchedule } from '../../src/whir/schedule.js';
import { domainSeparator, LabelBuilder, packSeed } from '../../src/whir/transcript/domain-separator.js';
import { FsProver, traceJsonl, tracePermutations, type Ext4 } from '../../src/whir/transcript/fs-prover.js';
import { BASIS_EF4, BASIS_F, delegation, step, TAG_F } from '../../src/whir/transcript/pattern.js';
import { whirDomainSeparators, type WhirSeparators } from '../../src/whir/transcript/separators.js';

const vec = (name: string): string => readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8');
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

interface RustDs {
  name: string;
  version: number;
  label: string;
  pattern: string;
  seed: string;
  seedElements: number[];
  rounds?: number;
}
type Event = ['o' | 's', number] | ['u' | 'g', number, number];
interface Fixture {
  n: number;
  fold: number;
  rate: number;
  schedule: WhirSchedule;
  separators: { whir: RustDs; commitment: RustDs; quadratic: RustDs[] };
  open: { permutations: number; events: Event[] };
}
const CONFIGS = ['10-2-1', '12-1-1', '12-2-1', '12-4-2', '14-3-1', '18-4-1'];
const fixture = (c: string): Fixture => JSON.parse(vec(`whir-fs-${c}.json`));

function expectSame(
  ts: { name: string; version: number; label: Uint8Array; pattern: string; seed: Uint8Array; seedElements: number[] },
  rs: RustDs,
): void {
  expect(ts.name).toBe(rs.name);
  expect(ts.version).toBe(rs.version);
  expect(ts.pattern).toBe(rs.pattern);
  expect(hex(ts.label)).toBe(rs.label);
  expect(hex(ts.seed)).toBe(rs.seed);
  expect(ts.seedElements).toEqual(rs.seedElements);
}

describe('pattern render and seed packing', () => {
  it('basis hashes and the Algebra tag render as Rust does (step.rs known answer)', () => {
    expect(hex(BASIS_F)).toBe('cfa353fe66eeeae7600254a68073d57125abac3820fde7a3e32c84482b826469');
    expect(hex(BASIS_EF4)).toBe('a31559f97eacd63de762fb78f0de2204c31e4445522c8e285fc45d814b83063d');
    const ds = domainSeparator(1, 'x', [step.algebra('Message', 'test-message', 'Scalar', TAG_F)]);
    expect(ds.pattern.split('\n')[1]).toBe(
      '0 Atomic Message 12 test-message Scalar Algebra(2013265921^1;cfa353fe66eeeae7600254a68073d57125abac3820fde7a3e32c84482b826469)',
    );
  });

  it('packs [len, 3-byte little-endian chunks] (unit.rs known answer)', () => {
    expect(packSeed(Uint8Array.from([1, 2, 3, 4]))).toEqual([4, 0x030201, 4]);
    expect(packSeed(new Uint8Array())).toEqual([0]);
  });

  it('nests Begin/End with indentation and rejects an unclosed Begin', () => {
    const ds = domainSeparator(1, 'x', [
      step.marker('Begin', 'Protocol', 'a'),
      step.algebra('Challenge', 'y', 'Scalar'),
      step.marker('End', 'Protocol', 'a'),
    ]);
    expect(
      ds.pattern
        .split('\n')
        .slice(1, 4)
        .map((l) => l.slice(0, 14)),
    ).toEqual(['0 Begin Protoc', '1   Atomic Cha', '2 End Protocol']);
    expect(() => domainSeparator(1, 'x', [step.marker('Begin', 'Protocol', 'a')])).toThrow(/never closed/);
  });

  it('the layout-commitment seed starts [101, 3371009, 7697197, …] (whir.md §3)', () => {
    const s = whirDomainSeparators(fixture('12-2-1').schedule);
    expect(s.commitment.seedElements.slice(0, 4)).toEqual([101, 3371009, 7697197, 6841197]);
    expect(s.commitment.seedElements.length).toBe(1 + 34);
  });
});

describe.each(CONFIGS)('separators (n-fold-rate %s) equal p3-whir 0.9.0-rc.2', (c) => {
  const f = fixture(c);
  const s = whirDomainSeparators(f.schedule);
  it('p3-whir v3: render, label, seed', () => expectSame(s.whir, f.separators.whir));
  it('p3-sumcheck-layout-commitment', () => expectSame(s.commitment, f.separators.commitment));
  it('p3-sumcheck-quadratic per phase (initial, each round, final)', () => {
    expect(s.quadratic.length).toBe(f.separators.quadratic.length);
    s.quadratic.forEach((q, i) => {
      if (q === null) expect(f.separators.quadratic[i].rounds).toBe(0);
      else expectSame(q, f.separators.quadratic[i]);
    });
  });
  it('the whole open replays op by op against the crate (ood/opening/batching seeds included)', () => {
    const { perms } = replayOpen(s, f.open.events, { grind: c === '10-2-1' });
    expect(perms).toBe(f.open.permutations);
  });
});

describe('permutation trace (n=12, fold 2, rate 1)', () => {
  it('every permutation input/output equals the Rust trace, JSONL byte for byte', () => {
    const f = fixture('12-2-1');
    const { trace } = replayOpen(whirDomainSeparators(f.schedule), f.open.events, { grind: false });
    expect(traceJsonl(trace)).toBe(vec('whir-fs-trace-12-2-1.jsonl'));
  });
});

describe('FsProver ops equal a Rust ProverState', () => {
  it('observe/challenge extension(s), uniform bits (incl. 29-bit split), bits, pow, scalars, opaque, scalar challenge', () => {
    const o = JSON.parse(vec('whir-fs-ops.json'));
    const steps = [
      step.algebra('Message', 'x', 'Scalar'),
      step.algebra('Challenge', 'y', 'Scalar'),
      step.marker('Begin', 'Protocol', 'sub'),
      step.algebra('Message', 'xs', { fixed: 3 }),
      step.marker('End', 'Protocol', 'sub'),
      step.uniformBits('q', 20, 5),
      step.uniformBits('q2', 29, 2),
      step.bits('b', 10, 3),
      step.pow('w', 8),
      step.algebra('Message', 's', { fixed: 3 }, TAG_F),
      step.opaque('Message', 'c'),
      step.algebra('Challenge', 'ys', { fixed: 2 }),
      step.algebra('Challenge', 'z', 'Scalar', TAG_F),
    ];
    const ds = domainSeparator(7, 'fs-ops-test', steps, new LabelBuilder().chunk(new TextEncoder().encode('hello')).u64(42).bytes());
    expectSame(ds, o.ds);
    const ch = new DuplexChallenger();
    const fs = FsProver.seed(ch, ds);
    fs.observeExtension('x', [1, 2, 3, 2013265920]);
    expect(fs.challengeExtension('y')).toEqual(o.y);
    fs.begin('sub');
    fs.observeExtensions('xs', [
      [5, 6, 7, 8],
      [9, 10, 11, 12],
      [13, 14, 15, 16],
    ]);
    fs.end('sub');
    expect(fs.challengeUniformBits('q', 20, 5)).toEqual(o.q);
    expect(fs.challengeUniformBits('q2', 29, 2)).toEqual(o.q2);
    expect(fs.challengeBits('b', 10, 3)).toEqual(o.b);
    expect(fs.observePow('w', 8)).toBe(o.w);
    fs.addScalars('s', [100, 200, 300]);
    fs.observeOpaque('c', [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007]);
    expect(fs.challengeExtensions('ys', 2)).toEqual(o.ys);
    expect(fs.challengeScalar('z')).toBe(o.z);
    fs.finish();
    expect(ch.sample()).toBe(o.nextSample);
  });

  it('an op out of pattern order throws, and finish() demands every step', () => {
    const ds = domainSeparator(1, 't', [step.algebra('Challenge', 'a', 'Scalar'), ...delegation('d')]);
    const fs = FsProver.seed(new DuplexChallenger(), ds);
    expect(() => fs.observeExtension('a', [0, 0, 0, 0])).toThrow(/expected/);
    fs.challengeExtension('a');
    expect(() => fs.finish()).toThrow(/never played/);
  });
});

/**
 * Plays a whole p3-whir `commit` + `open` (README.md's ordered list) against the crate's logged
 * challenger calls: prover messages are taken from the log, challenges and PoW are recomputed
 * here and must match. Returns the TS permutation trace.
 */
function replayOpen(s: WhirSeparators, events: Event[], opt: { grind: boolean }) {
  const ch = new DuplexChallenger();
  const trace = tracePermutations(ch);
  let k = 0;
  const take = (type: string): Event => {
    const e = events[k++];
    if (!e || e[0] !== type) throw new Error(`event ${k - 1}: expected ${type}, log has ${JSON.stringify(e)}`);
    return e;
  };
  const obs = (m: number): number[] => Array.from({ length: m }, () => take('o')[1]);
  const ext = (): Ext4 => obs(4) as Ext4;
  const seed = (ds: WhirSeparators['whir']): FsProver => {
    expect(obs(ds.seedElements.length)).toEqual(ds.seedElements);
    return FsProver.seed(ch, ds);
  };
  const challenge = (fs: FsProver, label: string): void => {
    const got = fs.challengeExtension(label);
    expect(got).toEqual([0, 1, 2, 3].map(() => take('s')[1]));
  };
  const pow = (fs: FsProver, label: string, bits: number): void => {
    const [, b, w] = take('g') as ['g', number, number];
    expect(b).toBe(bits);
    if (opt.grind) expect(fs.observePow(label, bits)).toBe(w);
    else fs.observePowWitness(label, bits, w);
  };
  const queries = (fs: FsProver, label: string, width: number, draws: number): void => {
    if (draws === 0) return;
    const want = Array.from({ length: draws }, () => take('u')[2]);
    expect(fs.challengeUniformBits(label, width, draws)).toEqual(want);
  };
  const quadratic = (phase: number): void => {
    const ds = s.quadratic[phase];
    if (ds === null) return;
    const fs = seed(ds);
    const { rounds, powBits } =
      phase === 0 ? s.shape.initialSumcheck : phase <= s.shape.rounds.length ? s.shape.rounds[phase - 1].sumcheck : s.shape.finalSumcheck;
    for (let r = 0; r < rounds; r++) {
      fs.observeExtensions('round_poly', [ext(), ext()]);
      if (powBits > 0) pow(fs, 'round_pow', powBits);
      challenge(fs, 'round_challenge');
    }
    fs.finish();
  };

  // commit: the root through the layout-commitment sub-transcript.
  const commit = seed(s.commitment);
  commit.observeOpaque('commitment', obs(8));
  commit.finish();
  // open: commitment OOD claims, then the drawn opening, then the WHIR run.
  for (let j = 0; j < s.shape.commitmentOodSamples; j++) {
    const ood = seed(s.ood);
    challenge(ood, 'virtual_point');
    ood.observeExtension('virtual_eval', ext());
    ood.finish();
  }
  const opening = seed(s.opening);
  challenge(opening, 'opening_point');
  opening.observeExtensions('current_evals', [ext()]);
  opening.finish();
  const whir = seed(s.whir);
  whir.begin('initial_fold');
  const batching = seed(s.batching);
  challenge(batching, 'batching');
  batching.finish();
  quadratic(0);
  whir.end('initial_fold');
  s.shape.rounds.forEach((r, i) => {
    whir.observeOpaque('commitment', obs(8));
    for (let j = 0; j < r.oodSamples; j++) {
      challenge(whir, 'ood_point');
      whir.observeExtension('ood_answer', ext());
    }
    if (r.queryPowBits > 0) pow(whir, 'query_pow', r.queryPowBits);
    queries(whir, 'query_indices', r.indexBits, r.queryDraws);
    challenge(whir, 'round_batching');
    whir.begin('round_fold');
    quadratic(i + 1);
    whir.end('round_fold');
  });
  whir.observeExtensions('final_poly', Array.from({ length: s.shape.finalPolyLen }, ext));
  if (s.shape.finalPowBits > 0) pow(whir, 'final_query_pow', s.shape.finalPowBits);
  queries(whir, 'final_query_indices', s.shape.finalIndexBits, s.shape.finalQueryDraws);
  if (s.shape.finalSumcheck.rounds > 0) {
    whir.begin('final_fold');
    quadratic(s.shape.rounds.length + 1);
    whir.end('final_fold');
  }
  whir.finish();
  expect(k).toBe(events.length);
  return { perms: trace.length, trace };
}
