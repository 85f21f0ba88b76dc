// WHIR openings at a caller-given point (p3-whir's PrescribedPointPcs::open_at / verify_at) and the
// transcript-trace debug option, against Plonky3's published p3-whir 0.9.0-rc.2 (bench/whir-oracle),
// with the TypeScript prover on its CPU path:
// - the TS proof at a seeded random point equals the crate's `open_at` proof byte for byte
//   (--threads 1: both take the smallest PoW witnesses); the crate's verify_at and the TS verifier
//   accept it, and reject it with the point or the value changed;
// - `open(handle, { trace: true })` gives the oracle's `prove --trace` JSONL, line for line
//   (commit included; grinding searches excluded on both sides);
// - bad points are the right ProverError codes and leave the handle usable.
// Tables and points are seeded SplitMix64 values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProver, ProverError, type Prover } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import type { Ext4 } from '../../src/whir/ext.js';
import { decodeArgs, encodeArgs } from '../../src/worker/codec.js';
import { oraclePath, oracleSession } from '../support/whir-oracle.js';
import { whirEnvelope } from '../../bench/support/whir-run.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const BUILD_TIMEOUT = 15 * 60_000;

/** (numVariables, foldingFactor, startingLogInvRate, table seed, point seed). */
const CASES: [number, number, number, number, number][] = [
  [10, 2, 1, 9201, 9301],
  [12, 4, 2, 9202, 9302],
];

const randomPoint = (seed: number, n: number): Ext4[] => {
  const flat = new SplitMix64(seed).fieldArray(4 * n);
  return Array.from({ length: n }, (_, i) => Array.from(flat.subarray(4 * i, 4 * i + 4)) as Ext4);
};

