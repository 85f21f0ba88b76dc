/**
 * The buffers of one MSM run: their sizes (pure, so the plan can estimate its peak pool bytes
 * without a GPU: msmPoolBytes) and acquireRunBuffers, which takes exactly those from the pool.
 * The two are side by side so the estimate cannot drift from what a run holds.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { storageUsage } from '../../gpu/context.js';
import { BufferPool } from '../../gpu/buffer-pool.js';
import { MSM_BYTES, SORT_WG } from './layout.js';
import { levelOut } from './schedule.js';
import type { MsmPlan } from './plan.js';

/** Bytes of n scalars as the caller packs them (32 each), uploaded as they are. */
export function packedScalarBytes(n: number): number {
  return MSM_BYTES.scalar * n;
}

/** Words of one half-plane slot on the GPU: two scalars a word. */
export function halfPlaneWords(n: number): number {
  return Math.ceil(n / 2);
}

/**
 * Bytes of the walker's partials buffer (one leading piece per thread, affine), which the batch's
 * first reduction pass reuses as scratch (without riders; with them the walker still needs its
 * partials then, see reduceScratchBytes).
 */
export function partialsBytes(p: Pick<MsmPlan, 'walkThreads' | 'nwin' | 'M' | 'seg1' | 'riders'>): number {
  return Math.max(MSM_BYTES.affine * p.walkThreads, p.riders ? 0 : firstPassBytes(p));
}

/** Bytes of the bucket sums (projective): one batch's, or with riders a ring of two. */
export function bucketSumBytes(p: Pick<MsmPlan, 'nwin' | 'M' | 'riders'>): number {
  return MSM_BYTES.projective * p.nwin * p.M * (p.riders ? 2 : 1);
}

/** Pairs of a batch's first reduction pass (W and S̃ projective). */
function firstPassBytes(p: Pick<MsmPlan, 'nwin' | 'M' | 'seg1'>): number {
  return MSM_BYTES.pair * p.nwin * (p.M / p.seg1);
}

/**
 * Bytes of the second reduction list: the final levels' ping-pong partner, and with riders also
 * the first pass's scratch during the batches (idle then).
 */
export function reduceScratchBytes(p: Pick<MsmPlan, 'n' | 'T' | 'K' | 'nwin' | 'M' | 'seg1' | 'riders'>): number {
  if (levelsInEntries(p)) return 0;
  return Math.max(MSM_BYTES.pair * p.T * levelOut(p.K), p.riders ? firstPassBytes(p) : 0);
}

/**
 * Without riders the second list is only the final levels' ping-pong partner, and those run after
 * the last batch, when the entries buffer is dead: it takes the list when large enough (2^20, two
 * windows a batch: 1.5 of 8 MiB), which keeps that plan under the budget.
 */
export function levelsInEntries(p: Pick<MsmPlan, 'n' | 'T' | 'K' | 'nwin' | 'riders'>): boolean {
  return !p.riders && 4 * p.n * p.nwin >= MSM_BYTES.pair * p.T * levelOut(p.K);
}

/** Scan blocks of a batch's nb + 1 counts (2·SORT_WG each). */
export function scanBlocks(nb: number): number {
  return Math.ceil((nb + 1) / (2 * SORT_WG));
}

/**
 * Pool bytes of one MSM, as acquireRunBuffers takes them (BufferPool.bucketSize): bases
 * 64·basesN, the caller's packed scalars 32n, scalar half-planes 2n each, counts + offsets 4(nb+1) each, entries 4n·nwin, bucket sums
 * 96·nb (two batches' with riders), walker partials 64·threads (one leading piece per thread),
 * reduction pairs of all windows (two lists, the second also the riders' scratch). A 2^20 job's
 * part (runs.ts) with 512-thread workgroups: 2^18 scalars over 2^20 bases, c = 15, 4 windows
 * a batch, a ring of 5 half-planes: bases 64 + packed scalars 8 + half-planes 2.5 + entries 4 +
 * bucket sums 6 + partials 4 + pairs 3 + the rest ~1.5 MiB, i.e. 97.5 MB.
 */
