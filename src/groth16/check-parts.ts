/**
 * The Groth16 tasks of the check thread (checks/check-tasks.ts): the signals' and πA, πB's parts
 * of a check (verify.ts), with the points and the key as plain bigints across the threads. The
 * thread keeps each key's points (and noble's G2 precomputations with them) by the key's id.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import type { G1Point, G2Point } from './point-words.js';
import { proofPart, publicPart, type Groth16VerifyingKey } from './verify.js';

/** A G1 point as affine (x, y), null for infinity. */
export type G1Wire = [bigint, bigint] | null;
/** A G2 point as affine ((x.c0, x.c1), (y.c0, y.c1)), null for infinity. */
export type G2Wire = [[bigint, bigint], [bigint, bigint]] | null;

export interface VerifyingKeyWire {
  /** Names the key within the prover thread's lifetime. */
  id: number;
  alpha1: G1Wire;
  beta2: G2Wire;
  gamma2: G2Wire;
  delta2: G2Wire;
  ic: G1Wire[];
}

/** An Fp12 element (noble's plain object of bigints). */
export type Fp12Value = ReturnType<typeof bn254.pairingBatch>;

export type Groth16Task =
  { kind: 'groth16-public'; vk: VerifyingKeyWire; publics: bigint[] } | { kind: 'groth16-proof'; a: G1Wire; b: G2Wire };

/** A part's Miller loop product; null where the part's inputs are invalid. */
export type Groth16Answer = { kind: 'groth16-public' | 'groth16-proof'; loop: Fp12Value | null };

export function g1Wire(p: G1Point): G1Wire {
  if (p.is0()) return null;
  const { x, y } = p.toAffine();
  return [x, y];
}

export function g2Wire(p: G2Point): G2Wire {
  if (p.is0()) return null;
  const { x, y } = p.toAffine();
  return [
    [x.c0, x.c1],
    [y.c0, y.c1],
  ];
}

/** The point of a wire form, unchecked (the parts check the proof's points). */
const g1FromWire = (w: G1Wire): G1Point => (w ? bn254.G1.Point.fromAffine({ x: w[0], y: w[1] }) : bn254.G1.Point.ZERO);

function g2FromWire(w: G2Wire): G2Point {
  if (!w) return bn254.G2.Point.ZERO;
  const { Fp2 } = bn254.fields;
  return bn254.G2.Point.fromAffine({ x: Fp2.create({ c0: w[0][0], c1: w[0][1] }), y: Fp2.create({ c0: w[1][0], c1: w[1][1] }) });
}

const wires = new WeakMap<Groth16VerifyingKey, VerifyingKeyWire>();
let keyIds = 0;

/** `vk`'s wire form, made once per key. */
export function verifyingKeyWire(vk: Groth16VerifyingKey): VerifyingKeyWire {
  let w = wires.get(vk);
  if (!w) {
    w = {
      id: ++keyIds,
      alpha1: g1Wire(vk.alpha1),
      beta2: g2Wire(vk.beta2),
      gamma2: g2Wire(vk.gamma2),
      delta2: g2Wire(vk.delta2),
      ic: vk.ic.map(g1Wire),
    };
    wires.set(vk, w);
  }
  return w;
}

/** Keys seen here, by id (a few per page). */
const keys = new Map<number, Groth16VerifyingKey>();

function keyFromWire(w: VerifyingKeyWire): Groth16VerifyingKey {
  let vk = keys.get(w.id);
  if (!vk) {
    vk = {
      alpha1: g1FromWire(w.alpha1),
      beta2: g2FromWire(w.beta2),
      gamma2: g2FromWire(w.gamma2),
      delta2: g2FromWire(w.delta2),
      ic: w.ic.map(g1FromWire),
    };
    keys.set(w.id, vk);
  }
  return vk;
}

export function runGroth16Task(task: Groth16Task): Groth16Answer {
  if (task.kind === 'groth16-public') return { kind: task.kind, loop: publicPart(keyFromWire(task.vk), task.publics).loop };
  let a: G1Point, b: G2Point;
  try {
    [a, b] = [g1FromWire(task.a), g2FromWire(task.b)];
  } catch {
    return { kind: task.kind, loop: null }; // not on the curve: not in its group either
  }
  return { kind: task.kind, loop: proofPart(a, b).loop };
}
