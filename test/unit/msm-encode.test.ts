// MSM input encoding (src/api/msm-encode.ts): packed bytes against the bigint path and toLimbs.
import { describe, it, expect } from 'vitest';
import {
  encodePoints,
  encodeScalars,
  firstScalarAtLeastR,
  pointWords,
  requireEndian,
  scalarAt,
  scalarWords,
} from '../../src/api/msm-encode.js';
import { bn254 } from '@noble/curves/bn254.js';
import { FQ_P, FR_R, toLimbs } from '../../src/params/bn254.js';
import { isProverError } from '../../src/index.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const be32 = (x: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((x >> BigInt(8 * (31 - i))) & 0xffn));
const packBe = (xs: bigint[]) => {
  const out = new Uint8Array(32 * xs.length);
  xs.forEach((x, i) => out.set(be32(x), 32 * i));
  return out;
};
const packLe = (xs: bigint[]) => {
  const out = new Uint8Array(32 * xs.length);
  xs.forEach((x, i) => out.set(be32(x).reverse(), 32 * i));
  return out;
};
const code = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return isProverError(e) ? e.code : String(e);
  }
};

describe('encodeScalars (the CPU twin of msm_split.wgsl) and scalarWords', () => {
  const rng = new SplitMix64(0xe5c0de);
  const random = (bound: bigint) => {
    let k = 0n;
    for (let w = 0; w < 4; w++) k = (k << 64n) | rng.next();
    return k % bound;
  };
  // Sizes across the transpose's block edge (2048), values near r and with leading byte 0x30.
  const edges = [0n, 1n, FR_R - 1n, FR_R - 2n, (FR_R >> 8n) << 8n, 0x30n << 248n, (1n << 253n) + 12345n];

  it.each([1, 7, 2048, 2049, 9000])("packed bytes (LE, BE, Uint32Array) give the bigint path's half-planes (n = %i)", (n) => {
    const xs = Array.from({ length: n }, (_, i) => (i < edges.length ? edges[i] : random(FR_R)));
    const want = encodeScalars(xs, n);
    expect(encodeScalars(packBe(xs), n, 'be')).toEqual(want);
    const le = packLe(xs);
    expect(encodeScalars(le, n)).toEqual(want);
    expect(encodeScalars(new Uint32Array(le.buffer), n)).toEqual(want);
    // and the planes are the scalars' 16-bit halves, little end first
    for (const i of [0, n >> 1, n - 1]) {
      const words = toLimbs(xs[i]);
      for (let h = 0; h < 16; h++) expect(want[h * n + i]).toBe((words[h >> 1] >>> (16 * (h & 1))) & 0xffff);
    }
    // scalarWords hands packed input on as it is (no copy) and bigints as LE limbs
    const w = scalarWords(le, n);
    expect(w.words.buffer).toBe(le.buffer);
    expect(Array.from(scalarWords(xs, n).words)).toEqual(Array.from(w.words));
    for (const i of [0, n - 1]) expect(scalarAt(scalarWords(packBe(xs), n, 'be').words, true, i)).toBe(xs[i]);
  });

  it('reads packed scalars at any byte offset of their buffer', () => {
    const xs = Array.from({ length: 10 }, () => random(FR_R));
    const shifted = new Uint8Array(1 + 32 * xs.length);
    shifted.set(packLe(xs), 1);
    expect(encodeScalars(shifted.subarray(1), xs.length)).toEqual(encodeScalars(xs, xs.length));
  });

  it('rejects scalars >= r in every form, wherever they sit, and wrong lengths', () => {
    for (const bad of [FR_R, FR_R + 1n, (1n << 256n) - 1n, 0x31n << 248n]) {
      const xs = [1n, 2n, bad, 3n];
      expect(code(() => encodeScalars(packLe(xs), 4))).toBe('NON_CANONICAL');
      expect(code(() => encodeScalars(packBe(xs), 4, 'be'))).toBe('NON_CANONICAL');
      expect(firstScalarAtLeastR(scalarWords(packLe(xs), 4).words, false, 4)).toBe(2);
      expect(code(() => encodeScalars(xs, 4))).toBe('NON_CANONICAL');
    }
    expect(code(() => encodeScalars(new Uint8Array(33), 1))).toBe('INVALID_LENGTH');
    expect(code(() => scalarWords(new Uint8Array(64), 1))).toBe('INVALID_LENGTH');
    expect(code(() => requireEndian('little'))).toBe('INVALID_ARGUMENT');
  });
});

