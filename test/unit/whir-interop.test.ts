// WHIR stages A-C against Plonky3's published p3-whir 0.9.0-rc.2 (bench/whir-oracle), with the
// TypeScript prover on its CPU path (Node has no WebGPU here; the browser spec runs the GPU path):
// A: the commitment root equals the crate's for the same table;
// B: the whole proof equals the crate prover's byte for byte (the crate grinds serially with
//    --threads 1, so both take the smallest PoW witnesses);
// C: the crate's verifier accepts the TS proof and rejects it with any one value changed, and the
//    TS verifier agrees.
// Tables are seeded SplitMix64 values with seeds the code never saw while it was written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProver, type Prover } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { parseProof, rootToJson } from '../../src/whir/proof-json.js';
import { oraclePath, oracleSession } from '../support/whir-oracle.js';
import { whirEnvelope } from '../../bench/support/whir-run.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const BUILD_TIMEOUT = 15 * 60_000;

/** (numVariables, foldingFactor, startingLogInvRate, table seed). */
const CASES: [number, number, number, number][] = [
  [10, 2, 1, 9101],
  [12, 1, 1, 9102],
  [12, 4, 2, 9103],
  [14, 3, 1, 9104],
];

describe('WHIR proofs from TypeScript against p3-whir 0.9.0-rc.2', () => {
  let prover: Prover;
  const { dir, run, u32File, jsonFile } = oracleSession('whir-interop-');

  beforeAll(async () => {
    oraclePath();
    prover = await createProver({ fallback: 'cpu', worker: false });
  }, BUILD_TIMEOUT);
  afterAll(() => prover?.destroy());

  for (const [n, fold, rate, seed] of CASES) {
    it(`n=${n} fold=${fold} rate=${rate}: same root, same proof, accepted; tampered proofs rejected`, async () => {
      const evals = new SplitMix64(seed).fieldArray(2 ** n);
      const table = u32File(`t${n}-${fold}-${rate}.bin`, evals);
      const params = ['--n', String(n), '--fold', String(fold), '--rate', String(rate)];

      const whir = prover.whir({ numVariables: n, foldingFactor: fold, startingLogInvRate: rate });
      const { root, handle } = await whir.commit(evals);
      // A: the root.
      const rustRoot = run('commit', ...params, '--poly', table);
      expect(rustRoot.status, rustRoot.stderr).toBe(0);
      expect(rootToJson(root)).toEqual(JSON.parse(rustRoot.stdout));

      const opening = await whir.open(handle);
      const envelope = whirEnvelope({ n, fold, rate }, root, opening);
      const ours = jsonFile(`ts${n}-${fold}-${rate}.json`, envelope);

      // B: the crate's own proof for the same table, serial grinding.
      const theirs = join(dir, `rs${n}-${fold}-${rate}.json`);
      const p = run('prove', ...params, '--poly', table, '--out', theirs, '--threads', '1');
      expect(p.status, p.stderr).toBe(0);
      const rust = JSON.parse(readFileSync(theirs, 'utf8'));
      expect(envelope.commitment).toEqual(rust.commitment);
      expect(envelope.proof).toEqual(rust.proof);

      // C: the crate's verifier, then the TS verifier, on the TS proof.
      const v = run('verify', ours);
      expect(v.stdout, v.stderr).toMatch(/^VERIFY OK/);
      expect(await whir.verify(root, opening)).toEqual({ ok: true });
      expect(await whir.verify(root, parseProof(JSON.stringify(envelope.proof)))).toEqual({ ok: true });

      // One changed value anywhere is rejected by both: an OOD answer, a sumcheck message, an
      // opened row, a sibling digest, the final polynomial, the claimed evaluation.
      const edits: [string, (j: any) => void][] = [
        ['initial OOD answer', (j) => bump(j.proof.whir.initial_ood_answers[0].value, 0)],
        ['initial sumcheck', (j) => bump(j.proof.whir.initial_sumcheck.polynomial_evaluations[0][1].value, 2)],
        ['round-0 opened row', (j) => bump(rows(j.proof.whir.rounds[0]?.openings ?? j.proof.whir.final_openings)[0], 0)],
        ['sibling digest', (j) => bump(siblings(j.proof.whir.final_openings)[0], 3)],
        ['final polynomial', (j) => bump(j.proof.whir.final_poly[0][0].value, 1)],
        ['claimed evaluation', (j) => bump(j.proof.evals[0].current[0].value, 0)],
      ];
      for (const [what, edit] of edits) {
        const bad = structuredClone(envelope) as any;
        edit(bad);
        const r = run('verify', jsonFile('bad.json', bad));
        expect(r.stdout, `${what}: the crate must reject`).toMatch(/^VERIFY FAILED: /);
        const ts = await whir.verify(root, parseProof(JSON.stringify(bad.proof)));
        expect(ts.ok, `${what}: the TS verifier must reject`).toBe(false);
      }
    }, 120_000);
  }
});

/** Add 1 to arr[i] (a Montgomery-form value; stays below p). */
function bump(arr: number[] | { value: number[] }, i: number): void {
  const a = Array.isArray(arr) ? arr : arr.value;
  a[i] = (a[i] + 1) % BB_P;
}

function rows(openings: any): any[] {
  const inner = openings.Base ?? openings.Extension;
  const row = inner.rows[0];
  return [typeof row[0] === 'number' ? row : row[0].value];
}

function siblings(openings: any): number[][] {
  return (openings.Base ?? openings.Extension).proof.sibling_hashes;
}
