/**
 * GPU BN254 MSM checks, runnable wherever a Prover runs (dev page `msm-noble-check`, the
 * Playwright spec, `npm run bench -- msm`): the WGSL Fq ops against bigint, every edge case
 * of the issue and seeded random inputs against @noble/curves' pippenger (with both walkers),
 * the arkworks vectors, and the error codes (with the prover still usable afterwards).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { fqCheck } from './msm-kernel-checks.js';
import { msmPlan, RED_SEG1, walkTreeBytes, WALK_WG, WALK_WG_LARGE, type MsmPlan, type MsmTuning } from '../../src/kernels/msm/plan.js';
import { bucketCsr, windowCount } from '../../src/ref/msm.js';
import { beBytes32, FQ_P, FR_R, fromLimbs, invMod, toLimbs } from '../../src/params/bn254.js';
import { isProverError } from '../../src/errors.js';
import { SplitMix64 } from './splitmix.js';

const G = bn254.G1.Point;
type Pt = InstanceType<typeof G>;

export interface MsmCheckRow {
  step: string;
  ok: boolean;
  n: number;
  ms: number;
  detail: string;
}

export function seededScalar(rng: SplitMix64, mod = FR_R): bigint {
  let k = 0n;
  for (let i = 0; i < 4; i++) k |= rng.next() << BigInt(64 * i);
  return k % mod;
}

/** n distinct points k0·G, (k0 + d)·G, ... by repeated addition (cheap in noble). */
export function seededPoints(rng: SplitMix64, n: number): Pt[] {
  const step = G.BASE.multiply(seededScalar(rng) || 1n);
  const out: Pt[] = [G.BASE.multiply(seededScalar(rng) || 1n)];
  while (out.length < n) out.push(out[out.length - 1].add(step));
  return out;
}

export function packPoints(pts: readonly Pt[]): Uint8Array {
  const out = new Uint8Array(64 * pts.length);
  pts.forEach((p, i) => {
    const a = p.is0() ? { x: 0n, y: 0n } : p.toAffine();
    beBytes32(a.x, out, 64 * i);
    beBytes32(a.y, out, 64 * i + 32);
  });
  return out;
}

/** Scalars as 32 bytes each, little-endian (the default msm() reads) or big-endian. */
export function packScalars(ks: readonly bigint[], endian: 'le' | 'be' = 'le'): Uint8Array {
  const out = new Uint8Array(32 * ks.length);
  ks.forEach((k, i) => {
    beBytes32(k, out, 32 * i);
    if (endian === 'le') out.subarray(32 * i, 32 * i + 32).reverse();
  });
  return out;
}

/** WGSL fq_mul/add/sub/inv on `count` random pairs plus edge values, against bigint. */
export async function checkFq(ctx: GpuContext, count: number, seed = 0xf9): Promise<MsmCheckRow> {
  const rng = new SplitMix64(seed);
  const edges = [0n, 1n, 2n, FQ_P - 1n, FQ_P - 2n, 1n << 253n, (1n << 32n) - 1n, FQ_P >> 1n];
  const pairs: [bigint, bigint][] = [];
  for (const a of edges) for (const b of edges) pairs.push([a, b]);
  for (let i = 0; i < count; i++) pairs.push([seededScalar(rng, FQ_P), seededScalar(rng, FQ_P)]);
  const words = new Uint32Array(16 * pairs.length);
  pairs.forEach(([a, b], i) => {
    words.set(toLimbs(a), 16 * i);
    words.set(toLimbs(b), 16 * i + 8);
  });
  const t0 = performance.now();
  const out = await fqCheck(ctx, words);
  const ms = performance.now() - t0;
  let bad = 0;
  let first = '';
  pairs.forEach(([a, b], i) => {
    const want = [(a * b) % FQ_P, (a + b) % FQ_P, (a - b + FQ_P) % FQ_P, a === 0n ? 0n : invMod(a, FQ_P)];
    want.forEach((w, k) => {
      const got = fromLimbs(out, 32 * i + 8 * k);
      if (got !== w) {
        bad++;
        first ||= `pair ${i} op ${k}: a=${a} b=${b} got ${got} want ${w}`;
      }
    });
  });
  return {
    step: 'fq mul/add/sub/inv',
    ok: bad === 0,
    n: pairs.length,
    ms,
    detail: bad ? `${bad} wrong; ${first}` : `${pairs.length} pairs equal bigint`,
  };
}

export interface MsmCase {
  name: string;
  points: Pt[];
  scalars: bigint[];
  packed?: boolean;
}

