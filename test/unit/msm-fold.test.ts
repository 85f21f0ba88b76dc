// The host's Horner fold of window sums (src/kernels/msm/fold.ts) against noble's own arithmetic.
import { describe, it, expect } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { addWindows, foldSums, fromProjective, jacAdd, jacDouble, toNoble } from '../../src/kernels/msm/fold.js';
import { FQ_P, toLimbs, toMont } from '../../src/params/bn254.js';
import { windowStart } from '../../src/params/msm-layout.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const G1 = bn254.G1.Point;
type Pt = InstanceType<typeof G1>;
const rng = new SplitMix64(0xf01d);
const scalar = () => rng.next256() % bn254.fields.Fr.ORDER;
const point = () => G1.BASE.multiply(scalar() || 1n);
const nonzero = () => (scalar() % (FQ_P - 1n)) + 1n;

/** A point as the GPU returns a window sum: projective (x·λ, y·λ, λ) for some λ, Montgomery limbs. */
function gpuWords(p: Pt): number[] {
  if (p.is0()) return Array(24).fill(0);
  const a = p.toAffine(),
    l = nonzero();
  return [a.x * l, a.y * l, l].flatMap((v) => toLimbs(toMont(v % FQ_P)));
}
function fold(windows: Pt[], c: number): Pt {
  return foldSums(addWindows(undefined, Uint32Array.from(windows.flatMap(gpuWords)), windows.length), c);
}
/** sum_j 2^(windowStart(j)) G_j with noble's own arithmetic (windows of c bits, the top ones of c - 1). */
function horner(windows: Pt[], c: number): Pt {
  return windows.reduce((acc, w, j) => acc.add(w.multiplyUnsafe(1n << BigInt(windowStart(j, c)))), G1.ZERO);
}
const jac = (p: Pt) => {
  const a = p.toAffine();
  return fromProjective(a.x, a.y, 1n);
};

describe('msm fold', () => {
  it('Jacobian add and double equal noble, including P = Q, P = -Q and the identity', () => {
    const P = point(),
      Q = point();
    expect(toNoble(jacAdd(jac(P), jac(Q))).equals(P.add(Q))).toBe(true);
    expect(toNoble(jacAdd(jac(P), jac(P))).equals(P.double())).toBe(true);
    expect(toNoble(jacAdd(jac(P), jac(P.negate()))).is0()).toBe(true);
    expect(toNoble(jacAdd(fromProjective(0n, 1n, 0n), jac(Q))).equals(Q)).toBe(true);
    expect(toNoble(jacAdd(jac(Q), fromProjective(0n, 1n, 0n))).equals(Q)).toBe(true);
    expect(toNoble(jacDouble(jac(P))).equals(P.double())).toBe(true);
    expect(toNoble(jacDouble(fromProjective(0n, 1n, 0n))).is0()).toBe(true);
  });

  it("folds random window sums as noble does, for the plans' window sizes", () => {
    for (const [T, c] of [
      [1, 8],
      [32, 8],
      [17, 15],
      [16, 16],
      [3, 13],
    ]) {
      const windows = Array.from({ length: T }, () => point());
      expect(fold(windows, c).equals(horner(windows, c)), `T=${T} c=${c}`).toBe(true);
    }
  });

  it('identity windows, a window equal to the running sum (a doubling) and one cancelling it', () => {
    const P = point(),
      c = 8;
    const shifted = P.multiplyUnsafe(1n << BigInt(c));
    const cases: Pt[][] = [
      [G1.ZERO, G1.ZERO, G1.ZERO],
      [G1.ZERO, P, G1.ZERO],
      [shifted, P], // acc = 2^c·P meets G_0 = 2^c·P
      [shifted.negate(), P], // ... and -2^c·P: the identity
      [P, G1.ZERO, G1.ZERO, G1.ZERO],
    ];
    for (const w of cases) expect(fold(w, c).equals(horner(w, c))).toBe(true);
    expect(fold([shifted.negate(), P], c).is0()).toBe(true);
  });

  it("the parts of a job: their window sums added, then one fold, equal the sum of each part's fold", () => {
    const c = 11,
      T = 24;
    const parts = Array.from({ length: 4 }, () => Array.from({ length: T }, () => point()));
    // equal and opposite windows across parts: the adds' doubling and cancelling cases
    parts[1][3] = parts[0][3];
    parts[2][5] = parts[0][5].negate();
    parts[3][7] = G1.ZERO;
    let sums: ReturnType<typeof addWindows> | undefined;
    for (const w of parts) sums = addWindows(sums, Uint32Array.from(w.flatMap(gpuWords)), T);
    const want = parts.reduce((acc, w) => acc.add(horner(w, c)), G1.ZERO);
    expect(foldSums(sums!, c).equals(want)).toBe(true);
  });
});