describe('WHIR open_at and the transcript trace against p3-whir 0.9.0-rc.2', () => {
  let prover: Prover;
  const { dir, run, u32File, jsonFile } = oracleSession('whir-point-');

  beforeAll(async () => {
    oraclePath();
    prover = await createProver({ fallback: 'cpu', worker: false });
  }, BUILD_TIMEOUT);
  afterAll(() => prover?.destroy());

  for (const [n, fold, rate, seed, pointSeed] of CASES) {
    const params = ['--n', String(n), '--fold', String(fold), '--rate', String(rate)];
    const tag = `${n}-${fold}-${rate}`;

    it(`n=${n} fold=${fold} rate=${rate}: open_at proof equals the crate's, both verifiers accept it and reject a changed point or value`, async () => {
      const evals = new SplitMix64(seed).fieldArray(2 ** n);
      const point = randomPoint(pointSeed, n);
      const table = u32File(`t${tag}.bin`, evals);
      const pointFile = u32File(`p${tag}.bin`, Uint32Array.from(point.flat()));

      const whir = prover.whir({ numVariables: n, foldingFactor: fold, startingLogInvRate: rate });
      const { root, handle } = await whir.commit(evals);
      const opening = await whir.open(handle, { point });
      expect(opening.pointSource).toBe('given');
      expect(opening.point).toEqual(point);
      const envelope = { ...whirEnvelope({ n, fold, rate }, root, opening), point };
      const ours = jsonFile(`ts${tag}.json`, envelope);

      // The crate's own open_at proof for the same table and point, serial grinding.
      const theirs = join(dir, `rs${tag}.json`);
      const p = run('prove', ...params, '--poly', table, '--point', pointFile, '--out', theirs, '--threads', '1');
      expect(p.status, p.stderr + p.stdout).toBe(0);
      const rust = JSON.parse(readFileSync(theirs, 'utf8'));
      expect(rust.point).toEqual(point);
      expect(envelope.commitment).toEqual(rust.commitment);
      expect(envelope.proof).toEqual(rust.proof);

      // verify_at (crate), then the TS verifier: from the opening, and from the bare proof + point.
      const v = run('verify', ours);
      expect(v.stdout, v.stderr).toMatch(/^VERIFY OK/);
      expect(await whir.verify(root, opening)).toEqual({ ok: true });
      expect(await whir.verify(root, opening.proof, { point })).toEqual({ ok: true });
      // The same proof read as a drawn-point one is not valid (the transcripts differ).
      expect((await whir.verify(root, opening.proof)).ok).toBe(false);

      const edits: [string, (j: any) => void][] = [
        [
          'a point coordinate',
          (j) => {
            j.point[n - 1][0] = (j.point[n - 1][0] + 1) % BB_P;
          },
        ],
        [
          'the first point coordinate, c3',
          (j) => {
            j.point[0][3] = (j.point[0][3] + 1) % BB_P;
          },
        ],
        [
          'the claimed value',
          (j) => {
            const a = j.proof.evals[0].current[0].value;
            a[0] = (a[0] + 1) % BB_P;
          },
        ],
      ];
      for (const [what, edit] of edits) {
        const bad = structuredClone(envelope) as any;
        edit(bad);
        const r = run('verify', jsonFile('bad.json', bad));
        expect(r.stdout, `${what}: the crate must reject`).toMatch(/^VERIFY FAILED: /);
        const badOpening = {
          ...opening,
          point: bad.point as Ext4[],
          proof: {
            ...opening.proof,
            evaluation: what === 'the claimed value' ? ([(opening.value[0] + 1) % BB_P, ...opening.value.slice(1)] as Ext4) : opening.value,
          },
        };
        expect((await whir.verify(root, badOpening)).ok, `${what}: the TS verifier must reject`).toBe(false);
      }
    }, 120_000);

    it(`n=${n} fold=${fold} rate=${rate}: open(handle, { trace: true }) is the oracle's --trace, line for line`, async () => {
      const evals = new SplitMix64(seed).fieldArray(2 ** n);
      const table = u32File(`t${tag}.bin`, evals);
      const whir = prover.whir({ numVariables: n, foldingFactor: fold, startingLogInvRate: rate });
      const { handle } = await whir.commit(evals);
      const opening = await whir.open(handle, { trace: true });
      expect(opening.pointSource).toBe('drawn');

      const traceFile = join(dir, `trace${tag}.jsonl`);
      const p = run('prove', ...params, '--poly', table, '--trace', traceFile, '--out', join(dir, `rt${tag}.json`), '--threads', '1');
      expect(p.status, p.stderr + p.stdout).toBe(0);
      const theirs = readFileSync(traceFile, 'utf8').split('\n');
      const ours = opening.trace!.split('\n');
      expect(ours.length).toBe(theirs.length);
      for (let i = 0; i < ours.length; i++) expect(ours[i], `trace line ${i}`).toBe(theirs[i]);
      expect(opening.trace).toBe(readFileSync(traceFile, 'utf8'));
    }, 120_000);
  }

  it("n=10 fold=2 rate=1: the trace of an open_at equals the oracle's prove --point --trace", async () => {
    const [n, fold, rate, seed, pointSeed] = CASES[0];
    const evals = new SplitMix64(seed).fieldArray(2 ** n);
    const point = randomPoint(pointSeed, n);
    const table = u32File('ta.bin', evals);
    const pointFile = u32File('pa.bin', Uint32Array.from(point.flat()));
    const whir = prover.whir({ numVariables: n, foldingFactor: fold, startingLogInvRate: rate });
    const { handle } = await whir.commit(evals);
    const opening = await handle.prove({ point, trace: true });
    const traceFile = join(dir, 'trace-at.jsonl');
    const p = run(
      'prove',
      '--n',
      String(n),
      '--fold',
      String(fold),
      '--rate',
      String(rate),
      '--poly',
      table,
      '--point',
      pointFile,
      '--trace',
      traceFile,
      '--out',
      join(dir, 'rta.json'),
      '--threads',
      '1',
    );
    expect(p.status, p.stderr + p.stdout).toBe(0);
    expect(opening.trace).toBe(readFileSync(traceFile, 'utf8'));
  }, 120_000);
});

