/**
 * `npm run bench -- msm`: BN254 MSM from 2^10 to 2^22 (Node + Dawn). Checks first: WGSL Fq
 * ops vs bigint, the edge cases vs noble at 2^10, and at every timed size the exact
 * answer from known discrete logs (points tile 2^14 multiples d_i·G, so the MSM must equal
 * (sum s_i·d_i mod r)·G). Then wall time, per-pass GPU time (timestamp-query), pool bytes,
 * and the Fq multiply rate next to roofline.mjs. `MSM_LOGN=10,12` and `MSM_TUNE=c:S` narrow it.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { createProver } from '../src/index.js';
import { GpuContext } from '../src/gpu/context.js';
import { fqBench } from '../src/kernels/msm.js';
import { FR_R } from '../src/params/bn254.js';
import { checkFq, checkMsmCase, msmCases, packPoints, seededScalar } from '../test/gpu/msm-check.js';
import { SplitMix64 } from '../test/support/splitmix.js';
import { median, roofline } from './node-gpu.js';
import type { BenchOutput } from './field.js';

const G = bn254.G1.Point;
const TILE = 1 << 14;

/** n packed points tiling TILE distinct points d_i·G, and their discrete logs. */
function tiledBases(n: number): { bytes: Uint8Array; dlog: bigint[] } {
  const rng = new SplitMix64(0x5151);
  const d0 = seededScalar(rng), step = seededScalar(rng);
  const m = Math.min(n, TILE);
  const dlog: bigint[] = [];
  const pts = [G.BASE.multiply(d0)];
  dlog.push(d0);
  const sp = G.BASE.multiply(step);
  for (let i = 1; i < m; i++) { pts.push(pts[i - 1].add(sp)); dlog.push((dlog[i - 1] + step) % FR_R); }
  const tile = packPoints(pts);
  const bytes = new Uint8Array(64 * n);
  for (let o = 0; o < n; o += m) bytes.set(tile.subarray(0, 64 * Math.min(m, n - o)), 64 * o);
  return { bytes, dlog };
}

/** Random scalars < 2^253 < r as 32 BE bytes each, and the expected (sum s_i·d_i)·G. */
function scalarsAndExpected(n: number, dlog: bigint[], seed: number): { bytes: Uint8Array; expected: InstanceType<typeof G> } {
  const rng = new SplitMix64(seed);
  const bytes = new Uint8Array(32 * n);
  let acc = 0n;
  for (let i = 0; i < n; i++) {
    let k = 0n;
    for (let w = 0; w < 4; w++) k = (k << 64n) | rng.next();
    k >>= 3n;
    for (let b = 0; b < 32; b++) bytes[32 * i + 31 - b] = Number((k >> BigInt(8 * b)) & 0xffn);
    acc += k * dlog[i % dlog.length];
    if ((i & 1023) === 1023) acc %= FR_R;
  }
  acc %= FR_R;
  return { bytes, expected: acc === 0n ? G.ZERO : G.BASE.multiply(acc) };
}

export async function benchMsm(gpu: GPU): Promise<BenchOutput> {
  const rows: Record<string, unknown>[] = [];
  let ok = true;
  const ctx = await GpuContext.create(gpu);
  const fq = await checkFq(ctx, 4096);
  rows.push({ bench: 'msm-check', ...fq });
  ok &&= fq.ok;
  const limit = await roofline(ctx.device);
  const threads = 1 << 18, iters = 64;
  const fb = await fqBench(ctx, threads, iters, 5);
  const fms = median(fb.ms);
  const fqRate = (threads * iters * 2) / (fms / 1e3) / 1e9;
  rows.push({ bench: 'fq-mul', adapter: ctx.description, layout: '8x32 CIOS no-carry, unrolled', threads, mulsPerThread: 2 * iters, ms: +fms.toFixed(3), gmulsPerS: +fqRate.toFixed(3), rooflineBabyBearGmulsPerS: limit.montGmuls, ratio: +(fqRate / limit.montGmuls).toFixed(5), copyGBs: limit.copyGBs });
  ctx.destroy();

  const prover = await createProver({ gpu });
  for (const c of msmCases(10)) {
    const r = await checkMsmCase(prover, c);
    rows.push({ bench: 'msm-check', step: r.step, n: r.n, ok: r.ok, detail: r.detail });
    ok &&= r.ok;
  }
  if (!ok) { prover.destroy(); return { rows, ok }; }

  const logns = (process.env.MSM_LOGN ?? '10,12,14,16,18,20,22').split(',').map(Number);
  const [tc, ts] = (process.env.MSM_TUNE ?? '').split(':').map((x) => (x ? Number(x) : undefined));
  for (const logn of logns) {
    const n = 1 << logn;
    const { bytes, dlog } = tiledBases(n);
    const { bytes: sc, expected } = scalarsAndExpected(n, dlog, 77 + logn);
    const h = await prover.msmBases(bytes);
    const tuning = { c: tc, S: ts };
    const first = await h.msmProfiled(sc, tuning);
    const good = first.point.equals(expected);
    ok &&= good;
    const walls: number[] = [];
    let best = first;
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      const x = await h.msmProfiled(sc, tuning);
      walls.push(performance.now() - t0);
      if ((x.profiles[0]?.gpuMs ?? 1e9) < (best.profiles[0]?.gpuMs ?? 1e9)) best = x;
    }
    const passes: Record<string, number> = {};
    for (const p of best.profiles.flatMap((q) => q?.passes ?? [])) passes[p.label] = +((passes[p.label] ?? 0) + (p.ms ?? 0)).toFixed(3);
    const gpuMs = best.profiles.reduce((s, p) => s + (p?.gpuMs ?? 0), 0);
    const plan = best.plans[0];
    rows.push({ bench: 'msm', logn, n, ok: good, c: plan.c, S: plan.S, nwin: plan.nwin, batches: plan.batches, walkThreads: plan.walkThreads, gpuMs: +gpuMs.toFixed(3), wallMs: +median(walls).toFixed(3), passes, poolBytes: best.poolBytes });
    h.destroy();
    console.error(JSON.stringify(rows.at(-1)));
  }
  prover.destroy();
  return { rows, ok };
}