export function msmPoolBytes(p: Omit<MsmPlan, 'poolBytes'>): number {
  const b = BufferPool.bucketSize;
  const nb = p.nwin * p.M;
  return (
    b(MSM_BYTES.affine * p.basesN) +
    b(packedScalarBytes(p.n)) +
    b(4 * halfPlaneWords(p.n) * p.planes) +
    2 * b(4 * (nb + 1)) +
    b(4 * scanBlocks(nb)) +
    b(4 * p.n * p.nwin) +
    b(bucketSumBytes(p)) +
    b(partialsBytes(p)) +
    b(MSM_BYTES.pair * p.T * p.K) +
    b(reduceScratchBytes(p))
  );
}

/** The working buffers of one run (the bases are the caller's). */
export interface RunBuffers {
  /** the caller's scalars, 8 words each, as packed */
  packed: GPUBuffer;
  /** [0]: the first scalar >= r (msm_split's range check), 0xffffffff for none */
  bad: GPUBuffer;
  /** scalar half-plane slots (plan.planes of halfPlaneWords(n) words) */
  halves: GPUBuffer;
  /** per bucket of a batch: entry counts, then the scatter's cursors */
  counts: GPUBuffer;
  /** per bucket of a batch: its first entry (CSR offsets), nb + 1 words */
  offsets: GPUBuffer;
  /** the scan's block totals */
  blockSums: GPUBuffer;
  /** a batch's (point, sign) entries in bucket order */
  entries: GPUBuffer;
  /** bucket sums: one batch's, or with riders a ring of two */
  bsum: GPUBuffer;
  /** the walker's leading pieces (one per thread), also the first pass's scratch without riders */
  partials: GPUBuffer;
  /**
   * The reduction's two pair lists: the kept pairs of all windows, and the second list (the riders'
   * scratch and the final levels' partner, or, levelsInEntries, the entries buffer, dead by then).
   */
  pairs: [GPUBuffer, GPUBuffer];
}

/** A function taking storage buffers from the pool, each pushed to `held` for the caller to release. */
export function heldStorage(ctx: GpuContext, held: GPUBuffer[]): (bytes: number, label: string) => GPUBuffer {
  return (bytes, label) => {
    const b = ctx.pool.acquire(Math.max(bytes, 16), storageUsage(), label);
    held.push(b);
    return b;
  };
}

/** Take a run's buffers from the pool; each is also pushed to `held` for the caller to release. */
export function acquireRunBuffers(ctx: GpuContext, plan: MsmPlan, held: GPUBuffer[]): RunBuffers {
  const acquire = heldStorage(ctx, held);
  const { n, nwin, M, T, K } = plan;
  const nbMax = nwin * M;
  const packed = acquire(packedScalarBytes(n), 'msm packed scalars');
  const bad = acquire(4, 'msm scalar check');
  const halves = acquire(4 * halfPlaneWords(n) * plan.planes, 'msm scalars');
  const counts = acquire((nbMax + 1) * 4, 'msm counts');
  const offsets = acquire((nbMax + 1) * 4, 'msm offsets');
  const blockSums = acquire(scanBlocks(nbMax) * 4, 'msm block sums');
  const entries = acquire(n * nwin * 4, 'msm entries');
  const bsum = acquire(bucketSumBytes(plan), 'msm bucket sums');
  const partials = acquire(partialsBytes(plan), 'msm partials');
  const kept = acquire(MSM_BYTES.pair * T * K, 'msm reduction pairs');
  const second = levelsInEntries(plan) ? entries : acquire(reduceScratchBytes(plan), 'msm reduction pairs');
  return { packed, bad, halves, counts, offsets, blockSums, entries, bsum, partials, pairs: [kept, second] };
}