/** The issue's edge cases and seeded random inputs up to n = 2^logn. */
export function msmCases(logn: number, seed = 0x45): MsmCase[] {
  const rng = new SplitMix64(seed);
  const N = 1 << logn;
  const pts = seededPoints(rng, N);
  const rand = (n: number) => Array.from({ length: n }, () => seededScalar(rng));
  const cases: MsmCase[] = [];
  for (const n of [1, 2, 3, 7, 100, N - 1, N]) if (n <= N) cases.push({ name: `random n=${n}`, points: pts.slice(0, n), scalars: rand(n) });
  const n = Math.min(N, 64);
  const p = pts.slice(0, n);
  cases.push({ name: 'all zero scalars', points: p, scalars: Array(n).fill(0n) });
  cases.push({ name: 'scalars 1 and r-1', points: p, scalars: p.map((_, i) => (i % 2 ? FR_R - 1n : 1n)) });
  cases.push({ name: 'identity points', points: p.map((q, i) => (i % 3 === 0 ? G.ZERO : q)), scalars: rand(n) });
  cases.push({ name: 'repeated point', points: Array(n).fill(p[0]), scalars: rand(n) });
  cases.push({
    name: 'P and -P, same scalars',
    points: p.map((q, i) => (i % 2 ? p[i - 1].negate() : q)),
    scalars: rand(n).map((k, i, a) => (i % 2 ? a[i - 1] : k)),
  });
  cases.push({ name: 'P and -P, different scalars', points: p.map((q, i) => (i % 2 ? p[i - 1].negate() : q)), scalars: rand(n) });
  cases.push({ name: 'sparse (90% zeros)', points: pts, scalars: rand(N).map((k, i) => (i % 10 === 3 ? k : 0n)) });
  const k = seededScalar(rng);
  cases.push({ name: 'all scalars equal', points: pts, scalars: Array(N).fill(k) });
  cases.push({ name: 'small scalars', points: pts, scalars: pts.map((_, i) => BigInt(i % 5)) });
  cases.push({ name: 'packed bytes input', points: pts.slice(0, 33), scalars: rand(33), packed: true });
  return cases;
}

/** Hex of a result for a failure message; a wrong MSM can be off the curve, where toHex throws. */
function hex(p: Pt): string {
  try {
    return p.toHex();
  } catch {
    const a = p.toAffine();
    return `(off the curve: x ${a.x.toString(16)}, y ${a.y.toString(16)})`;
  }
}

export async function checkMsmCase(prover: Prover, c: MsmCase): Promise<MsmCheckRow> {
  const t0 = performance.now();
  const got = c.packed ? await prover.msm(packPoints(c.points), packScalars(c.scalars)) : await prover.msm(c.points, c.scalars);
  const ms = performance.now() - t0;
  const want = pippenger(G, c.points, c.scalars);
  const ok = got.equals(want);
  return {
    step: `msm ${c.name}`,
    ok,
    n: c.points.length,
    ms,
    detail: ok ? 'equals noble pippenger' : `gpu ${hex(got)} != noble ${want.toHex()}`,
  };
}

interface ArkCase {
  id: string;
  n: number;
  points: { x: string; y: string }[];
  scalars: string[];
  result: { x: string; y: string };
}

export async function checkArkworks(prover: Prover, cases: readonly ArkCase[]): Promise<MsmCheckRow[]> {
  const rows: MsmCheckRow[] = [];
  for (const c of cases) {
    const pts = c.points.map((p) => (p.x === '0' && p.y === '0' ? G.ZERO : G.fromAffine({ x: BigInt(p.x), y: BigInt(p.y) })));
    const t0 = performance.now();
    const got = await prover.msm(
      pts,
      c.scalars.map((s) => BigInt(s)),
    );
    const want = c.result.x === '0' && c.result.y === '0' ? G.ZERO : G.fromAffine({ x: BigInt(c.result.x), y: BigInt(c.result.y) });
    const ok = got.equals(want);
    rows.push({ step: `arkworks ${c.id}`, ok, n: c.n, ms: performance.now() - t0, detail: ok ? 'equals ark-bn254' : `got ${got.toHex()}` });
  }
  return rows;
}

async function expectCode(code: string, f: () => Promise<unknown>): Promise<string | null> {
  try {
    await f();
    return `no error (wanted ${code})`;
  } catch (e) {
    return isProverError(e) && e.code === code ? null : `got ${(e as Error).message} (wanted ${code})`;
  }
}

