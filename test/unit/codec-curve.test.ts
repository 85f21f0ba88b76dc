// The worker client loads noble's BN254 on demand (src/worker/codec.ts): which calls need it
// (mayHoldPoints), and that points are packed and rebuilt exactly once it is loaded.
import { describe, expect, it } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { curveLoaded, decodeArgs, encodeArgs, loadCurve, mayHoldPoints, unpackPoint } from '../../src/worker/codec.js';
import { DuplexChallenger } from '../../src/ref/challenger.js';

const G = bn254.G1.Point.BASE;
const hooks = () => ({ challengers: [] as DuplexChallenger[], handleId: () => undefined });

describe('noble loaded on demand by the worker codec', () => {
  it('finds points where encode packs them, and nothing in plain data', () => {
    expect(
      mayHoldPoints([
        [G, G.double()],
        [1n, 2n],
      ]),
    ).toBe(true);
    expect(mayHoldPoints([G])).toBe(true);
    expect(mayHoldPoints([{ bases: [G] }])).toBe(true);
    expect(mayHoldPoints([new Uint32Array(8), { width: 8, signal: new AbortController().signal }])).toBe(false);
    expect(mayHoldPoints([Array.from({ length: 1 << 16 }, (_, i) => BigInt(i)), new Uint8Array(64)])).toBe(false);
    expect(mayHoldPoints([new DuplexChallenger(), 8])).toBe(false);
  });

  it('before loadCurve no point is decoded; after it, points round-trip to the same noble points', async () => {
    expect(curveLoaded()).toBe(false);
    expect(() => unpackPoint(new Uint8Array(64))).toThrow(/before the curve was loaded/);
    await loadCurve();
    expect(curveLoaded()).toBe(true);
    const affine = (p: InstanceType<typeof bn254.G1.Point>) => bn254.G1.Point.fromAffine(p.toAffine());
    const points = [G, affine(G.double()), bn254.G1.Point.ZERO, affine(G.multiply(12345n))];
    const [packed, one] = encodeArgs([points, G.multiply(7n)], hooks()) as [{ $points: Uint8Array }, { $point: Uint8Array }];
    expect(packed.$points.length).toBe(64 * points.length);
    const [bytes, point] = decodeArgs([packed, one], {
      handle: () => undefined,
      signal: new AbortController().signal,
      challengers: [],
    }) as [Uint8Array, InstanceType<typeof bn254.G1.Point>];
    expect(bytes).toBe(packed.$points); // packed points go to msm() as they are
    expect(point.equals(G.multiply(7n))).toBe(true);
    points.forEach((p, i) => expect(unpackPoint(packed.$points.subarray(64 * i, 64 * i + 64)).equals(p)).toBe(true));
  });

  it('an array with projective points goes as X, Y, Z words (no inversion on the page) and comes back as the same points', async () => {
    await loadCurve();
    const P = bn254.G1.Point;
    const points = [G, G.double().add(G), P.ZERO, G.multiply(12345n).add(G.double()), G.negate().add(G.double())];
    expect(points.filter((p) => p.Z !== 1n && p.Z !== 0n).length).toBeGreaterThan(0);
    const [sent] = encodeArgs([points], hooks()) as [{ $projective: { words: Uint32Array; z: Uint32Array } }];
    expect(sent.$projective.z.length).toBe(8 * points.length);
    const [back] = decodeArgs([sent], { handle: () => undefined, signal: new AbortController().signal, challengers: [] }) as [
      InstanceType<typeof P>[],
    ];
    expect(back.length).toBe(points.length);
    points.forEach((p, i) => {
      expect(back[i].equals(p), `point ${i}`).toBe(true);
      if (!p.is0()) expect([back[i].X, back[i].Y, back[i].Z]).toEqual([p.X, p.Y, p.Z]);
    });
  });
});
