/**
 * `npm run bench -- msm`: BN254 MSM from 2^10 to 2^22 (Node + Dawn). Checks first: WGSL Fq
 * ops vs bigint, the issue's edge cases vs noble at 2^10, and at every timed size the exact
 * answer from known discrete logs (points tile 2^14 multiples d_i·G, so the MSM must equal
 * (sum s_i·d_i mod r)·G). Then per size: GPU time (timestamp-query, per pass), and as a caller
 * sees it, from packed LE scalars in a Uint32Array to a noble point: bases.msm, the one-shot
 * prover.msm (bases upload included), msmBatch of 4 vectors, the host-side calls alone (hostMs),
 * each result checked, and a one-shot whose last point is off the curve (it must fail, naming the
 * point: the one-shot reads its points' checks at the end of its job); runs and pool bytes (where
 * the job is cut into parts, the one-run job too),
 * and the Fq multiply rate of both limb layouts (8x32, 20x13; same job, checked) next to roofline.mjs. `MSM_LOGN=10,12` and `MSM_TUNE=c:S` narrow it;
 * `MSM_EXTRA` (a JSON array of MsmTuning) adds a row per size and tuning, e.g. `[{"mul13":false}]`
 * or `[{"wgInv":false},{"S":2}]` (the per-thread-inversion walker; other slot counts).
 * `MSM_AB` (a JSON MsmTuning, or an array of them) times only the default (A) against each change (B) per size,
 * alternating A and B runs after a warm-up (msmAb): same-plan rows read up to 15% apart when
 * timed one after the other.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { createProver, type Prover } from '../src/index.js';
import type { MsmRunInfo } from '../src/api/msm.js';
import type { MsmTuning } from '../src/kernels/msm/plan.js';
import { GpuContext } from '../src/gpu/context.js';
import { isProverError } from '../src/errors.js';
import { FR_R } from '../src/params/bn254.js';
import { benchFqInv, benchFqLayouts, checkFq13 } from './support/fq-layout-check.js';
import { checkFq, checkMsmCase, msmCases, packPoints, seededScalar } from './support/msm-check.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import './support/wgsl-dev.gen.js'; // msm_fq13 (the Fq checks and layout benches) is a dev-only kernel, not in the package
import { backToBack, roofline, warmUp } from './node-gpu.js';
import { withClock, type ClockSampler } from './gpu-clock.js';
import type { BenchOutput } from './field.js';

const G = bn254.G1.Point;
const TILE = 1 << 14;

/** n packed points tiling TILE distinct points d_i·G, and their discrete logs. */
export function tiledBases(n: number): { bytes: Uint8Array; dlog: bigint[] } {
  const rng = new SplitMix64(0x5151);
  const d0 = seededScalar(rng),
    step = seededScalar(rng);
  const m = Math.min(n, TILE);
  const dlog: bigint[] = [];
  const pts = [G.BASE.multiply(d0)];
  dlog.push(d0);
  const sp = G.BASE.multiply(step);
  for (let i = 1; i < m; i++) {
    pts.push(pts[i - 1].add(sp));
    dlog.push((dlog[i - 1] + step) % FR_R);
  }
  const tile = packPoints(pts);
  const bytes = new Uint8Array(64 * n);
  for (let o = 0; o < n; o += m) bytes.set(tile.subarray(0, 64 * Math.min(m, n - o)), 64 * o);
  return { bytes, dlog };
}

/**
 * Random scalars < 2^253 < r packed as a dApp holds them (32 bytes each, little-endian, in a
 * Uint32Array: limb j of scalar i at 8i + j), and the expected (sum s_i·d_i)·G.
 */