export async function checkMsmErrors(prover: Prover): Promise<MsmCheckRow[]> {
  const g = G.BASE,
    g2 = G.BASE.double();
  const badPt = packPoints([g, g2]);
  badPt[63] ^= 1; // y + 1: not on the curve
  const bigP = packPoints([g]);
  bigP.set(packScalars([FQ_P], 'be').subarray(0, 32), 0); // x = p
  const tests: [string, string, () => Promise<unknown>][] = [
    ['not on curve', 'NOT_ON_CURVE', () => prover.msm(badPt, [1n, 2n])],
    ['coordinate >= p', 'NON_CANONICAL', () => prover.msm(bigP, [1n])],
    ['scalar >= r', 'NON_CANONICAL', () => prover.msm([g], [FR_R])],
    ['negative scalar', 'NON_CANONICAL', () => prover.msm([g], [-1n])],
    ['length mismatch', 'INVALID_LENGTH', () => prover.msm([g, g2], [1n])],
    ['empty input', 'INVALID_LENGTH', () => prover.msm([], [])],
    ['packed scalars wrong size', 'INVALID_LENGTH', () => prover.msm([g], new Uint8Array(31))],
  ];
  const rows: MsmCheckRow[] = [];
  for (const [name, code, f] of tests) {
    const err = await expectCode(code, f);
    rows.push({ step: `msm error ${name}`, ok: err === null, n: 0, ms: 0, detail: err ?? code });
  }
  const after = await prover.msm([g, g2], [5n, 7n]);
  rows.push({ step: 'msm usable after errors', ok: after.equals(g.multiply(19n)), n: 2, ms: 0, detail: '5G + 7(2G) = 19G' });
  return rows;
}

/** One low-memory row: the tuning it runs with and the plan shape it must get. */
export interface LowMemoryCase {
  name: string;
  tuning: MsmTuning;
  expect: { nwin: number; staged: boolean; riders: boolean; wgInv: boolean; mul13: boolean };
}

/**
 * Smallest window size whose low-memory rows all exist: a staged first reduction pass needs
 * segments longer than RED_SEG1 (seg = M / K > 4) with at least 2 kept pairs a window, so
 * M = 2^(c-1) >= 16. Below 2^7 points the default c is 4 (M = 8), where no staged plan exists.
 */
export const LOW_MEMORY_MIN_C = 5;

/**
 * The low-memory rows for n points, with c fixed (the default plan's c, at least
 * LOW_MEMORY_MIN_C) so each row plans the shape it names at every n: a row's tuning is derived
 * from that c, and a default c that differed by walker (wgInv false picks another c at n = 64)
 * would size scratch and pairs for the wrong M.
 */
export function lowMemoryCases(n: number): LowMemoryCase[] {
  const c = Math.max(LOW_MEMORY_MIN_C, msmPlan(n).c);
  const T = windowCount(c),
    M = 1 << (c - 1);
  const rows = [
    { nwin: 1, staged: true, riders: true, wgInv: true, mul13: true, pairBytes: 2 * 192 * T },
    { nwin: 2, staged: false, riders: true, wgInv: true, mul13: true, pairBytes: (192 * T * M) / RED_SEG1 },
    { nwin: 2, staged: false, riders: false, wgInv: true, mul13: true, pairBytes: undefined },
    { nwin: 3, staged: true, riders: false, wgInv: false, mul13: false, pairBytes: 2 * 192 * T },
  ];
  return rows.map(({ pairBytes, ...expect }) => ({
    name: `msm low memory, ${expect.nwin} window(s) per batch${expect.staged ? ', staged reduction' : ''}${expect.riders ? ', riders' : ''}${expect.wgInv ? '' : ', 8x32 per-thread-inversion walker'}`,
    // scratchBytes sized for exactly nwin windows (n entries + M bucket sums of 96 bytes each).
    tuning: {
      c,
      lowMemory: true,
      scratchBytes: expect.nwin * (4 * n + 96 * M),
      mul13: expect.mul13,
      wgInv: expect.wgInv,
      riders: expect.riders,
      ...(pairBytes ? { pairBytes } : {}),
    },
    expect,
  }));
}

/** Why a low-memory plan is not the shape its row names ('' when it is). */
export function lowMemoryShapeError(plan: MsmPlan, e: LowMemoryCase['expect']): string {
  const bad: string[] = [];
  if (plan.planes >= 8) bad.push(`ring of ${plan.planes} planes (want < 8)`);
  if (plan.nwin !== e.nwin) bad.push(`nwin ${plan.nwin} (want ${e.nwin})`);
  if (plan.seg1 < plan.seg !== e.staged) bad.push(`segments ${plan.seg1}/${plan.seg} (want ${e.staged ? '' : 'not '}staged)`);
  if (plan.mul13 !== e.mul13) bad.push(`mul13 ${plan.mul13}`);
  if (plan.wgInv !== e.wgInv) bad.push(`wgInv ${plan.wgInv}`);
  if (plan.riders !== e.riders) bad.push(`riders ${plan.riders}`);
  if (plan.batches <= 1) bad.push(`${plan.batches} batch (want several)`);
  return bad.join(', ');
}

