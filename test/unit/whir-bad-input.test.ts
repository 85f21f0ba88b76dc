// Bad input to the WHIR API never escapes as a raw error: configurations, tables, handles, points,
// roots and proofs from fast-check give a ProverError with a stable code (or, for a proof that
// parses, a verdict of { ok: false }), and the prover keeps proving afterwards. CPU path (Node).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createProver, isProverError, parseProof, proofToJson, type Prover, type Whir, type WhirOpening } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';

const CODES = new Set(['INVALID_ARGUMENT', 'INVALID_LENGTH', 'NON_CANONICAL', 'DESTROYED']);

async function outcome(f: () => unknown): Promise<string> {
  try {
    await f();
    return 'ok';
  } catch (e) {
    if (isProverError(e)) return e.code;
    return `raw ${(e as Error)?.name}: ${(e as Error)?.message}`;
  }
}

const junk = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.array(fc.integer()),
  fc.object(),
  fc.constant(new Float64Array(4)),
  fc.constant(new Uint32Array(3)),
);

describe('WHIR bad input', () => {
  let prover: Prover;
  let whir: Whir;
  let good: { root: Uint32Array; opening: WhirOpening };
  beforeAll(async () => {
    prover = await createProver({ fallback: 'cpu', worker: false });
    whir = prover.whir({ numVariables: 8, foldingFactor: 2, startingLogInvRate: 1 });
    const evals = Uint32Array.from({ length: 256 }, (_, i) => (i * 2654435761) % BB_P);
    const { root, handle } = await whir.commit(evals);
    good = { root, opening: await whir.open(handle) };
  }, 60_000);
  afterAll(() => prover?.destroy());

  it('configurations: junk in every option gives INVALID_ARGUMENT (or a valid configuration)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            numVariables: fc.oneof(junk, fc.integer({ min: -2, max: 70 })),
            foldingFactor: fc.oneof(junk, fc.integer({ min: -1, max: 9 })),
            startingLogInvRate: fc.oneof(junk, fc.integer({ min: -1, max: 5 })),
            securityLevel: fc.oneof(fc.constant(undefined), junk, fc.integer({ min: 0, max: 200 })),
            extra: fc.option(fc.string(), { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
        async (o) => {
          const got = await outcome(() => prover.whir(o as never));
          expect(got === 'ok' || got === 'INVALID_ARGUMENT', got).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
    expect(await outcome(() => prover.whir(undefined as never))).toBe('INVALID_ARGUMENT');
  });

  it('tables, handles, points and open options give their codes; the prover keeps proving', async () => {
    await fc.assert(
      fc.asyncProperty(junk, async (v) => {
        const got = await outcome(() => whir.commit(v as never));
        expect(CODES.has(got), got).toBe(true);
        expect(CODES.has(await outcome(() => whir.open(v as never))), 'open(junk)').toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(await outcome(() => whir.commit(new Uint32Array(255)))).toBe('INVALID_LENGTH');
    expect(await outcome(() => whir.commit(new Uint32Array(256).fill(BB_P)))).toBe('NON_CANONICAL');
    let { handle } = await whir.commit(new Uint32Array(256).fill(7));
    await fc.assert(
      fc.asyncProperty(fc.oneof(junk, fc.array(fc.array(fc.integer()), { maxLength: 9 })), async (point) => {
        const got = await outcome(() => whir.open(handle, { point } as never));
        expect(CODES.has(got) || got === 'ok', got).toBe(true);
        if (got === 'ok') ({ handle } = await whir.commit(new Uint32Array(256).fill(7))); // a valid point used it up
      }),
      { numRuns: 40 },
    );
    // Every rejected point left the handle usable.
    const opening = await whir.open(handle);
    expect(await whir.verify(handle.root, opening)).toEqual({ ok: true });
  });

  it('roots and proofs: malformed arguments throw ProverError, proofs that parse but lie are { ok: false }', async () => {
    for (const root of [null, new Uint32Array(7), new Uint32Array(8).fill(BB_P), 'root']) {
      expect(CODES.has(await outcome(() => whir.verify(root as never, good.opening))), String(root)).toBe(true);
    }
    expect(await outcome(() => whir.verify(good.root, null as never))).toBe('INVALID_ARGUMENT');
    const json = JSON.stringify(proofToJson(good.opening.proof));
    await fc.assert(
      fc.asyncProperty(fc.nat(json.length - 1), fc.constantFrom('0', '1', '9', ',', ']', '"', 'x'), async (at, ch) => {
        const mutated = json.slice(0, at) + ch + json.slice(at + 1);
        let proof;
        try {
          proof = parseProof(mutated);
        } catch (e) {
          expect(isProverError(e) && e.code === 'INVALID_ARGUMENT', String(e)).toBe(true);
          return;
        }
        const verdict = await whir.verify(good.root, proof);
        if (mutated !== json && JSON.stringify(proofToJson(proof)) !== json) expect(verdict.ok).toBe(false);
      }),
      { numRuns: 120 },
    );
  }, 60_000);
});
