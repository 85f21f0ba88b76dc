/**
 * The MSM's plan shapes as the checks run them: the low-memory rows (one window a batch, a ring of scalar half-planes) at every size they run at, and the workgroup-inversion walker against noble.
 * @module
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import { msmPlan, RED_SEG1, walkTreeBytes, WALK_WG, WALK_WG_LARGE, type MsmPlan, type MsmTuning } from '../../src/kernels/msm/plan.js';
import { bucketCsr, windowCount } from '../../src/ref/msm.js';
import { FR_R } from '../../src/params/bn254.js';
import { SplitMix64 } from './splitmix.js';
import { seededScalar, seededPoints, hex, G, msmCases, type MsmCase, type MsmCheckRow } from './msm-check.js';

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

/** Parts of the low-memory check's chained rows, and the least points a part (below, no such rows). */
const CHAIN_PARTS = 3;
const MIN_CHAIN_PART = 8;

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
 * - 3 windows per batch, the 8x32 multiply and the per-thread inversion walker (msm_walk, no riders);
 * - the two riders' cases again as one job of 3 equal parts (a chain, src/kernels/msm/run.ts).
 */
export async function checkMsmLowMemory(prover: Prover, n: number, seed = 0x10e): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const pts = seededPoints(rng, n).map((p, i) => (i % 17 === 5 ? G.ZERO : p));
  const ks = Array.from({ length: n }, (_, i) => (i % 11 === 0 ? FR_R - 1n : seededScalar(rng)));
  const wantAll = pippenger(G, pts, ks);
  const h = await prover.msmBases(pts);
  const rows: MsmCheckRow[] = [];
  // The riders' cases once more as a job of CHAIN_PARTS equal parts sharing one reduction (the
  // kept pairs added to across parts, riders crossing from one part into the next), as 2^20 runs.
  const part = Math.floor(n / CHAIN_PARTS);
  const chained: LowMemoryCase[] = (part >= MIN_CHAIN_PART ? lowMemoryCases(part) : [])
    .filter((k) => k.expect.riders)
    .map((k) => ({ ...k, name: `${k.name}, a chain of ${CHAIN_PARTS} parts`, tuning: { ...k.tuning, parts: CHAIN_PARTS } }));
  const scalars = ks.slice(0, part * CHAIN_PARTS);
  const wantChained = pippenger(G, pts.slice(0, scalars.length), scalars);
  try {
    for (const k of [...lowMemoryCases(n), ...chained]) {
      const isChain = chained.includes(k);
      const t0 = performance.now();
      const r = await h.msmProfiled(isChain ? scalars : ks, k.tuning);
      const plan = r.plans[0];
      const want = isChain ? wantChained : wantAll;
      const runs = isChain && r.plans.length !== CHAIN_PARTS ? `${r.plans.length} runs (want ${CHAIN_PARTS}); ` : '';
      const shape = runs + lowMemoryShapeError(plan, k.expect);
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
