/**
 * The host's last step of an MSM: the Horner fold sum_j 2^(s_j) G_j of the GPU's window sums
 * (window j starts at bit s_j: windowStart). It costs ~254 doublings whatever c is, so at small n
 * it is a large part of an msm() call's end-to-end time: done in Jacobian coordinates with plain
 * bigints (2M + 5S a doubling), about half the time of noble's complete projective formulas, and
 * handed back as a noble point.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { FQ_P as P, fromLimbs, fromMont, mod } from '../../params/bn254.js';
import { windowBits } from './layout.js';

const G1 = bn254.G1.Point;
type G1Point = InstanceType<typeof G1>;

/** Jacobian (X, Y, Z): x = X/Z², y = Y/Z³; Z = 0 is the identity. Coordinates in [0, p). */
export type Jac = [bigint, bigint, bigint];
const ZERO: Jac = [1n, 1n, 0n];

/** a mod p in [0, p) (a may be negative). */
const fq = (a: bigint): bigint => mod(a, P);

/**
 * dbl-2009-l (a = 0), with D = 2((X + B)^2 - A - C) taken as 4·X·B (no subtractions of ~500-bit
 * values) and E = 3A left unreduced (one `%` fewer): a 2^16 MSM's fold (~240 doublings) takes
 * ~0.95x the time on a CI core.
 */
export function jacDouble([X, Y, Z]: Jac): Jac {
  if (Z === 0n || Y === 0n) return ZERO;
  const A = (X * X) % P,
    B = (Y * Y) % P,
    C = (B * B) % P;
  const D = (4n * X * B) % P;
  const E = 3n * A;
  const X3 = fq(E * E - 2n * D);
  return [X3, fq(E * (D - X3) - 8n * C), (2n * Y * Z) % P];
}

/** add-2007-bl, with the cases it leaves out: an identity operand, P = Q (double), P = -Q. */
export function jacAdd(a: Jac, b: Jac): Jac {
  const [X1, Y1, Z1] = a,
    [X2, Y2, Z2] = b;
  if (Z1 === 0n) return b;
  if (Z2 === 0n) return a;
  const Z1Z1 = (Z1 * Z1) % P,
    Z2Z2 = (Z2 * Z2) % P;
  const U1 = (X1 * Z2Z2) % P,
    U2 = (X2 * Z1Z1) % P;
  const S1 = (((Y1 * Z2) % P) * Z2Z2) % P,
    S2 = (((Y2 * Z1) % P) * Z1Z1) % P;
  const H = fq(U2 - U1),
    r = fq(2n * (S2 - S1));
  if (H === 0n) return r === 0n ? jacDouble(a) : ZERO;
  const I = (4n * H * H) % P,
    J = (H * I) % P,
    V = (U1 * I) % P;
  const X3 = fq(r * r - J - 2n * V);
  const Y3 = fq(r * (V - X3) - 2n * ((S1 * J) % P));
  return [X3, Y3, fq(((Z1 + Z2) * (Z1 + Z2) - Z1Z1 - Z2Z2) * H)];
}

/** Homogeneous projective (x = X/Z, y = Y/Z) to Jacobian: (X·Z, Y·Z², Z). */
export function fromProjective(X: bigint, Y: bigint, Z: bigint): Jac {
  if (Z === 0n) return ZERO;
  return [(X * Z) % P, (((Y * Z) % P) * Z) % P, Z % P];
}

/** Jacobian to a noble point without an inversion: homogeneous (X·Z, Y, Z³). */
export function toNoble([X, Y, Z]: Jac): G1Point {
  if (Z === 0n) return G1.ZERO;
  return new G1((X * Z) % P, Y, (((Z * Z) % P) * Z) % P);
}

/** Window sums as the host adds them: Jacobian, one a window. */
export type WindowSums = Jac[];

/**
 * `into` plus a run's T window sums (projective, Montgomery limbs, 24 words each), window by
 * window (a new list when `into` is undefined). The fold is linear in the window sums, so the parts
 * of a job with one window size add their sums here and fold once: T additions a part instead of
 * a fold's ~254 doublings.
 */
export function addWindows(into: WindowSums | undefined, win: Uint32Array, T: number): WindowSums {
  const out = into ?? Array.from({ length: T }, () => ZERO);
  for (let j = 0; j < T; j++) {
    const o = 24 * j;
    const [x, y, z] = [0, 8, 16].map((k) => fromMont(fromLimbs(win, o + k)));
    out[j] = jacAdd(out[j], fromProjective(x, y, z));
  }
  return out;
}

/**
 * sum_j 2^(s_j) G_j by Horner, where sum G_j covers `bits(j)` bits from s_j (window sums: windowBits;
 * the quick engine's lanes: the same bits each).
 */
export function foldJac(sums: readonly Jac[], bits: (j: number) => number): Jac {
  let acc = ZERO;
  for (let j = sums.length - 1; j >= 0; j--) {
    for (let i = bits(j); i > 0; i--) acc = jacDouble(acc);
    acc = jacAdd(acc, sums[j]);
  }
  return acc;
}

/** foldJac of the window sums of window size c, as a noble point. */
export function foldSums(sums: WindowSums, c: number): G1Point {
  return toNoble(foldJac(sums, (j) => windowBits(j, c)));
}
