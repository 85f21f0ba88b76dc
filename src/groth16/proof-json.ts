/**
 * snarkjs's JSON forms of a Groth16 proof, its public signals and its verification key, so that
 * `snarkjs.groth16.verify(vk, publicSignals, proof)`, snarkjs's Solidity calldata export and every
 * tool that reads them take ours unchanged. Numbers are decimal strings of canonical values;
 * points are projective triples with z = 1 (G1 `[x, y, "1"]`, G2 `[[x.c0, x.c1], [y.c0, y.c1],
 * ["1", "0"]]`) and the point at infinity is `["0", "1", "0"]` (G2 `[["0","0"],["1","0"],["0","0"]]`),
 * as ffjavascript's `toObject` writes them (snarkjs src/groth16_prove.js,
 * zkey_export_verificationkey.js).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError } from '../errors.js';
import { FR_R } from '../params/bn254-fr.js';
import { FQ_P } from '../params/bn254.js';
import type { G1Point, G2Point } from './point-words.js';
import type { WitnessWords } from './wtns.js';
import { witnessToBigints } from './wtns.js';
import type { Groth16Zkey } from './zkey.js';
import { alphaBetaLoop } from './verify.js';

/** A Groth16 proof as points: πA, πC in G1, πB in G2. */
export interface Groth16Proof {
  readonly a: G1Point;
  readonly b: G2Point;
  readonly c: G1Point;
}

export type G1Json = [string, string, string];
export type Fp2Json = [string, string];
export type G2Json = [Fp2Json, Fp2Json, Fp2Json];

export interface SnarkjsProof {
  pi_a: G1Json;
  pi_b: G2Json;
  pi_c: G1Json;
  protocol: 'groth16';
  curve: 'bn128';
}

export interface SnarkjsVerificationKey {
  protocol: 'groth16';
  curve: 'bn128';
  nPublic: number;
  vk_alpha_1: G1Json;
  vk_beta_2: G2Json;
  vk_gamma_2: G2Json;
  vk_delta_2: G2Json;
  /** e(α1, β2) in Fp12 = Fp6[w] over Fp6 = Fp2[v]: [[c0, c1, c2] of c0, [c0, c1, c2] of c1]. */
  vk_alphabeta_12: [[Fp2Json, Fp2Json, Fp2Json], [Fp2Json, Fp2Json, Fp2Json]];
  IC: G1Json[];
}

const s = (x: bigint) => x.toString(10);

export function g1ToJson(p: G1Point): G1Json {
  if (p.is0()) return ['0', '1', '0'];
  const { x, y } = p.toAffine();
  return [s(x), s(y), '1'];
}

export function g2ToJson(p: G2Point): G2Json {
  if (p.is0()) {
    return [
      ['0', '0'],
      ['1', '0'],
      ['0', '0'],
    ];
  }
  const { x, y } = p.toAffine();
  return [
    [s(x.c0), s(x.c1)],
    [s(y.c0), s(y.c1)],
    ['1', '0'],
  ];
}

/** The proof as snarkjs writes it (`proof.json`). */
export function proofToJson(proof: Groth16Proof): SnarkjsProof {
  return { pi_a: g1ToJson(proof.a), pi_b: g2ToJson(proof.b), pi_c: g1ToJson(proof.c), protocol: 'groth16', curve: 'bn128' };
}

/** Witness indices 1..nPublic as decimal strings (snarkjs's `public.json`: outputs, then public inputs). */
export function publicSignals(witness: WitnessWords, nPublic: number): string[] {
  if (witness.count < nPublic + 1) {
    throw new ProverError(
      'INVALID_LENGTH',
      `witness has ${witness.count} values, fewer than the ${nPublic + 1} a key with ${nPublic} public signals needs`,
    );
  }
  const head = { words: witness.words.subarray(0, 8 * (nPublic + 1)), count: nPublic + 1 };
  return witnessToBigints(head).slice(1).map(s);
}

/**
 * The verification key as `snarkjs zkey export verificationkey` writes it (deep-equal to
 * `snarkjs.zKey.exportVerificationKey(zkey)`), e(α1, β2) computed with noble's pairing.
 */
export function verificationKey(zkey: Groth16Zkey): SnarkjsVerificationKey {
  const e = bn254.fields.Fp12.finalExponentiate(alphaBetaLoop(zkey)); // e(α1, β2)
  const fp2 = (v: { c0: bigint; c1: bigint }): Fp2Json => [s(v.c0), s(v.c1)];
  const fp6 = (v: typeof e.c0): [Fp2Json, Fp2Json, Fp2Json] => [fp2(v.c0), fp2(v.c1), fp2(v.c2)];
  return {
    protocol: 'groth16',
    curve: 'bn128',
    nPublic: zkey.nPublic,
    vk_alpha_1: g1ToJson(zkey.alpha1),
    vk_beta_2: g2ToJson(zkey.beta2),
    vk_gamma_2: g2ToJson(zkey.gamma2),
    vk_delta_2: g2ToJson(zkey.delta2),
    vk_alphabeta_12: [fp6(e.c0), fp6(e.c1)],
    IC: zkey.ic.map(g1ToJson),
  };
}

/** A decimal (or 0x-hex) string or bigint in [0, modulus), or undefined. */
function fieldValue(v: unknown, modulus: bigint): bigint | undefined {
  let x: bigint;
  if (typeof v === 'bigint') x = v;
  else if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v)) x = BigInt(v);
  else return undefined;
  return x < modulus ? x : undefined;
}

/** A projective G1 triple (z = 1 or 0) as a noble point, or undefined when it is not one. */
export function g1FromJson(j: unknown): G1Point | undefined {
  if (!Array.isArray(j) || j.length !== 3) return undefined;
  const [x, y, z] = j.map((v) => fieldValue(v, FQ_P));
  if (x === undefined || y === undefined || z === undefined) return undefined;
  if (z === 0n) return bn254.G1.Point.ZERO;
  if (z !== 1n) return undefined;
  return bn254.G1.Point.fromAffine({ x, y });
}

export function g2FromJson(j: unknown): G2Point | undefined {
  if (!Array.isArray(j) || j.length !== 3) return undefined;
  const c = j.map((pair) => (Array.isArray(pair) && pair.length === 2 ? pair.map((v) => fieldValue(v, FQ_P)) : []));
  if (c.some((pair) => pair.length !== 2 || pair.some((v) => v === undefined))) return undefined;
  const [x, y, z] = c.map(([c0, c1]) => ({ c0: c0 as bigint, c1: c1 as bigint }));
  if (z.c0 === 0n && z.c1 === 0n) return bn254.G2.Point.ZERO;
  if (z.c0 !== 1n || z.c1 !== 0n) return undefined;
  return bn254.G2.Point.fromAffine({ x, y });
}

/**
 * A snarkjs proof JSON as points, or undefined when it is malformed (wrong shape, a coordinate
 * not canonical, a z other than 1 or 0). Points are not checked to be on the curve here: the
 * verifier does that.
 */
export function proofFromJson(json: unknown): Groth16Proof | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const j = json as Partial<Record<'pi_a' | 'pi_b' | 'pi_c', unknown>>;
  const a = g1FromJson(j.pi_a);
  const b = g2FromJson(j.pi_b);
  const c = g1FromJson(j.pi_c);
  return a && b && c ? { a, b, c } : undefined;
}

/** Public signals from strings (as `public.json` holds them), or undefined if one is not in [0, r). */
export function publicSignalsFromJson(json: unknown): bigint[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const out = json.map((v) => fieldValue(v, FR_R));
  return out.every((v) => v !== undefined) ? (out as bigint[]) : undefined;
}
