/**
 * BN254 G1 points' projective coordinates as little-endian words, with no field arithmetic: what
 * the MSM's GPU path uploads (kernels/msm/bases.ts divides X and Y by Z there) and what the
 * worker's client sends for projective noble points. A noble point's affine form costs a share of
 * a batch inversion and two multiplies in bigints (~0.5 s for 2^16 points on the H100's host);
 * copying its coordinates' words costs a fifth of that. No noble import: a page that never runs
 * an MSM does not load the curve.
 * @module
 */

/** A point's projective coordinates (x = X/Z, y = Y/Z; Z = 0 is the identity), as noble's G1 has them. */
export interface ProjectiveCoords {
  readonly X: bigint;
  readonly Y: bigint;
  readonly Z: bigint;
}

/** x in [0, 2^256) as 8 little-endian words at words[at..at + 8). */
export function putLimbs(words: Uint32Array, at: number, x: bigint): void {
  // Four 64-bit pieces, each split in two: ~3x faster than eight shifts of the whole bigint.
  for (let q = 0; q < 4; q++) {
    const piece = BigInt.asUintN(64, x >> BigInt(64 * q));
    words[at + 2 * q] = Number(piece & 0xffffffffn);
    words[at + 2 * q + 1] = Number(piece >> 32n);
  }
}

/** Whether every point is affine (Z = 1, as points made from coordinates or bytes are) or the identity (Z = 0). */
export function allAffine(ps: readonly ProjectiveCoords[]): boolean {
  return ps.every((p) => p.Z === 1n || p.Z === 0n);
}

/** X, Y as 16 words a point (the identity as zeros) and, unless allAffine, every Z as 8 words. */
export function projectiveWords(ps: readonly ProjectiveCoords[]): { words: Uint32Array; z?: Uint32Array } {
  const n = ps.length;
  const words = new Uint32Array(16 * n);
  const z = allAffine(ps) ? undefined : new Uint32Array(8 * n);
  for (let i = 0; i < n; i++) {
    const p = ps[i];
    if (p.Z === 0n) continue; // the identity: zeros
    putLimbs(words, 16 * i, p.X);
    putLimbs(words, 16 * i + 8, p.Y);
    if (z) putLimbs(z, 8 * i, p.Z);
  }
  return { words, z };
}