describe('WHIR open options: bad points and flags', () => {
  let prover: Prover;
  beforeAll(async () => {
    prover = await createProver({ fallback: 'cpu', worker: false });
  });
  afterAll(() => prover?.destroy());

  const code = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (e) {
      expect(e).toBeInstanceOf(ProverError);
      return (e as ProverError).code;
    }
    return 'resolved';
  };

  it('rejects malformed points with the house codes before using the handle, and verify likewise', async () => {
    const n = 8;
    const whir = prover.whir({ numVariables: n, foldingFactor: 2, startingLogInvRate: 1 });
    const { root, handle } = await whir.commit(new SplitMix64(77).fieldArray(2 ** n));
    const good = randomPoint(78, n);
    const bad: [string, unknown, string][] = [
      ['not an array', 'x', 'INVALID_ARGUMENT'],
      ['too short', good.slice(1), 'INVALID_LENGTH'],
      ['too long', [...good, [0, 0, 0, 0]], 'INVALID_LENGTH'],
      ['an element of 3', [[1, 2, 3], ...good.slice(1)], 'INVALID_LENGTH'],
      ['an element not an array', [7, ...good.slice(1)], 'INVALID_ARGUMENT'],
      ['a sparse point', Object.assign(new Array(n), { 0: good[0] }), 'INVALID_ARGUMENT'],
      ['p itself', [[BB_P, 0, 0, 0], ...good.slice(1)], 'NON_CANONICAL'],
      ['2^32 - 1', [...good.slice(1), [0, 0, 0, 0xffffffff]], 'NON_CANONICAL'],
      ['a negative coefficient', [[0, -1, 0, 0], ...good.slice(1)], 'INVALID_ARGUMENT'],
      ['a fraction', [[0, 0.5, 0, 0], ...good.slice(1)], 'INVALID_ARGUMENT'],
      ['a bigint', [[0n, 0, 0, 0], ...good.slice(1)], 'INVALID_ARGUMENT'],
    ];
    for (const [what, point, want] of bad) {
      expect(await code(whir.open(handle, { point } as never)), what).toBe(want);
      // verify checks the point before it reads the proof.
      expect(await code(whir.verify(root, {} as never, { point } as never)), `verify: ${what}`).toBe(want);
    }
    expect(await code(whir.open(handle, { trace: 'yes' } as never))).toBe('INVALID_ARGUMENT');
    expect(await code(whir.verify(root, {} as never, { points: good } as never))).toBe('INVALID_ARGUMENT');

    // The handle was never used: it opens now, at a point given as Uint32Arrays.
    const opening = await whir.open(handle, { point: good.map((e) => Uint32Array.from(e)) });
    expect(opening.point).toEqual(good);
    expect(await whir.verify(root, opening)).toEqual({ ok: true });
    expect(await whir.verify(root, opening.proof, { point: good })).toEqual({ ok: true });
    expect(await code(whir.verify(root, opening.proof, { point: good.slice(1) }))).toBe('INVALID_LENGTH');
    expect(await code(whir.verify(root, opening.proof, { point: [[BB_P, 0, 0, 0], ...good.slice(1)] }))).toBe('NON_CANONICAL');
    expect(await code(whir.open(handle, { point: good }))).toBe('DESTROYED');
  });

  it('a point and the trace flag cross the worker codec as plain data', () => {
    const point = randomPoint(79, 6);
    const encoded = encodeArgs([{ point, trace: true }], { challengers: [], handleId: () => undefined });
    const cloned = structuredClone(encoded);
    const [decoded] = decodeArgs(cloned, { handle: () => undefined, signal: new AbortController().signal, challengers: [] }) as [
      { point: Ext4[]; trace: boolean },
    ];
    expect(decoded.point).toEqual(point);
    expect(decoded.trace).toBe(true);
  });
});
