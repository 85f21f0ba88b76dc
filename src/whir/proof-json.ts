/**
 * The WHIR proof in p3-whir 0.9.0-rc.2's serde JSON form (serde_json of `PcsProof`), the form the
 * Rust verifier reads: every BabyBear value in Montgomery form (x·2^32 mod p) as a u32, an
 * extension element as {"value": [c0..c3], "_phantom": null}, a Merkle cap as
 * {"cap": [[8 values]], "_marker": null}, `Poly` as the pair [values, null], enums externally
 * tagged ({"Base": ...} / {"Extension": ...}). `parseProof` reads it back, rejecting values >= p
 * as the verifier does.
 * @module
 */
import { ProverError } from '../errors.js';
import { BB_P } from '../params/babybear.js';
import { fromMonty, toMonty } from '../field/babybear.js';
import type { Ext4 } from './ext.js';
import type { PcsProof, QueryOpenings, SumcheckData, WhirRoundProof } from './proof.js';

type Json = unknown;

const f = (x: number): number => toMonty(x);
const ef = (x: Ext4): Json => ({ value: x.map(f), _phantom: null });
const digest = (d: ArrayLike<number>): number[] => Array.from(d, f);
const cap = (root: ArrayLike<number>): Json => ({ cap: [digest(root)], _marker: null });

function sumcheckJson(s: SumcheckData): Json {
  return { polynomial_evaluations: s.polynomialEvaluations.map(([a, b]) => [ef(a), ef(b)]), pow_witnesses: s.powWitnesses.map(f) };
}

function openingsJson(o: QueryOpenings): Json {
  const proof = { sibling_hashes: o.siblingHashes.map(digest) };
  return o.kind === 'Base'
    ? { Base: { rows: o.rows.map((r) => Array.from(r, f)), proof } }
    : { Extension: { rows: o.rows.map((r) => r.map(ef)), proof } };
}

function roundJson(r: WhirRoundProof): Json {
  return {
    commitment: cap(r.commitment),
    ood_answers: r.oodAnswers.map(ef),
    pow_witness: f(r.powWitness),
    openings: openingsJson(r.openings),
    sumcheck: sumcheckJson(r.sumcheck),
  };
}

/** The proof as the JSON value serde_json makes of p3-whir's `PcsProof`. */
export function proofToJson(proof: PcsProof): Json {
  const w = proof.whir;
  return {
    whir: {
      initial_ood_answers: w.initialOodAnswers.map(ef),
      initial_sumcheck: sumcheckJson(w.initialSumcheck),
      rounds: w.rounds.map(roundJson),
      final_poly: [w.finalPoly.map(ef), null],
      final_pow_witness: f(w.finalPowWitness),
      final_openings: openingsJson(w.finalOpenings),
      final_sumcheck: w.finalSumcheck ? sumcheckJson(w.finalSumcheck) : null,
    },
    evals: [{ current: [ef(proof.evaluation)], next: [] }],
  };
}

/** A commitment root as serde_json writes p3's `MerkleCap`. */
export function rootToJson(root: ArrayLike<number>): Json {
  return cap(root);
}

export function serializeProof(proof: PcsProof): string {
  return JSON.stringify(proofToJson(proof));
}

// ---- parsing ----

function bad(path: string, what: string): ProverError {
  return new ProverError('INVALID_ARGUMENT', `proof JSON: ${path ? `${path} ` : ''}${what}`);
}

function obj(v: Json, path: string): Record<string, Json> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(path, 'is not an object');
  return v as Record<string, Json>;
}

function arr(v: Json, path: string): Json[] {
  if (!Array.isArray(v)) throw bad(path, 'is not an array');
  return v;
}

function field(v: Json, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= BB_P)
    throw bad(path, `is not a BabyBear value below p = ${BB_P} (Montgomery form)`);
  return fromMonty(v);
}

function parseEf(v: Json, path: string): Ext4 {
  const value = arr(obj(v, path).value, `${path}.value`);
  if (value.length !== 4) throw bad(`${path}.value`, 'does not have 4 coefficients');
  return value.map((c, i) => field(c, `${path}.value[${i}]`)) as Ext4;
}

function parseDigest(v: Json, path: string): Uint32Array {
  const d = arr(v, path);
  if (d.length !== 8) throw bad(path, 'is not an 8-element digest');
  return Uint32Array.from(d, (x, i) => field(x, `${path}[${i}]`));
}

function parseCap(v: Json, path: string): Uint32Array {
  const c = arr(obj(v, path).cap, `${path}.cap`);
  if (c.length !== 1) throw bad(`${path}.cap`, 'is not a cap of height 0 (one digest)');
  return parseDigest(c[0], `${path}.cap[0]`);
}