export function scalarsAndExpected(n: number, dlog: bigint[], seed: number): { bytes: Uint32Array; expected: InstanceType<typeof G> } {
  const rng = new SplitMix64(seed);
  const words = new Uint32Array(8 * n);
  let acc = 0n;
  for (let i = 0; i < n; i++) {
    let k = 0n;
    for (let w = 0; w < 4; w++) k = (k << 64n) | rng.next();
    k >>= 3n;
    for (let j = 0; j < 8; j++) words[8 * i + j] = Number((k >> BigInt(32 * j)) & 0xffffffffn);
    acc += k * dlog[i % dlog.length];
    if ((i & 1023) === 1023) acc %= FR_R;
  }
  acc %= FR_R;
  return { bytes: words, expected: acc === 0n ? G.ZERO : G.BASE.multiply(acc) };
}

/** The SM clock while this bench runs (rows report smMHz / aMHz, bMHz; null without nvidia-smi). */
let clock: ClockSampler | null = null;

export function benchMsm(gpu: GPU): Promise<BenchOutput> {
  return withClock((c) => {
    clock = c;
    return benchMsmRows(gpu);
  });
}

async function benchMsmRows(gpu: GPU): Promise<BenchOutput> {
  const rows: Record<string, unknown>[] = [];
  let ok = true;
  const ctx = await GpuContext.create(gpu);
  const fq = await checkFq(ctx, 4096);
  rows.push({ bench: 'msm-check', ...fq });
  ok &&= fq.ok;
  const limit = await roofline(ctx.device);
  // Both Fq layouts on the same job, each checked (bigint replay + equal to the other) before
  // its time counts; the MSM itself runs on 8x32 (see bench/RESULTS.md, "Fq layouts").
  const fq13 = await checkFq13(ctx, 4096);
  rows.push({ bench: 'msm-check', ...fq13 });
  ok &&= fq13.ok;
  const names = {
    '8x32': '8x32 CIOS no-carry, emulated mulhi, unrolled',
    '20x13': '20x13 no-carry Montgomery, unrolled',
    '8x32 via 20x13': '8x32 state, fq_mul13 (repack a as 16a, 20x13 multiply)',
    '8x32 via 20x13, 32 sites': 'the same job, 32 inlined fq_mul13 per loop turn (code size)',
  };
  for (const r of await benchFqLayouts(ctx, 1 << 18, 64, 5)) {
    ok &&= r.ok;
    rows.push({
      bench: 'fq-mul',
      adapter: ctx.description,
      ...r,
      kernel: names[r.layout],
      rooflineBabyBearGmulsPerS: limit.montGmuls,
      ratio: limit.montGmuls === null ? null : +(r.gmulsPerS / limit.montGmuls).toFixed(5),
      copyGBs: limit.copyGBs,
    });
    console.error(JSON.stringify(rows.at(-1)));
  }
  // One warp, 32 dependent inversions each: the latency a walker step waits for.
  const inv = await benchFqInv(ctx, 32, 32, 5);
  ok &&= inv.ok;
  rows.push({ bench: 'fq-inv', adapter: ctx.description, ...inv });
  console.error(JSON.stringify(rows.at(-1)));
  ctx.destroy();

  const prover = await createProver({ gpu, check: 'off' });
  for (const c of msmCases(10)) {
    const r = await checkMsmCase(prover, c);
    rows.push({ bench: 'msm-check', step: r.step, n: r.n, ok: r.ok, detail: r.detail });
    ok &&= r.ok;
  }
  if (!ok) {
    prover.destroy();
    return { rows, ok };
  }

  const logns = (process.env.MSM_LOGN ?? '10,12,14,16,18,20,22').split(',').map(Number);
  const [tc, ts] = (process.env.MSM_TUNE ?? '').split(':').map((x) => (x ? Number(x) : undefined));
  // Where the default cuts the job into parts to stay under 100 MB (2^20), the one-run job is
  // timed too. MSM_MEM_COMPARE=0 skips it.
  const compare = process.env.MSM_MEM_COMPARE !== '0';
  for (const logn of logns) {
    const n = 1 << logn;
    const { bytes, dlog } = tiledBases(n);
    const { bytes: sc, expected } = scalarsAndExpected(n, dlog, 77 + logn);
    const tuning: MsmTuning = { c: tc, S: ts };
    if (process.env.MSM_AB) {
      // One tuning, or a JSON array of them: an A/B per entry.
      const parsed = JSON.parse(process.env.MSM_AB) as MsmTuning | MsmTuning[];
      for (const b of Array.isArray(parsed) ? parsed : [parsed]) {
        const v = await msmAb(prover, bytes, sc, expected, tuning, { ...tuning, ...b });
        ok &&= v.ok;
        rows.push({ bench: 'msm-ab', logn, n, b: JSON.stringify(b), ...v });
        console.error(JSON.stringify(rows.at(-1)));
      }
      continue;
    }
    const others = Array.from({ length: BATCH - 1 }, (_, k) => scalarsAndExpected(n, dlog, 1000 * (k + 1) + logn));
    const batch = { vectors: [sc, ...others.map((o) => o.bytes)], expected: [expected, ...others.map((o) => o.expected)] };
    const row = await timeMsm(prover, bytes, sc, expected, tuning, batch);
    ok &&= row.ok;
    rows.push({ bench: 'msm', logn, n, variant: 'default', ...row });
    console.error(JSON.stringify(rows.at(-1)));
    // MSM_EXTRA='[{"mul13":false},{"pairBytes":4194304}]': a row per tuning, same prover and inputs.
    for (const extra of JSON.parse(process.env.MSM_EXTRA ?? '[]') as MsmTuning[]) {
      const v = await timeMsm(prover, bytes, sc, expected, { ...tuning, ...extra });
      ok &&= v.ok;
      rows.push({ bench: 'msm', logn, n, variant: JSON.stringify(extra), ...v });
      console.error(JSON.stringify(rows.at(-1)));
    }
    if (compare && row.runs > 1) {
      // The memory split's A/B: the same job as one run, over the budget (fresh prover, so its
      // pool bytes are its own).
      const other = await createProver({ gpu, check: 'off' });
      try {
        const v = await timeMsm(other, bytes, sc, expected, { ...tuning, parts: 1 });
        ok &&= v.ok;
        rows.push({ bench: 'msm', logn, n, variant: 'one run (over the memory budget)', ...v });
        console.error(JSON.stringify(rows.at(-1)));
      } finally {
        other.destroy();
      }
    }
  }
  prover.destroy();
  return { rows, ok };
}