describe('encodePoints', () => {
  it('packed coordinates become 16 LE words (x then y); all zeros is the identity; >= p is rejected', () => {
    const coords = [
      [1n, 2n],
      [0n, 0n],
      [FQ_P - 1n, 0x30n << 248n],
      [0n, 7n],
    ];
    const bytes = new Uint8Array(64 * coords.length);
    coords.forEach(([x, y], i) => {
      bytes.set(be32(x), 64 * i);
      bytes.set(be32(y), 64 * i + 32);
    });
    const { words, n, identity } = encodePoints(bytes);
    expect(n).toBe(4);
    expect(identity).toEqual([1]);
    coords.forEach(([x, y], i) => expect(Array.from(words.subarray(16 * i, 16 * i + 16))).toEqual([...toLimbs(x), ...toLimbs(y)]));
    for (const at of [0, 32]) {
      const bad = bytes.slice(0, 64);
      bad.set(be32(FQ_P), at);
      expect(code(() => encodePoints(bad))).toBe('NON_CANONICAL');
    }
  });
  it('noble points: affine (Z = 1), projective (Z ≠ 1, scaled by hand) and the identity in one list', () => {
    const G = bn254.G1.Point;
    const base = [G.BASE, G.BASE.double(), G.BASE.multiply(12345n), G.BASE.add(G.BASE.double()).negate()];
    const affine = base.map((p) => G.fromAffine(p.toAffine()));
    // The same points with Z = 3, 5, 7, 11 (X = xZ, Y = yZ): what additions leave.
    const scaled = affine.map((p, i) => {
      const z = BigInt([3, 5, 7, 11][i]);
      return new G(G.Fp.mul(p.X, z), G.Fp.mul(p.Y, z), z);
    });
    const pts = [affine[0], scaled[0], G.ZERO, affine[1], scaled[1], scaled[2], affine[2], G.ZERO, scaled[3], affine[3]];
    const { words, n, identity } = encodePoints(pts);
    expect(n).toBe(pts.length);
    expect(identity).toEqual([2, 7]);
    pts.forEach((p, i) => {
      const want = p.is0() ? new Array(16).fill(0) : [...toLimbs(p.toAffine().x), ...toLimbs(p.toAffine().y)];
      expect(Array.from(words.subarray(16 * i, 16 * i + 16)), `point ${i}`).toEqual(want);
    });
    expect(scaled.every((p) => p.Z !== 1n) && affine.every((p) => p.Z === 1n)).toBe(true);
  });
});

describe('pointWords (the GPU path)', () => {
  it("packed points go as they are (a view, big-endian); noble points as encodePoints' LE words", () => {
    const pts = [bn254.G1.Point.BASE, bn254.G1.Point.ZERO, bn254.G1.Point.BASE.double()];
    const bytes = new Uint8Array(64 * 3);
    pts.forEach((p, i) => {
      const a = p.is0() ? { x: 0n, y: 0n } : p.toAffine();
      bytes.set(be32(a.x), 64 * i);
      bytes.set(be32(a.y), 64 * i + 32);
    });
    const packed = pointWords(bytes);
    expect([packed.n, packed.encoding, packed.words.buffer === bytes.buffer]).toEqual([3, 'be', true]);
    const affine = pts.map((p) => (p.is0() ? p : bn254.G1.Point.fromAffine(p.toAffine())));
    const fromNoble = pointWords(affine);
    expect([fromNoble.encoding, fromNoble.z]).toEqual(['le', undefined]);
    expect(Array.from(fromNoble.words)).toEqual(Array.from(encodePoints(bytes).words));
    expect(code(() => pointWords(new Uint8Array(65)))).toBe('INVALID_LENGTH');
  });
  it('projective noble points go as X, Y with every Z (the GPU divides), the identity as zeros', () => {
    const G = bn254.G1.Point;
    const a = G.fromAffine(G.BASE.double().toAffine());
    const scaled = new G(G.Fp.mul(a.X, 7n), G.Fp.mul(a.Y, 7n), 7n); // a with Z = 7
    const { words, z, n } = pointWords([G.BASE, scaled, G.ZERO]);
    expect(n).toBe(3);
    expect(Array.from(words)).toEqual([
      ...toLimbs(G.BASE.X),
      ...toLimbs(G.BASE.Y),
      ...toLimbs(scaled.X),
      ...toLimbs(scaled.Y),
      ...Array(16).fill(0),
    ]);
    expect(Array.from(z!)).toEqual([...toLimbs(1n), ...toLimbs(7n), ...Array(8).fill(0)]);
    expect(code(() => pointWords([G.BASE, 5n] as never))).toBe('INVALID_ARGUMENT');
  });
});
