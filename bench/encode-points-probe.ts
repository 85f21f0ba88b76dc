/**
 * Host cost of encodePoints for projective noble points (in-thread msm / msmBases inputs):
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
const got = encodePoints(pts);
if (!got.words.every((w, i) => w === want[i]) || got.identity.join() !== '5') {
  console.error('encodePoints differs from toAffine per point');
  process.exit(1);
}
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  encodePoints(pts);
  console.log(`encodePoints, 2^14 projective noble points: ${(performance.now() - t0).toFixed(1)} ms`);
}
