// deriveWhirSchedule against p3-whir 0.9.0-rc.2 itself. test/vectors/whir-schedules.json was made by
// a throwaway Rust crate (its Cargo.toml and main.rs are in the file's header; README row
// `whir-schedules.json`) printing WhirConfig::new(n, params) for BabyBear / BabyBear^4 /
// DuplexChallenger<Poseidon2BabyBear<16>, 16, 8> as WhirSchedule JSON, or the error's {:?}.
// The full 33120-case Constant grid (n 2..=24, fold 1..=6, rate 1..=4, sec {64,80,90,100,128},
// pow {0,10,16,20}, all three assumptions) also matched during development; it is not committed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProverError } from '../../src/errors.js';
import { defaultRoundLogInvRates, deriveWhirSchedule, foldingSchedule, WHIR_EF_BITS, WHIR_F_BITS } from '../../src/whir/params.js';
import type { WhirParameters, WhirSchedule } from '../../src/whir/schedule.js';
import { whirParameters } from '../../src/whir/options.js';

interface Entry {
  input: { numVariables: number; params: WhirParameters };
  schedule?: WhirSchedule;
  error?: string;
  withOneOpening?: string;
}
const fixture = JSON.parse(readFileSync(new URL('../vectors/whir-schedules.json', import.meta.url), 'utf8')) as {
  meta: { efBits: number; fBits: number };
  entries: Entry[];
};

/** The error `fn` throws: a ProverError INVALID_ARGUMENT (never a raw error). */
function invalid(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(isProverError(e)).toBe(true);
    expect((e as { code: string }).code).toBe('INVALID_ARGUMENT');
    return (e as Error).message;
  }
  throw new Error('expected INVALID_ARGUMENT, nothing was thrown');
}

const base = (over: Partial<WhirParameters> = {}): WhirParameters => ({
  securityLevel: 90,
  powBits: 16,
  foldingFactor: { kind: 'Constant', factor: 4 },
  soundness: 'CapacityBound',
  startingLogInvRate: 1,
  roundLogInvRates: [],
  ...over,
});