/**
 * A/B at one size: both tunings checked against the known answer, warmed up, then AB_REPS runs of
 * each, alternating; medians of the GPU time and of each pass group.
 */
async function msmAb(prover: Prover, bases: Uint8Array, sc: Uint32Array, expected: InstanceType<typeof G>, a: MsmTuning, b: MsmTuning) {
  const AB_REPS = 7;
  const h = await prover.msmBases(bases);
  try {
    const good = (await h.msmProfiled(sc, a)).point.equals(expected) && (await h.msmProfiled(sc, b)).point.equals(expected);
    const runs: Record<'a' | 'b', { gpu: number[]; passes: Record<string, number[]> }> = {
      a: { gpu: [], passes: {} },
      b: { gpu: [], passes: {} },
    };
    const record = (k: 'a' | 'b', x: MsmRunInfo) => {
      runs[k].gpu.push(gpuTotal(x));
      for (const [l, ms] of Object.entries(passTotals(x))) (runs[k].passes[l] ??= []).push(ms);
    };
    // Warm-up and timed runs back to back (the clock rises only under a gapless load); A and B
    // alternate, so both sides run at the clock of the loop: one span for both.
    const t0 = Date.now();
    await warmUp(() => backToBack(Array.from({ length: 4 }, () => () => h.msmProfiled(sc, a))), 1500);
    const since = Date.now();
    await backToBack(
      Array.from({ length: 2 * AB_REPS }, (_, i) => {
        const [k, t] = i % 2 ? (['b', b] as const) : (['a', a] as const);
        return () => h.msmProfiled(sc, t).then((x) => record(k, x));
      }),
    );
    const span: [number, number][] = [[since, Date.now()]];
    const summary = (k: 'a' | 'b') => ({
      gpuMs: +median(runs[k].gpu).toFixed(3),
      passes: Object.fromEntries(Object.entries(runs[k].passes).map(([l, v]) => [l, +median(v).toFixed(3)])),
    });
    const A = summary('a'),
      B = summary('b');
    return {
      ok: good,
      reps: AB_REPS,
      aMs: A.gpuMs,
      bMs: B.gpuMs,
      bOverA: +(B.gpuMs / A.gpuMs).toFixed(3),
      MHz: clock?.median(span) ?? null,
      warmMHz: clock?.median([[t0, since]]) ?? null,
      aPasses: A.passes,
      bPasses: B.passes,
    };
  } finally {
    h.destroy();
  }
}

