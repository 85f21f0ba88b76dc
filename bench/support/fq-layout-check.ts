/**
 * The two BN254 Fq layouts on the GPU: the 20 x 13-bit Montgomery multiply (bn254_fq13.gen.wgsl)
 * against bigint with edge values, and the side-by-side multiply microbenchmark of 8x32 and
 * 20x13 (dev page `?autorun=fq-bench`, `npm run bench -- msm`). The benchmark checks before it
 * reports: both layouts must write the same words, equal to a bigint replay of the same job.
 * @module
 */
import type { GpuContext } from '../../src/gpu/context.js';
import { fq13Check, fqInvBench, fqMulBench, type FqLayout } from './msm-fq13.js';
import { FQ_P, fromLimbs, invMod } from '../../src/params/bn254.js';
import { SplitMix64 } from './splitmix.js';
import './wgsl-dev.gen.js'; // msm_fq13 is a dev-only kernel, not in the package
import { median } from './stats.js';
import { fqPairs, type MsmCheckRow } from './msm-check.js';

/** Edge values: 0, 1, p-1, p-2, values with all-ones or single-bit 13-bit limbs, 2^255 mod p. */
export const FQ13_EDGES = [
  0n,
  1n,
  2n,
  FQ_P - 1n,
  FQ_P - 2n,
  1n << 253n,
  (1n << 13n) - 1n,
  1n << 13n,
  (1n << 247n) - 1n,
  (1n << 256n) % FQ_P,
  FQ_P >> 1n,
  (1n << 32n) - 1n,
];

export async function checkFq13(ctx: GpuContext, count: number, seed = 0x13): Promise<MsmCheckRow> {
  const rng = new SplitMix64(seed);
  const { pairs, words } = fqPairs(FQ13_EDGES, count, rng);
  const t0 = performance.now();
  const out = await fq13Check(ctx, words);
  const ms = performance.now() - t0;
  let bad = 0;
  let first = '';
  const names = ['a·b', 'a·a', 'round trip', 'a·b by fq_mul13 (8x32 Montgomery)'];
  pairs.forEach(([a, b], i) => {
    [(a * b) % FQ_P, (a * a) % FQ_P, a, (a * b) % FQ_P].forEach((w, k) => {
      const got = fromLimbs(out, 32 * i + 8 * k);
      if (got !== w) {
        bad++;
        first ||= `pair ${i} ${names[k]}: a=${a} b=${b} got ${got} want ${w}`;
      }
    });
  });
  return {
    step: 'fq13 mul (20x13-bit) vs bigint',
    ok: bad === 0,
    n: pairs.length,
    ms,
    detail: bad ? `${bad} wrong; ${first}` : `${pairs.length} pairs x 4 outputs equal bigint`,
  };
}

/** Start values of thread i of the bench job (as the WGSL writes them) and its bigint replay. */
function benchRef(i: number, iters: number): bigint {
  const w = (ws: number[]) => fromLimbs(ws);
  let x = w([i, 1, 2, 3, 4, 5, 6, 7]);
  let y = w([(i ^ 0x9e3779b9) >>> 0, 7, 6, 5, 4, 3, 2, 1]);
  for (let k = 0; k < iters; k++) {
    x = (x * y) % FQ_P;
    y = (y * x) % FQ_P;
  }
  return x;
}

export interface FqBenchRow {
  layout: FqLayout;
  threads: number;
  mulsPerThread: number;
  ms: number;
  gmulsPerS: number;
  ok: boolean;
  detail: string;
}

/**
 * Every layout on the same job (threads x 2·iters multiplies), 8x32 first. A layout's row is ok
 * only if its output equals the bigint replay on the first 64 threads and the 8x32 output on
 * all threads.
 */
export async function benchFqLayouts(ctx: GpuContext, threads: number, iters: number, reps: number): Promise<FqBenchRow[]> {
  const runs: Awaited<ReturnType<typeof fqMulBench>>[] = [];
  for (const layout of ['8x32', '20x13', '8x32 via 20x13', '8x32 via 20x13, 32 sites'] as FqLayout[])
    runs.push(await fqMulBench(ctx, layout, threads, iters, reps));
  return runs.map((r) => {
    let diff = 0;
    for (let k = 0; k < r.out.length; k++) if (r.out[k] !== runs[0].out[k]) diff++;
    let refBad = 0;
    for (let i = 0; i < Math.min(threads, 64); i++) if (fromLimbs(r.out, 8 * i) !== benchRef(i, iters)) refBad++;
    const ms = median(r.ms);
    const ok = refBad === 0 && diff === 0;
    return {
      layout: r.layout,
      threads,
      mulsPerThread: 2 * iters,
      ms: +ms.toFixed(3),
      gmulsPerS: +((threads * 2 * iters) / (ms / 1e3) / 1e9).toFixed(5),
      ok,
      detail: ok
        ? 'equals bigint (64 threads) and the 8x32 layout (all threads)'
        : `${refBad} threads != bigint, ${diff} words differ from 8x32`,
    };
  });
}

export interface FqInvBenchRow {
  threads: number;
  iters: number;
  usPerInv: number;
  ok: boolean;
  detail: string;
}

/**
 * One inversion's latency (safegcd, bn254_inv.gen.wgsl): a warp of threads each runs `iters`
 * dependent inversions; the output must equal a bigint replay on the first 16 threads.
 */
export async function benchFqInv(ctx: GpuContext, threads: number, iters: number, reps: number): Promise<FqInvBenchRow> {
  const r = await fqInvBench(ctx, threads, iters, reps);
  const ref = (i: number) => {
    let x = fromLimbs([i + 2, 1, 2, 3, 4, 5, 6, 7]) % FQ_P;
    for (let k = 0; k < iters; k++) x = (invMod(x, FQ_P) + 1n) % FQ_P;
    return x;
  };
  const bad = Array.from({ length: Math.min(threads, 16) }, (_, i) => i).filter((i) => fromLimbs(r.out, 8 * i) !== ref(i)).length;
  return {
    threads,
    iters,
    usPerInv: +((median(r.ms) * 1e3) / iters).toFixed(2),
    ok: bad === 0,
    detail: bad === 0 ? 'equals bigint (16 threads)' : `${bad} threads != bigint`,
  };
}
