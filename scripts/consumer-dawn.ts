/**
 * `npm run consumer:dawn`: lays out the Node + Dawn consumer (test/consumers/node/dawn.mjs) as an
 * app that ran `npm i webgpu-prover` would have it, in bench/dist/consumer-dawn/ (git-ignored, ~4
 * MB): the packed tarball unpacked in node_modules, its dependencies copied (not linked: the GPU
 * machine gets no node_modules), and expected.json with the answers from the repo's src/ref and
 * @noble/curves. Dawn's 'webgpu' is not copied: the consumer finds the repo's node_modules/webgpu
 * walking up from it, so on the GPU machine `import 'webgpu'` must resolve from the repo root.
 * Then, on the GPU machine, with bench/dist copied into the repo there:
 *   node bench/dist/consumer-dawn/dawn.mjs bench/dist/consumer-dawn/expected.json
 * @module
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { prepare, repo } from '../test/consumers/harness.js';
import { cosetLde } from '../src/ref/ntt.js';
import { merkleTree } from '../src/ref/merkle.js';

const dir = join(repo, 'bench/dist/consumer-dawn');

/** SplitMix-like canonical BabyBear values (fixed seed; not tuned to anything). */
function values(n: number, seed: number): number[] {
  let x = seed >>> 0 || 1;
  return Array.from({ length: n }, () => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return x % 2013265921;
  });
}

/** The jobs dawn.mjs runs and their answers, from src/ref and noble (sizes past one workgroup's tile). */
function expected() {
  const lde = { values: values(1024 * 4, 1), width: 4, addedBits: 1, shift: 31 };
  const merkle = { values: values(1024 * 8, 2), width: 8, index: 700 };
  const tree = merkleTree([{ values: Uint32Array.from(merkle.values), width: merkle.width }]);
  const multiples = Array.from({ length: 256 }, (_, i) => 3 + 7 * i);
  const scalars = values(256, 3).map((v, i) => (BigInt(v) << 200n) + BigInt(v) * BigInt(i + 1));
  const G1 = bn254.G1.Point;
  const a = pippenger(
    G1,
    multiples.map((k) => G1.BASE.multiply(BigInt(k))),
    scalars,
  ).toAffine();
  return {
    lde: { ...lde, out: Array.from(cosetLde(Uint32Array.from(lde.values), lde.width, lde.addedBits, lde.shift)) },
    merkle: { ...merkle, root: Array.from(tree.root) },
    msm: { multiples, scalars: scalars.map(String), x: a.x.toString(16), y: a.y.toString(16) },
  };
}

const { work, unpacked } = prepare();
try {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(join(repo, 'test/consumers/node/dawn.mjs'), join(dir, 'dawn.mjs'));
  cpSync(unpacked, join(dir, 'node_modules/webgpu-prover'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of Object.keys(manifest.dependencies))
    cpSync(join(repo, 'node_modules', dep), join(dir, 'node_modules', dep), { recursive: true, dereference: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer-dawn', private: true, type: 'module' }, null, 2));
  writeFileSync(join(dir, 'expected.json'), JSON.stringify(expected()));
  console.log(
    `wrote ${dir}: run it on the GPU machine (with 'webgpu' in the repo's node_modules) with\n  node bench/dist/consumer-dawn/dawn.mjs bench/dist/consumer-dawn/expected.json`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