/** A run's GPU ms over its chunks, and per pass label (timestamp-query; 0 where a pass has none). */
const gpuTotal = (x: MsmRunInfo) => x.profiles.reduce((s, p) => s + (p?.gpuMs ?? 0), 0);
function passTotals(x: MsmRunInfo): Record<string, number> {
  const by: Record<string, number> = {};
  for (const p of x.profiles.flatMap((q) => q?.passes ?? [])) by[p.label] = (by[p.label] ?? 0) + (p.ms ?? 0);
  return by;
}

/** Batch size of the msmBatch row (a prover committing to several polynomials over one SRS). */
const BATCH = 4;
/** Wall-timed reps of bases.msm and of msmBatch per size (medians). */
const WALL_REPS = 5;

/**
 * One size, one tuning: checked against the known answer, then 5 GPU-timed runs (best GPU time
 * kept) and, as a caller sees them (median of 3 each, every result checked): bases.msm from the
 * packed Uint32Array to a noble point, the one-shot prover.msm (bases upload included), msmBatch of
 * BATCH vectors, and the host-side calls alone (MsmRunInfo.hostMs: GPU waits excluded).
 */
async function timeMsm(
  prover: Prover,
  bases: Uint8Array,
  sc: Uint32Array,
  expected: InstanceType<typeof G>,
  tuning: MsmTuning,
  batch?: { vectors: Uint32Array[]; expected: InstanceType<typeof G>[] },
) {
  const h = await prover.msmBases(bases);
  try {
    const first = await h.msmProfiled(sc, tuning);
    let good = first.point.equals(expected);
    // clocks: after idle CPU seconds the H100 needs ~2 s of gapless load (2^10-2^12 rows read 2x
    // slow after 200 ms): warm-up and the GPU-timed runs go back to back, the wall-timed ones after.
    const since = Date.now(); // the clock row: warm-up and GPU-timed runs (a 2^10 run is shorter than a sample)
    let best = first;
    const hosts: number[] = [];
    const keepBest = (x: MsmRunInfo) => {
      hosts.push(x.hostMs);
      if (gpuTotal(x) < gpuTotal(best)) best = x;
    };
    await warmUp(() => backToBack(Array.from({ length: 4 }, () => () => h.msmProfiled(sc, tuning))), 1500);
    await backToBack(Array.from({ length: 5 }, () => () => h.msmProfiled(sc, tuning).then(keepBest)));
    const smMHz = clock?.median([[since, Date.now()]]) ?? null;
    // End-to-end as a caller sees it: msm() (no timestamp reads) for the default plan; a tuned
    // plan can only run through msmProfiled, whose wall time includes reading the timestamps.
    const plain = Object.values(tuning).every((v) => v === undefined);
    // Medians of WALL_REPS: bases.msm's reps, then msmBatch's right after (the batch's ratio to one
    // call is read in one phase of the process), then the one-shot's (its 64 MiB uploads last).
    const timed = async (f: () => Promise<boolean>) => {
      const t0 = performance.now();
      good = (await f()) && good;
      return performance.now() - t0;
    };
    const lastJob = () => (prover.stats() as { jobs?: { last?: unknown } }).jobs?.last;
    const single = async () => (plain ? await h.msm(sc) : (await h.msmProfiled(sc, tuning)).point).equals(expected);
    const many = async () => (await h.msmBatch(batch!.vectors)).every((p, i) => p.equals(batch!.expected[i]));
    const singles: number[] = [],
      batches: number[] = [],
      oneShots: number[] = [];
    for (let r = 0; r < WALL_REPS; r++) singles.push(await timed(single));
    for (let r = 0; plain && batch && r < WALL_REPS; r++) batches.push(await timed(many));
    const batchSubmissions = batches.length ? lastJob() : undefined;
    for (let r = 0; plain && batch && r < 3; r++) oneShots.push(await timed(async () => (await prover.msm(bases, sc)).equals(expected)));
    const med = (xs: number[]) => (xs.length ? +median(xs).toFixed(3) : undefined);
    const wallMs = med(singles)!;
    const oneShotMs = med(oneShots);
    // The last one-shot's and batch's submissions (stage, when submitted, GPU time): where their time goes.
    const oneShotSubmissions = oneShotMs === undefined ? undefined : lastJob();
    const e2e = plain && batch ? { oneShotMs, batchMs: med(batches) } : {};
    // The one-shot reads its points' checks at the end of the job: one off the curve in its last
    // run must still fail it (at these sizes the bases come through the staging ring, in pieces).
    const oneShotBadPoint = plain && batch ? await lastPointOffCurve(prover, bases, sc) : undefined;
    good &&= oneShotBadPoint === undefined || oneShotBadPoint.startsWith(`NOT_ON_CURVE: point ${sc.length / 8 - 1} `);
    const passes = Object.fromEntries(Object.entries(passTotals(best)).map(([l, ms]) => [l, +ms.toFixed(3)]));
    const gpuMs = gpuTotal(best);
    const plan = best.plans[0];
    const ratio = (x: number | undefined, y: number) => (x === undefined ? undefined : +(x / y).toFixed(3));
    return {
      ok: good,
      runs: best.plans.length,
      c: plan.c,
      S: plan.S,
      nwin: plan.nwin,
      batches: plan.batches,
      walkThreads: plan.walkThreads,
      planes: plan.planes,
      mul13: plan.mul13,
      wgInv: plan.wgInv,
      riders: plan.riders,
      gpuMs: +gpuMs.toFixed(3),
      wallMs,
      wallOf: plain ? 'bases.msm' : 'msmProfiled',
      wallOverGpu: ratio(wallMs, gpuMs),
      ...e2e,
      oneShotOverGpu: ratio(e2e.oneShotMs, gpuMs),
      batchOverOne: ratio(e2e.batchMs, wallMs),
      batchOf: e2e.batchMs === undefined ? undefined : BATCH,
      oneShotBadPoint,
      oneShotSubmissions,
      batchSubmissions,
      /** runs and bases conversions by engine so far in this prover (which kernels the rows ran on) */
      engineRuns: prover.stats().engineRuns,
      hostMs: +median(hosts).toFixed(3),
      smMHz,
      passes,
      poolBytes: best.poolBytes,
      planPoolBytes: Math.max(...best.plans.map((p) => p.poolBytes)),
    };
  } finally {
    h.destroy();
  }
}

/** prover.msm over `bases` with the last point's y + 1: the error's code and message. */
async function lastPointOffCurve(prover: Prover, bases: Uint8Array, sc: Uint32Array): Promise<string> {
  const off = bases.slice();
  off[off.length - 1] ^= 1;
  try {
    await prover.msm(off, sc);
    return 'no error';
  } catch (e) {
    return isProverError(e) ? `${e.code}: ${e.message}` : String(e);
  }
}
