// The quick MSM engine's shape (lanes a group, the passes' groups) and the host's sum of its
// lanes: lane c took bits [c·bits, c·bits + bits) of every scalar, so the answer is
// sum_c 2^(c·bits)·(lane c's sums), checked against noble on points with known multiples.
import { describe, expect, it } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { quickShape, QUICK_HOST_SUMS, QUICK_MAX_LANES, QUICK_PER, QUICK_THREADS } from '../../src/kernels/msm/quick.js';
import { quickSum } from '../../src/kernels/msm/engines.js';
import { toNoble } from '../../src/kernels/msm/fold.js';
import { toLimbs, toMont } from '../../src/params/bn254.js';

const G = bn254.G1.Point;
type Pt = InstanceType<typeof G>;

/** A point as the GPU returns it: projective Montgomery limbs (the identity as zeros). */
function words(p: Pt): number[] {
  if (p.is0()) return Array(24).fill(0);
  const { x, y } = p.toAffine();
  return [x, y, 1n].flatMap((c) => toLimbs(toMont(c)));
}

describe('quickShape', () => {
  it('splits a small run over the most lanes, fewer as runs grow, and passes until few sums are left', () => {
    for (const n of [1, 5, 32, 1000, 2 ** 12, 2 ** 16, 2 ** 17, 2 ** 18]) {
      const { chunks, bits, groups } = quickShape(n);
      expect(chunks * bits).toBe(256);
      expect(groups[0]).toBe(Math.ceil(n / QUICK_PER));
      expect(groups[0] * chunks <= QUICK_THREADS || chunks === 1).toBe(true);
      expect(groups.at(-1)! * chunks).toBeLessThanOrEqual(QUICK_HOST_SUMS);
    }
    expect(quickShape(32).chunks).toBe(QUICK_MAX_LANES);
    expect(quickShape(2 ** 16).chunks).toBe(8);
    expect(quickShape(2 ** 18).chunks).toBe(2);
  });
});

describe('quickSum', () => {
  it('adds each lane and weighs lane c by 2^(c·bits), as the kernel split the scalars', () => {
    for (const chunks of [1, 2, 8]) {
      const bits = 256 / chunks;
      // Two groups of lanes: sum j is lane j % chunks's; lane c's sums are multiples of G with known logs.
      const logs = Array.from({ length: 2 * chunks }, (_, j) => BigInt(j * 7919 + 3) * 1000003n);
      const sums = Uint32Array.from(logs.flatMap((k) => words(G.BASE.multiply(k))));
      let want = 0n;
      logs.forEach((k, j) => (want += k << BigInt((j % chunks) * bits)));
      const got = toNoble(quickSum({ sums, chunks, bits, bad: -1, profile: null, poolBytes: 0 }));
      expect(got.equals(G.BASE.multiply(want % bn254.fields.Fr.ORDER))).toBe(true);
    }
  });
});
