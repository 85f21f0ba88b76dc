/**
 * The same calls under Node + Dawn and under Deno + wgpu (the `wgpu` column): one file, bundled to
 * bench/dist/runtimes.mjs, run by both in one command on the GPU machine:
 *   node bench/dist/runtimes.mjs; deno run --allow-read --allow-env bench/dist/runtimes.mjs
 * (Deno's own navigator.gpu; Node imports the 'webgpu' package). Through the public API at the
 * defaults a caller gets (`createProver({ gpu })`), medians of REPS after one warm call:
 * - cold: createProver and a first lde 2^17 x 8 (compiles included);
 * - dft 2^24 x 1 with the result on the GPU (gpu: true; the GPU's own time dominates) and with
 *   host arrays in and out; lde 2^24 -> 2^25 x 1; merkleCommit 2^20 x 16; poseidon2 2^20 states;
 * - bases.msm 2^20 end to end, and its GPU time (msmProfiled's passes);
 * - WHIR n = 22 (fold 4, rate 1) commit + open, at the defaults and with check 'off'.
 * Each result's digest is printed, so the two runtimes' rows can be compared value for value.
 * @module
 */
import { createProver } from '../src/index.js';
import { FR_R, toLimbs } from '../src/params/bn254.js';
import { bn254 } from '@noble/curves/bn254.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { nodeGpu } from './node-gpu.js';

const REPS = 5;
// RUNTIMES_SMALL=1: 2^12-sized calls, to try the file on a CPU adapter.
const SMALL = process.env.RUNTIMES_SMALL === '1';
const BIG = SMALL ? 12 : 24;
const MID = SMALL ? 10 : 20;
const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
const runtime = deno ? `deno ${deno.version.deno}` : `node ${process.version}`;

const field = (n: number, seed: number) => new SplitMix64(seed).fieldArray(n);

/** FNV-1a over the words: a result's fingerprint, equal across runtimes when the results are. */
function digest(words: Uint32Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 16777619) >>> 0;
  return h.toString(16);
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number[]; last: T }> {
  let last = await f();
  const ms: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    last = await f();
    ms.push(performance.now() - t0);
  }
  return { ms, last };
}

const rows: Record<string, unknown>[] = [];
const row = (r: Record<string, unknown>) => {
  rows.push({ runtime, ...r });
  console.log(JSON.stringify(rows[rows.length - 1]));
};

const gpu = await nodeGpu();
const t0 = performance.now();
const p = await createProver({ gpu });
const createMs = performance.now() - t0;
const small = field((1 << 17) * 8, 1);
await p.lde(small, { width: 8, addedBits: 1, shift: 31 });
row({ case: 'cold: createProver + first lde 2^17 x 8', ms: performance.now() - t0, createMs });

const x24 = field(1 << BIG, 2);
const onGpu = await timed(async () => {
  const m = await p.dft(x24, { width: 1, gpu: true });
  m.destroy();
});
row({ case: `dft 2^${BIG} x 1, result on the GPU`, ms: median(onGpu.ms) });
const dft = await timed(() => p.dft(x24, { width: 1 }));
row({ case: `dft 2^${BIG} x 1, host arrays`, ms: median(dft.ms), digest: digest(dft.last) });
const lde = await timed(() => p.lde(x24, { width: 1, addedBits: 1, shift: 31 }));
row({ case: `lde 2^${BIG} -> 2^${BIG + 1} x 1, host arrays`, ms: median(lde.ms), digest: digest(lde.last) });
const leaves = field((1 << MID) * 16, 3);
const commit = await timed(() => p.merkleCommit(leaves, { width: 16 }));
row({ case: `merkleCommit 2^${MID} x 16, host arrays`, ms: median(commit.ms), digest: digest(commit.last.root) });
const p2 = await timed(() => p.poseidon2(leaves, { width: 16 }));
row({ case: `poseidon2 2^${MID} states, host arrays`, ms: median(p2.ms), digest: digest(p2.last) });

// 2^20 points: 256 multiples of G tiled (what the MSM does depends on the sizes, not on which points).
const n = 1 << MID;
const tile: Uint8Array[] = [];
for (let i = 0, q = bn254.G1.Point.BASE; i < 256; i++, q = q.add(bn254.G1.Point.BASE)) tile.push(q.toBytes(false).subarray(1));
const points = new Uint8Array(64 * n);
for (let i = 0; i < n; i++) points.set(tile[i % 256], 64 * i);
const rng = new SplitMix64(4);
const scalars = new Uint32Array(8 * n);
for (let i = 0; i < n; i++) {
  const k = rng.next256() % FR_R;
  scalars.set(toLimbs(k), 8 * i);
}
const bases = await p.msmBases(points);
// A profiled call takes the walker (waiting for its compile): the timed calls are warm ones, and
// the GPU time is read after them (a first walker run reads slow: clocks, first-use costs).
await bases.msmProfiled(scalars);
const msm = await timed(() => bases.msm(scalars));
const prof = await bases.msmProfiled(scalars);
row({
  case: `bases.msm 2^${MID}, end to end`,
  ms: median(msm.ms),
  gpuMs: prof.profiles.reduce((sum, r) => sum + (r?.gpuMs ?? 0), 0),
  gpuSource: prof.profiles[0]?.source ?? null,
  digest: msm.last.toHex(true).slice(0, 16),
});
bases.destroy();

// WHIR commit + open, fold 4, rate 1 (p3-whir's rate schedule), at the defaults and with check 'off'.
const whirN = SMALL ? 12 : 22;
const evals = field(1 << whirN, 5);
for (const check of [undefined, 'off'] as const) {
  const whir = await (check ? createProver({ gpu, check }) : Promise.resolve(p));
  const w = whir.whir({ numVariables: whirN, foldingFactor: 4, startingLogInvRate: 1 });
  const run = await timed(async () => w.open((await w.commit(evals)).handle));
  row({ case: `whir n = ${whirN}, fold 4, rate 1, commit + open, check ${check ?? 'default'}`, ms: median(run.ms) });
  if (whir !== p) whir.destroy();
}
p.destroy();
process.exit(0);
