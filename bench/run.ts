/**
 * Benchmark entry (Node + Dawn): `npm run bench -- field` here, or on the GPU machine
 * `node bench/dist/bench.mjs field` after `npm run bench:bundle` (see bench/RESULTS.md).
 * Prints one JSON line per row and, with --out FILE, writes them all as JSON.
 * Every suite checks its kernels against src/ref before timing; a failed check exits 1.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { nodeGpu } from './node-gpu.js';
import { benchField, type BenchOutput } from './field.js';
import { benchNtt } from './ntt.js';
import { benchNttBlocked } from './ntt-blocked.js';
import { benchMsm } from './msm.js';
import { benchCommit, benchGrind, benchMerkle, benchPoseidon2 } from './hash.js';
import { benchChecks } from './checks.js';
import { benchCold } from './cold.js';
import { benchWhir } from './whir.js';
import { benchWhirCommit } from './whir-commit.js';
import { benchTransfer } from './host-arrays.js';
import { benchGroth16 } from './groth16.js';
import { benchMsmStart } from './msm-start.js';

const SUITES: Record<string, (gpu: GPU) => Promise<BenchOutput>> = {
  field: benchField,
  ntt: benchNtt,
  'ntt-blocked': benchNttBlocked,
  poseidon2: benchPoseidon2,
  merkle: benchMerkle,
  grind: benchGrind,
  commit: benchCommit,
  msm: benchMsm,
  checks: benchChecks,
  cold: benchCold,
  whir: benchWhir,
  'whir-commit': benchWhirCommit,
  transfer: benchTransfer,
  groth16: benchGroth16,
  'msm-start': benchMsmStart,
};

const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
const outFile = outIdx >= 0 ? args[outIdx + 1] : undefined;
const names = args.filter((a, i) => !a.startsWith('--') && (outIdx < 0 || i !== outIdx + 1));
const unknown = names.filter((n) => !(n in SUITES));
if (names.length === 0 || unknown.length) {
  console.error(
    `usage: bench <${Object.keys(SUITES).join('|')}>... [--out results.json]${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
  );
  process.exit(2);
}

const gpu = await nodeGpu();
const all: Record<string, unknown>[] = [];
let ok = true;
for (const name of names) {
  const r = await SUITES[name](gpu);
  for (const row of r.rows) console.log(JSON.stringify(row));
  all.push(...r.rows);
  ok &&= r.ok;
}
if (outFile) writeFileSync(outFile, JSON.stringify(all, null, 1));
if (!ok) console.error('a correctness check failed: timings not trustworthy');
process.exit(ok ? 0 : 1);