/**
 * The low-memory path (scalar planes streamed through a ring, a submit per new plane) that
 * 2^20 takes by default, forced at a small n with one to three windows per batch, each against
 * noble (lowMemoryCases). Identity points are included (their scalars are zeroed per plane).
 * Cases:
 * - 1 window per batch, 2 kept pairs per window (pairBytes): the staged first reduction pass
 *   (scratch + a merging level) as 2^20 runs it, riding in the next batch's walk and fix-up;
 * - 2 windows per batch, segments of RED_SEG1 buckets kept as they are (no merging level), riders
 *   (the same pipelines as the first case);
 * - 2 windows per batch, riders off (each batch reduces on its own after its fix-up);
 * - 3 windows per batch, the 8x32 multiply and the per-thread inversion walker (msm_walk, no riders).
 */
export async function checkMsmLowMemory(prover: Prover, n: number, seed = 0x10e): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const pts = seededPoints(rng, n).map((p, i) => (i % 17 === 5 ? G.ZERO : p));
  const ks = Array.from({ length: n }, (_, i) => (i % 11 === 0 ? FR_R - 1n : seededScalar(rng)));
  const want = pippenger(G, pts, ks);
  const h = await prover.msmBases(pts);
  const rows: MsmCheckRow[] = [];
  try {
    for (const k of lowMemoryCases(n)) {
      const t0 = performance.now();
      const r = await h.msmProfiled(ks, k.tuning);
      const plan = r.plans[0];
      const shape = lowMemoryShapeError(plan, k.expect);
      const equal = r.point.equals(want);
      rows.push({
        step: k.name,
        ok: equal && !shape,
        n,
        ms: performance.now() - t0,
        detail:
          equal && !shape
            ? `equals noble (c=${plan.c}, ${plan.batches} batches, ring of ${plan.planes} planes, segments ${plan.seg1} -> ${plan.seg})`
            : `${shape ? `plan: ${shape}; ` : ''}gpu ${r.point.toHex()} ${equal ? '==' : '!='} noble ${want.toHex()}`,
      });
    }
  } finally {
    h.destroy();
  }
  return rows;
}

/**
 * Slices of the first batch as the walker cuts them (slice_len in msm_walk.wgsl): `mixed` when
 * the last workgroup with entries also has threads without any (idle from the first step), and
 * `ragged` when the last slice is short (its slot finishes a step before the others).
 */
export function walkOccupancy(
  plan: MsmPlan,
  scalars: readonly bigint[],
): { total: number; L: number; liveThreads: number; mixed: boolean; ragged: boolean } {
  const { offsets } = bucketCsr(scalars, plan.c, 0, Math.min(plan.nwin, plan.T));
  const total = offsets[offsets.length - 1];
  const L = Math.max(1, Math.ceil(total / (plan.walkThreads * plan.S)));
  const liveThreads = Math.ceil(Math.ceil(total / L) / plan.S);
  return { total, L, liveThreads, mixed: liveThreads % plan.walkWg !== 0, ragged: total % L !== 0 };
}

/**
 * The workgroup-inversion walker (tuning wgInv: msm_walk_wg) against noble, with S = 1 and 2 and
 * both multiplies: seeded random inputs at 2^logn and at odd n (777, 1000), where the last live
 * workgroup also holds threads without entries (idle leaves of the product tree; required, or
 * the row fails), and the cases that steer the walk: P + (-P) ends a run, a repeated point
 * doubles, identity points, all points in one bucket per window, sparse scalars (few entries,
 * most threads idle). Then the large workgroup (WALK_WG_LARGE, or the largest power of two the
 * adapter allows) with S = 4 and slices of 2: every thread's slots chain-merge the pieces of the
 * buckets that cross them (all points in one bucket: a chain through every slot of every thread).
 */
