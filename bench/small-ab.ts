/**
 * Small jobs, this version against another, in one process (issue 31: "no job slower at
 * 2^12-2^16"). Separate processes of the same version read the small dft rows 2x apart on the
 * H100's host (bench/RESULTS.md, host arrays), so a comparison across processes shows nothing:
 * here both versions' libraries (each `src/index.ts` bundled on its own) are loaded side by side,
 * each makes a prover on the same GPU, and their calls alternate, the order flipped every round,
 * so both see the same clocks, heap and host load.
 *
 *   node bench/dist/small-ab.mjs bench/dist/lib.mjs bench/dist-base/lib.mjs
 *
 * Rows: dft, lde (x 2), poseidon2 (width 16), bases.msm (an SRS handle per prover) and
 * merkleCommit (width 8) over 2^12 / 2^14 / 2^16 rows (poseidon2: the same words as states), from a host array to a fresh result and into `out`
 * (a library without the option returns a fresh array: `intoOut` says), medians and quartiles of
 * SMALL_AB_ROUNDS (200) alternations after 50 warm calls each; results compared between the two.
 * @module
 */
import { pathToFileURL } from 'node:url';
import { BB_P } from '../src/params/babybear.js';
import { nodeGpu } from './node-gpu.js';
import { tiledBases } from './msm.js';

interface Prover {
  msmBases(points: Uint8Array): Promise<{ msm(scalars: Uint8Array): Promise<{ toBytes(): Uint8Array }> }>;
  dft(x: Uint32Array, o: object): Promise<Uint32Array>;
  lde(x: Uint32Array, o: object): Promise<Uint32Array>;
  poseidon2(x: Uint32Array, o: object): Promise<Uint32Array>;
  merkleCommit(x: Uint32Array, o: object): Promise<{ root: Uint32Array; tree: { dispose(): void } }>;
  destroy(): void;
}
interface Lib {
  createProver(opts: object): Promise<Prover>;
}

/** A row: the job on one prover, into `out` when given; what it returns is compared between the libraries. */
interface Job {
  job: string;
  outWords?: number;
  run(p: Prover, out?: Uint32Array): Promise<Uint32Array>;
}

/** Each prover's SRS handles, one per size. */
const handles = new Map<Prover, Map<string, Awaited<ReturnType<Prover['msmBases']>>>>();
const scalarCache = new Map<number, Uint8Array>();
/** n packed 32-byte scalars below 2^253 < r (the same for both libraries). */
function scalars(n: number, seed: number): Uint8Array {
  let b = scalarCache.get(n);
  if (!b) {
    b = new Uint8Array(32 * n);
    for (let i = 0, s = seed; i < b.length; i++) b[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
    for (let i = 31; i < b.length; i += 32) b[i] &= 0x1f;
    scalarCache.set(n, b);
  }
  return b;
}

function jobs(logN: number): Job[] {
  const n = 1 << logN;
  const x = new Uint32Array(16 * n);
  for (let i = 0, s = logN; i < x.length; i++) x[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % BB_P;
  const col = x.subarray(0, n);
  const with_ = (o: object, out?: Uint32Array) => (out ? { ...o, out } : o);
  return [
    { job: `dft 2^${logN} x 1`, outWords: n, run: (p, out) => p.dft(col, with_({ width: 1 }, out)) },
    {
      job: `lde 2^${logN} -> 2^${logN + 1} x 1`,
      outWords: 2 * n,
      run: (p, out) => p.lde(col, with_({ width: 1, addedBits: 1, shift: 31 }, out)),
    },
    // n / 16 states of width 16: the same n words as the dft row.
    { job: `poseidon2 2^${logN - 4} x 16`, outWords: n, run: (p, out) => p.poseidon2(col, with_({ width: 16 }, out)) },
    {
      // Over an SRS handle made once per prover (its bases stay on the GPU); scalars packed little-endian.
      job: `bases.msm 2^${logN}`,
      run: async (p) => {
        const key = `${logN}`;
        const mine = handles.get(p) ?? new Map();
        handles.set(p, mine);
        let h = mine.get(key);
        if (!h) mine.set(key, (h = await p.msmBases(tiledBases(n).bytes)));
        return Uint32Array.from((await h.msm(scalars(n, logN))).toBytes());
      },
    },
    {
      job: `merkleCommit 2^${logN} x 8`,
      run: async (p) => {
        const c = await p.merkleCommit(x.subarray(0, 8 * n), { width: 8 });
        c.tree.dispose();
        return c.root;
      },
    },
  ];
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(3);
};

const [pathA, pathB] = process.argv.slice(2);
if (!pathA || !pathB) throw new Error('usage: small-ab.mjs <lib A.mjs> <lib B.mjs>');
const gpu = await nodeGpu();
const load = async (p: string) => (await import(pathToFileURL(p).href)) as Lib;
const [libA, libB] = await Promise.all([load(pathA), load(pathB)]);
const opts = { gpu, worker: false, check: 'off', selfCheck: false };
const provers = [await libA.createProver(opts), await libB.createProver(opts)];
const rounds = Number(process.env.SMALL_AB_ROUNDS ?? 200);
let ok = true;

// SMALL_AB_JOBS=<prefixes>: only the rows whose name starts with one of them (e.g. 'dft 2^12,lde 2^12').
const only = process.env.SMALL_AB_JOBS?.split(',');
for (const logN of [12, 14, 16]) {
  for (const job of jobs(logN).filter((j) => !only || only.some((o) => j.job.startsWith(o)))) {
    const out = job.outWords ? new Uint32Array(job.outWords) : undefined;
    for (const mode of out ? ['fresh', 'out'] : ['fresh']) {
      const o = mode === 'out' ? out : undefined;
      const first = await Promise.all(
        provers.map((p) =>
          job.run(p, o).then(
            (r) => ({ r: Array.from(r), intoOut: r === o }),
            (e: Error) => e.message,
          ),
        ),
      );
      const [fa, fb] = first;
      if (typeof fa === 'string' || typeof fb === 'string' || fa.r.join() !== fb.r.join()) {
        ok = false;
        console.log(
          JSON.stringify({
            bench: 'small-ab',
            job: job.job,
            mode,
            ok: false,
            detail: first.map((f) => (typeof f === 'string' ? f : 'result')),
          }),
        );
        continue;
      }
      for (const p of provers) for (let i = 0; i < 50; i++) await job.run(p, o);
      const times: number[][] = [[], []];
      for (let r = 0; r < rounds; r++) {
        for (const k of r % 2 ? [1, 0] : [0, 1]) {
          const t0 = performance.now();
          await job.run(provers[k], o);
          times[k].push(performance.now() - t0);
        }
      }
      const [a, b] = times.map((t) => ({ p25: quantile(t, 0.25), median: quantile(t, 0.5), p75: quantile(t, 0.75) }));
      // intoOut: whether the library wrote into `out` (one without the option returns a fresh array).
      const intoOut = [fa.intoOut, fb.intoOut];
      console.log(
        JSON.stringify({ bench: 'small-ab', job: job.job, mode, a, b, medianAOverB: +(a.median / b.median).toFixed(3), intoOut }),
      );
    }
  }
}
for (const p of provers) p.destroy();
process.exit(ok ? 0 : 1);
