/**
 * Host cost of encodePoints for noble points (in-thread msm / msmBases inputs), projective (as
 * additions leave them) and affine (Z = 1: built from coordinates or bytes, as an SRS is loaded):
 * `npx tsx bench/encode-points-probe.ts`. Checks the words against a toAffine per point (the
 * plain way) before timing.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { encodePoints } from '../src/api/msm-encode.js';
import { toLimbs } from '../src/params/bn254.js';

const G = bn254.G1.Point;
const step = G.BASE.multiply(987654321n);
const pts = [G.BASE.double()];
while (pts.length < 1 << 14) pts.push(pts[pts.length - 1].add(step)); // projective, Z != 1
pts[5] = G.ZERO;

const want = new Uint32Array(16 * pts.length);
pts.forEach((p, i) => {
  if (p.is0()) return;
  const a = p.toAffine();
  want.set(toLimbs(a.x), 16 * i);
  want.set(toLimbs(a.y), 16 * i + 8);
});
const affine = pts.map((p) => (p.is0() ? p : G.fromAffine(p.toAffine())));
for (const [kind, list] of [
  ['projective', pts],
  ['affine', affine],
] as const) {
  const got = encodePoints(list);
  if (!got.words.every((w, i) => w === want[i]) || got.identity.join() !== '5') {
    console.error(`encodePoints differs from toAffine per point (${kind})`);
    process.exit(1);
  }
}
for (let r = 0; r < 3; r++) {
  for (const [kind, list] of [
    ['projective', pts],
    ['affine (Z = 1)', affine],
  ] as const) {
    const t0 = performance.now();
    encodePoints(list);
    console.log(`encodePoints, 2^14 ${kind} noble points: ${(performance.now() - t0).toFixed(1)} ms`);
  }
}