export async function checkMsmWgInv(prover: Prover, logn: number, seed = 0x3c1): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const N = 1 << logn;
  const pts = seededPoints(rng, Math.max(N, 1000));
  const rand = (n: number) => Array.from({ length: n }, () => seededScalar(rng));
  const runs: { name: string; c: MsmCase; S: number; mul13: boolean; idle?: boolean; walkWg?: number; slice?: number }[] = [
    { name: `random n=${N}`, c: { name: '', points: pts.slice(0, N), scalars: rand(N) }, S: 2, mul13: true },
    { name: `random n=${N}`, c: { name: '', points: pts.slice(0, N), scalars: rand(N) }, S: 1, mul13: false },
    { name: 'random n=777', c: { name: '', points: pts.slice(0, 777), scalars: rand(777) }, S: 2, mul13: false, idle: true },
    { name: 'random n=1000', c: { name: '', points: pts.slice(0, 1000), scalars: rand(1000) }, S: 1, mul13: true, idle: true },
  ];
  const edges = [
    'identity points',
    'repeated point',
    'P and -P, same scalars',
    'P and -P, different scalars',
    'sparse (90% zeros)',
    'all scalars equal',
  ];
  msmCases(Math.min(logn, 8), seed)
    .filter((c) => edges.includes(c.name))
    .forEach((c, i) => {
      runs.push({ name: c.name, c, S: 1, mul13: i % 2 === 0 }, { name: c.name, c, S: 2, mul13: i % 2 === 1 });
    });
  const info = prover.info;
  let big = WALK_WG_LARGE;
  while (big > WALK_WG && (big > info.maxWorkgroupThreads || walkTreeBytes(big) > info.maxComputeWorkgroupStorageSize)) big /= 2;
  const chains = msmCases(Math.min(logn, 8), seed + 1).filter((c) =>
    ['all scalars equal', 'P and -P, same scalars', 'repeated point'].includes(c.name),
  );
  runs.push(
    { name: `random n=${N}`, c: { name: '', points: pts.slice(0, N), scalars: rand(N) }, S: 4, mul13: true, walkWg: big, slice: 2 },
    ...chains.map((c) => ({ name: c.name, c, S: 4, mul13: true, walkWg: big, slice: 2 })),
  );
  // S = 8 (the default for 2^20 at WALK_WG): chains of up to 8 slots merge in 3 rounds.
  const equal = chains.find((c) => c.name === 'all scalars equal');
  runs.push({
    name: `random n=${N}`,
    c: { name: '', points: pts.slice(0, N), scalars: rand(N) },
    S: 8,
    mul13: true,
    walkWg: WALK_WG,
    slice: 1,
  });
  if (equal) runs.push({ name: equal.name, c: equal, S: 8, mul13: true, walkWg: WALK_WG, slice: 1 });
  const rows: MsmCheckRow[] = [];
  for (const r of runs) {
    const t0 = performance.now();
    const want = pippenger(G, r.c.points, r.c.scalars);
    const h = await prover.msmBases(r.c.points);
    try {
      // c as the default plan picks it: the sort and reduction pipelines are compiled already
      // (SwiftShader: ~15 s a pipeline set), and only the walker differs.
      const wide = r.walkWg ? { walkWg: r.walkWg, slice: r.slice } : {};
      const got = await h.msmProfiled(r.c.scalars, { wgInv: true, S: r.S, mul13: r.mul13, c: msmPlan(r.c.points.length).c, ...wide });
      const plan = got.plans[0];
      const occ = walkOccupancy(
        plan,
        r.c.points.map((p, i) => (p.is0() ? 0n : r.c.scalars[i])),
      );
      const planOk =
        plan.wgInv && plan.S === r.S && plan.mul13 === r.mul13 && (!r.idle || occ.mixed) && plan.walkWg === (r.walkWg ?? WALK_WG);
      const ok = got.point.equals(want) && planOk;
      const shape = `${plan.walkThreads / plan.walkWg} workgroups of ${plan.walkWg}, ${occ.liveThreads} threads with entries (${occ.total} in slices of ${occ.L})`;
      rows.push({
        step: `msm wgInv S=${r.S}${r.mul13 ? '' : ' 8x32'}${r.walkWg && r.walkWg !== WALK_WG ? ' wide' : ''} ${r.name}`,
        ok,
        n: r.c.points.length,
        ms: performance.now() - t0,
        detail: ok
          ? `equals noble: ${shape}`
          : planOk
            ? `gpu ${hex(got.point)} != noble ${want.toHex()} (${shape})`
            : `plan wgInv ${plan.wgInv} S ${plan.S} mul13 ${plan.mul13}; ${shape}${r.idle && !occ.mixed ? ': no workgroup mixes live and idle threads' : ''}`,
      });
    } finally {
      h.destroy();
    }
  }
  return rows;
}