describe('deriveWhirSchedule equals p3-whir WhirConfig::new', () => {
  it('the fixture is large and uses the same field sizes', () => {
    expect(fixture.entries.length).toBeGreaterThanOrEqual(2000);
    expect(fixture.meta).toEqual({ efBits: WHIR_EF_BITS, fBits: WHIR_F_BITS });
    const variants = new Set(fixture.entries.filter((e) => e.error).map((e) => /^\w+(\(\w+)?/.exec(e.error!)![0]));
    // Every WhirConfigError / FoldingFactorError variant WhirConfig::new can return here (the domain
    // accepts every assumption and claims are counted only by the PCS: see withOneOpening).
    expect([...variants].sort()).toEqual([
      'FoldedDomainExceedsCapacity',
      'FoldingFactor(EmptySchedule',
      'FoldingFactor(InsufficientFolding',
      'FoldingFactor(TooLarge',
      'FoldingFactor(ZeroFactor',
      'FoldingFactorCountMismatch',
      'InitialDomainExceedsUsize',
      'NonRedundantRoundRate',
      'NonRedundantStartingRate',
      'OodSamplesInfeasible',
      'PowBitsExceedBudget',
      'PowBitsExceedField',
      'RateGrowsDomain',
      'RoundRateCountMismatch',
      'ZeroQueries',
    ]);
    expect(fixture.entries.some((e) => e.withOneOpening?.startsWith('InitialClaimsBelowTarget'))).toBe(true);
  });

  it('every fixture entry: the same schedule, or INVALID_ARGUMENT starting with the crate error', () => {
    let schedules = 0,
      errors = 0;
    for (const e of fixture.entries) {
      const { numVariables, params } = e.input;
      if (e.error !== undefined) {
        // Starts with the Rust Debug text, so the variant name and its numbers all agree.
        expect(invalid(() => deriveWhirSchedule(numVariables, params)).startsWith(`${e.error}: `), e.error).toBe(true);
        errors++;
        continue;
      }
      expect(deriveWhirSchedule(numVariables, params), JSON.stringify(e.input)).toEqual(e.schedule);
      schedules++;
      if (e.withOneOpening === 'ok') deriveWhirSchedule(numVariables, params, 1);
      else expect(invalid(() => deriveWhirSchedule(numVariables, params, 1)).startsWith(`${e.withOneOpening}: `)).toBe(true);
    }
    expect(schedules).toBeGreaterThan(1400);
    expect(errors).toBeGreaterThan(600);
  });
});

describe('whir.md §2.1 worked example (n = 18, fold 4, rate 1, sec 90, pow 16, CapacityBound)', () => {
  // The note's figures (rates [2, 5], starting folding PoW 3, round 0 {fold-pow 2, queries 91},
  // round 1 {fold-pow 7, queries 44}, final {queries 18}) do not match the 0.9.0-rc.2 crate: the
  // fixture (the crate's own output) gives the figures below, and the crate wins.
  it('with the whir-p3-metal rates [2, 5] (rsInitialReduction 3)', () => {
    const { numVariables, params } = whirParameters({ numVariables: 18, foldingFactor: 4, startingLogInvRate: 1, rsInitialReduction: 3 });
    expect(params.roundLogInvRates).toEqual([2, 5]);
    const s = deriveWhirSchedule(numVariables, params, 1);
    expect(s.foldingSchedule).toEqual([4, 4, 4]);
    expect(s.commitmentOodSamples).toBe(2);
    expect(s.startingFoldingPowBits).toBe(0);
    expect(s.rounds.map((r) => [r.powBits, r.foldingPowBits, r.numQueries, r.oodSamples, r.domainSize, r.logFoldedDomainSize])).toEqual([
      [16, 0, 80, 2, 2 ** 19, 15],
      [15, 0, 39, 2, 2 ** 16, 12],
    ]);
    expect(s.terminal).toEqual({ numQueries: 16, powBits: 12 });
    expect(s.finalSumcheckRounds).toBe(6);
    expect(s.finalFoldingPowBits).toBe(0);
  });

  it("with p3-whir's default rates [4, 7]", () => {
    const { numVariables, params } = whirParameters({ numVariables: 18, foldingFactor: 4, startingLogInvRate: 1 });
    const s = deriveWhirSchedule(numVariables, params);
    expect(s.rounds.map((r) => r.logInvRate)).toEqual([4, 7]);
    expect(s.rounds.map((r) => [r.numQueries, r.foldingPowBits])).toEqual([
      [80, 0],
      [19, 3],
    ]);
    expect(s.terminal).toEqual({ numQueries: 11, powBits: 14 });
  });

  it('sec 100 derives, but the PCS refuses one opening (InitialClaimsBelowTarget)', () => {
    const { numVariables, params } = whirParameters({ numVariables: 18, foldingFactor: 4, startingLogInvRate: 1, securityLevel: 100 });
    expect(() => deriveWhirSchedule(numVariables, params)).not.toThrow();
    expect(invalid(() => deriveWhirSchedule(numVariables, params, 1))).toMatch(
      /^InitialClaimsBelowTarget \{ num_claims: 3, bits: 97\.6\d+, security_level: 100 \}: .*try 90/,
    );
  });
});

describe('whirParameters', () => {
  it('maps the public options, with the defaults', () => {
    expect(whirParameters({ numVariables: 20, foldingFactor: 4, startingLogInvRate: 2 })).toEqual({
      numVariables: 20,
      params: base({ startingLogInvRate: 2 }),
    });
    expect(
      whirParameters({
        numVariables: 14,
        foldingFactor: [4, 3, 2],
        startingLogInvRate: 1,
        securityLevel: 100,
        powBits: 20,
        soundness: 'JohnsonBound',
        roundLogInvRates: [2, 3],
      }).params,
    ).toEqual(
      base({
        securityLevel: 100,
        powBits: 20,
        soundness: 'JohnsonBound',
        foldingFactor: { kind: 'PerRound', factors: [4, 3, 2] },
        roundLogInvRates: [2, 3],
      }),
    );
  });

  it('rsInitialReduction: round 0 rate = start + fold0 - r0, then += fold_i - 1; r0 = 1 is the default schedule', () => {
    const rates = (r0: number, foldingFactor: number | number[] = 4, n = 24) =>
      whirParameters({ numVariables: n, foldingFactor, startingLogInvRate: 2, rsInitialReduction: r0 }).params.roundLogInvRates;
    expect(rates(3)).toEqual([3, 6, 9, 12]);
    expect(rates(1)).toEqual(defaultRoundLogInvRates(foldingSchedule({ kind: 'Constant', factor: 4 }, 24), 2));
    expect(rates(1, 4, 18)).toEqual(deriveWhirSchedule(18, base({ startingLogInvRate: 2 })).rounds.map((r) => r.logInvRate));
    expect(rates(2, [3, 5, 5, 5])).toEqual([3, 7, 11]);
    expect(rates(5)).toEqual([1, 4, 7, 10]);
    expect(rates(2, 4, 10)).toEqual([]); // one fold: no intermediate round
    invalid(() => rates(6));
    invalid(() =>
      whirParameters({ numVariables: 18, foldingFactor: 4, startingLogInvRate: 1, rsInitialReduction: 1, roundLogInvRates: [4, 7] }),
    );
  });
});

describe('input validation: INVALID_ARGUMENT, never a raw error', () => {
  it('deriveWhirSchedule arguments', () => {
    for (const n of [1.5, -1, NaN, Infinity, '18', undefined, null, 65, 2 ** 40]) invalid(() => deriveWhirSchedule(n as number, base()));
    for (const p of [undefined, null, 7, [], 'x']) invalid(() => deriveWhirSchedule(18, p as unknown as WhirParameters));
    const bad: Partial<Record<keyof WhirParameters, unknown[]>> = {
      securityLevel: [-1, 90.5, '90', undefined],
      powBits: [-1, 1.5, null],
      startingLogInvRate: [-1, 1.5, 65, undefined],
      soundness: ['Capacity', undefined, 3],
      roundLogInvRates: [undefined, [1, -1], [2.5], 'x', [, 3]],
      foldingFactor: [
        4,
        undefined,
        { kind: 'Constant' },
        { kind: 'Constant', factor: -1 },
        { kind: 'Constant', factor: 1.5 },
        { kind: 'Nope', factor: 4 },
        { kind: 'PerRound', factors: 4 },
        { kind: 'PerRound', factors: [4, 'x'] },
        { kind: 'ConstantFromSecondRound', first: 4 },
        { kind: 'Constant', factor: 4, extra: 1 },
      ],
    };
    for (const [key, values] of Object.entries(bad)) {
      for (const v of values) invalid(() => deriveWhirSchedule(18, { ...base(), [key]: v }));
    }
    invalid(() => deriveWhirSchedule(18, { ...base(), typo: 1 } as WhirParameters));
    invalid(() => deriveWhirSchedule(18, base(), -1));
    invalid(() => deriveWhirSchedule(18, base(), 0.5));
  });

  it('zero fold, zero rate and too-large folds are the crate errors', () => {
    expect(invalid(() => deriveWhirSchedule(18, base({ foldingFactor: { kind: 'Constant', factor: 0 } })))).toMatch(
      /^FoldingFactor\(ZeroFactor\)/,
    );
    expect(invalid(() => deriveWhirSchedule(18, base({ startingLogInvRate: 0 })))).toMatch(/^NonRedundantStartingRate/);
    expect(invalid(() => deriveWhirSchedule(3, base()))).toMatch(/^FoldingFactor\(TooLarge\(4, 3\)\)/);
    expect(foldingSchedule({ kind: 'Constant', factor: 8 }, 15)).toEqual([8, 7]);
  });

  it('whirParameters options', () => {
    const ok = { numVariables: 18, foldingFactor: 4, startingLogInvRate: 1 };
    for (const o of [undefined, null, 3, []]) invalid(() => whirParameters(o as never));
    for (const [k, v] of [
      ['numVariables', 1.5],
      ['numVariables', -2],
      ['foldingFactor', 0.5],
      ['foldingFactor', '4'],
      ['foldingFactor', [4, -1]],
      ['startingLogInvRate', -1],
      ['securityLevel', 90.1],
      ['powBits', -16],
      ['soundness', 'capacity'],
      ['roundLogInvRates', [1.5]],
      ['rsInitialReduction', -1],
      ['rsInitialReduction', 0.5],
      ['typo', 1],
    ] as const) {
      invalid(() => whirParameters({ ...ok, [k]: v }));
    }
    // A zero fold passes validation and fails as p3-whir does.
    expect(
      invalid(() => {
        const w = whirParameters({ ...ok, foldingFactor: 0 });
        deriveWhirSchedule(w.numVariables, w.params);
      }),
    ).toMatch(/ZeroFactor/);
  });
});
