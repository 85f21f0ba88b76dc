/**
 * The last step of a Groth16 proof, as snarkjs's groth16_prove.js takes it: the five MSM sums
 *   A = Σ w_i·A_i, B1 = Σ w_i·B1_i (G1), B2 = Σ w_i·B2_i (G2), C = Σ_{i > nPublic} w_i·C_i, H = Σ h_j·H_j
 * plus the key points and two blinding scalars r, s give
 *   πA = α1 + A + r·δ1
 *   πB = β2 + B2 + s·δ2
 *   πC = C + H + s·πA + r·(β1 + B1 + s·δ1) − r·s·δ1
 * (πB's G1 twin β1 + B1 + s·δ1 only enters πC). r and s hide the witness: they must be fresh and
 * uniform in Fr for every proof (zero-knowledge rests on it), so they come from
 * crypto.getRandomValues unless a test pins them. Both the CPU prover and the GPU path end here.
 * @module
 */
import { ProverError } from '../errors.js';
import { FR_R } from '../params/bn254-fr.js';
import type { G1Point, G2Point } from './point-words.js';
import type { Groth16Proof } from './proof-json.js';

/** The five multi-scalar multiplications of a proof. */
export interface Groth16MsmSums {
  readonly a: G1Point;
  readonly b1: G1Point;
  readonly b2: G2Point;
  readonly c: G1Point;
  readonly h: G1Point;
}

/** The key points the combination needs: a Groth16Zkey has them. */
export interface Groth16BlindingKey {
  readonly alpha1: G1Point;
  readonly beta1: G1Point;
  readonly beta2: G2Point;
  readonly delta1: G1Point;
  readonly delta2: G2Point;
}

export interface Groth16Blinding {
  readonly r: bigint;
  readonly s: bigint;
}

/** 2^254 > r > 2^253: a 254-bit draw is below r ~76% of the time, so ~1.3 draws per scalar. */
const FR_BITS = 254n;
const FR_MASK = (1n << FR_BITS) - 1n;

/** A uniform element of Fr from crypto.getRandomValues (rejection sampling: no modular bias). */
export function randomFr(): bigint {
  const bytes = new Uint8Array(32);
  for (;;) {
    globalThis.crypto.getRandomValues(bytes);
    let x = 0n;
    for (const b of bytes) x = (x << 8n) | BigInt(b);
    x &= FR_MASK;
    if (x < FR_R) return x;
  }
}

/**
 * δ1 and δ2 with noble's window tables attached, from a key's second proof on: each proof
 * multiplies them by secret scalars (constant time either way), faster with the tables (VM: ~3 ms
 * against ~10). Building them (~22 ms on the VM, ~3x that on the H200 host) costs more than they
 * save in one proof, so a key's first proof (and a self-check's only one) goes without. 4-bit
 * windows: 8-bit ones took ~250 ms to build (δ2's 4096 G2 points; H200 host) for ~1 ms less a proof.
 */
const BLINDING_WINDOW = 4;
const precomputed = new WeakMap<Groth16BlindingKey, 'once' | [G1Point, G2Point]>();
function fixedBases(key: Groth16BlindingKey): [G1Point, G2Point] {
  const got = precomputed.get(key);
  if (Array.isArray(got)) return got;
  if (got === undefined) {
    precomputed.set(key, 'once');
    return [key.delta1, key.delta2];
  }
  const bases: [G1Point, G2Point] = [key.delta1.precompute(BLINDING_WINDOW, false), key.delta2.precompute(BLINDING_WINDOW, false)];
  precomputed.set(key, bases);
  return bases;
}

/** k·P for k in [0, r): noble's constant-time multiply refuses 0, which is the identity here. */
function times<P extends G1Point | G2Point>(p: P, k: bigint): P {
  return (k === 0n ? p.multiplyUnsafe(0n) : p.multiply(k)) as P;
}

function checkScalar(name: string, k: unknown): bigint {
  if (typeof k !== 'bigint') throw new ProverError('INVALID_ARGUMENT', `blinding.${name} must be a bigint, got ${typeof k}`);
  if (k < 0n || k >= FR_R) throw new ProverError('NON_CANONICAL', `blinding.${name} = ${k} is outside [0, r)`);
  return k;
}

/** One proof's blinding: πA, πB and πC from their MSM sums, each as soon as its sums are in. */
export interface Blinder {
  a(a: G1Point): G1Point;
  b(b2: G2Point): G2Point;
  /** πC less the H sum (πC = cWithoutH + H): the H MSM is a proof's last. */
  cWithoutH(sums: Omit<Groth16MsmSums, 'h' | 'b2'>): G1Point;
}

/**
 * A proof's blinder: fresh r and s (or `blinding`), δ1 and δ2 resolved once for the proof.
 * @param blinding - r and s; leave it out outside tests (a reused or guessable r, s reveals the witness)
 * @throws ProverError INVALID_ARGUMENT / NON_CANONICAL for a given r or s that is not a bigint in [0, r)
 */
export function blinder(key: Groth16BlindingKey, blinding?: Groth16Blinding): Blinder {
  const r = blinding ? checkScalar('r', blinding.r) : randomFr();
  const s = blinding ? checkScalar('s', blinding.s) : randomFr();
  const [delta1, delta2] = fixedBases(key);
  return {
    a: (a) => a.add(key.alpha1).add(times(delta1, r)),
    b: (b2) => b2.add(key.beta2).add(times(delta2, s)),
    // s·πA + r·(β1 + B1 + s·δ1) − r·s·δ1 = s·(α1 + A) + r·(β1 + B1) + r·s·δ1: two multiplies of
    // variable points instead of three (and one of δ1 instead of two).
    cWithoutH: (sums) =>
      sums.c
        .add(times(sums.a.add(key.alpha1), s))
        .add(times(sums.b1.add(key.beta1), r))
        .add(times(delta1, (r * s) % FR_R)),
  };
}

/**
 * The proof's points from the MSM sums.
 * @param blinding - as for blinder()
 * @throws ProverError INVALID_ARGUMENT / NON_CANONICAL for a given r or s that is not a bigint in [0, r)
 * @example
 * const proof = assembleProof(zkey, { a, b1, b2, c, h });
 */
export function assembleProof(key: Groth16BlindingKey, sums: Groth16MsmSums, blinding?: Groth16Blinding): Groth16Proof {
  const blind = blinder(key, blinding);
  return { a: blind.a(sums.a), b: blind.b(sums.b2), c: blind.cWithoutH(sums).add(sums.h) };
}