function parseSumcheck(v: Json, path: string): SumcheckData {
  const o = obj(v, path);
  return {
    polynomialEvaluations: arr(o.polynomial_evaluations, `${path}.polynomial_evaluations`).map((pair, i) => {
      const p = arr(pair, `${path}.polynomial_evaluations[${i}]`);
      if (p.length !== 2) throw bad(`${path}.polynomial_evaluations[${i}]`, 'is not a pair');
      return [parseEf(p[0], `${path}.polynomial_evaluations[${i}][0]`), parseEf(p[1], `${path}.polynomial_evaluations[${i}][1]`)];
    }),
    powWitnesses: arr(o.pow_witnesses, `${path}.pow_witnesses`).map((w, i) => field(w, `${path}.pow_witnesses[${i}]`)),
  };
}

function parseOpenings(v: Json, path: string): QueryOpenings {
  const o = obj(v, path);
  const kind = 'Base' in o ? 'Base' : 'Extension' in o ? 'Extension' : null;
  if (!kind) throw bad(path, 'is neither {"Base": ...} nor {"Extension": ...}');
  const inner = obj(o[kind], `${path}.${kind}`);
  const siblingHashes = arr(obj(inner.proof, `${path}.${kind}.proof`).sibling_hashes, `${path}.${kind}.proof.sibling_hashes`).map((d, i) =>
    parseDigest(d, `${path}.${kind}.proof.sibling_hashes[${i}]`),
  );
  const rows = arr(inner.rows, `${path}.${kind}.rows`);
  if (kind === 'Base') {
    return {
      kind,
      siblingHashes,
      rows: rows.map((r, i) => Uint32Array.from(arr(r, `${path}.rows[${i}]`), (x, j) => field(x, `${path}.rows[${i}][${j}]`))),
    };
  }
  return {
    kind,
    siblingHashes,
    rows: rows.map((r, i) => arr(r, `${path}.rows[${i}]`).map((x, j) => parseEf(x, `${path}.rows[${i}][${j}]`))),
  };
}

/** Read a proof from its p3-whir JSON form (a string or the parsed value). */
export function parseProof(json: string | Json): PcsProof {
  let value: Json = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      throw bad('', `is not JSON: ${(e as Error).message}`);
    }
  }
  const root = obj(value, 'proof');
  const w = obj(root.whir, 'whir');
  const evals = arr(root.evals, 'evals');
  if (evals.length !== 1) throw bad('evals', 'does not hold exactly one opening batch');
  const batch = obj(evals[0], 'evals[0]');
  const current = arr(batch.current, 'evals[0].current');
  if (current.length !== 1 || arr(batch.next, 'evals[0].next').length !== 0)
    throw bad('evals[0]', 'is not one current evaluation with no next ones');
  const finalPoly = arr(w.final_poly, 'whir.final_poly');
  return {
    whir: {
      initialOodAnswers: arr(w.initial_ood_answers, 'whir.initial_ood_answers').map((x, i) => parseEf(x, `whir.initial_ood_answers[${i}]`)),
      initialSumcheck: parseSumcheck(w.initial_sumcheck, 'whir.initial_sumcheck'),
      rounds: arr(w.rounds, 'whir.rounds').map((r, i) => {
        const p = `whir.rounds[${i}]`;
        const o = obj(r, p);
        return {
          commitment: parseCap(o.commitment, `${p}.commitment`),
          oodAnswers: arr(o.ood_answers, `${p}.ood_answers`).map((x, j) => parseEf(x, `${p}.ood_answers[${j}]`)),
          powWitness: field(o.pow_witness, `${p}.pow_witness`),
          openings: parseOpenings(o.openings, `${p}.openings`),
          sumcheck: parseSumcheck(o.sumcheck, `${p}.sumcheck`),
        };
      }),
      finalPoly: arr(finalPoly[0], 'whir.final_poly[0]').map((x, i) => parseEf(x, `whir.final_poly[0][${i}]`)),
      finalPowWitness: field(w.final_pow_witness, 'whir.final_pow_witness'),
      finalOpenings: parseOpenings(w.final_openings, 'whir.final_openings'),
      finalSumcheck: w.final_sumcheck === null ? null : parseSumcheck(w.final_sumcheck, 'whir.final_sumcheck'),
    },
    evaluation: parseEf(current[0], 'evals[0].current[0]'),
  };
}

/** Read a root from its `MerkleCap` JSON form. */
export function parseRoot(json: Json): Uint32Array {
  return parseCap(json, 'commitment');
}
