/**
 * The quick MSM (msm_quick.wgsl): one pipeline that compiles in a fraction of the walker's time,
 * for a run that would otherwise wait for the walker's pipelines to compile (a page's first MSM).
 * A run on it: the scalars copied as they are, one pass of per-group sums of k_i·P_i over
 * QUICK_PER points each (a group's lanes each take a slice of the scalars' bits), passes that sum
 * QUICK_GROUP of those at a time until at most QUICK_HOST_SUMS are left, and those read back for
 * the host to add (quickSum: lane c's times 2^(c·bits)). Its output takes the place of
 * a run's window sums (job.ts adds them). engines.ts decides which runs take it.
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import { Profiler, type ProfileReport } from '../../gpu/profiler.js';
import { heldStorage, packedScalarBytes } from './buffers.js';
import { MSM_BYTES, MSM_WORDS, QUICK_WG } from './layout.js';
import { QUICK_PARAMS } from './params.js';
import { MSM_QUICK_PIPELINE, QUICK_B } from './pipelines.js';
import { bindGroup, dispatch, uploadParams } from './record.js';
import type { ScalarWords } from './run.js';

/**
 * Points a group of the first pass sums (at most 32: the kernel keeps their usability in one
 * word). Each shares the group's doublings; H100, 2^16: 23.2 ms at 4, 30.7 at 1 (one lane a group).
 */
export const QUICK_PER = 4;
/** Groups a group of a later pass sums, lane by lane. */
export const QUICK_GROUP = 16;
/** Sums left for the host to add once the passes are done. */
export const QUICK_HOST_SUMS = 64;
/**
 * Most lanes a group splits its scalars' 256 bits over. A thread's chain is 256 / lanes doublings
 * plus its points' additions: with one lane a 32-point run took as long as 2^16 points on the
 * H100 (~40 ms: a first MSM ran three, the engine's known answer, the self-check and the call).
 */
export const QUICK_MAX_LANES = 8;
/** First-pass threads past which a run takes fewer lanes: enough to fill the GPU, and the first pass's sums (96 bytes a thread) stay ~12 MiB. */
export const QUICK_THREADS = 1 << 17;

/** A quick run's shape: lanes a group (`chunks`) and their bits each, and the groups each pass leaves. */
export interface QuickShape {
  chunks: number;
  bits: number;
  groups: number[];
}

/**
 * A run of n points: the most lanes a group (up to maxLanes) while the first pass stays within
 * QUICK_THREADS threads, and the groups each pass leaves (n / per, then / QUICK_GROUP until at
 * most QUICK_HOST_SUMS sums are left).
 */
export function quickShape(n: number, per = QUICK_PER, maxLanes = QUICK_MAX_LANES): QuickShape {
  const groups = [Math.ceil(n / per)];
  let chunks = maxLanes;
  while (chunks > 1 && groups[0] * chunks > QUICK_THREADS) chunks /= 2;
  while (groups[groups.length - 1] * chunks > QUICK_HOST_SUMS) groups.push(Math.ceil(groups[groups.length - 1] / QUICK_GROUP));
  return { chunks, bits: 256 / chunks, groups };
}

/** The scalar check's flag before the run: no index reaches it. */
const NONE = 0xffffffff;

export interface QuickRunResult {
  /** partial sums, projective in Montgomery form (MSM_WORDS.projective words each), to add on the host: sum j is lane j % chunks's */
  sums: Uint32Array;
  /** lanes a group, and the scalar bits each lane took: lane c's sums count 2^(c·bits) times */
  chunks: number;
  bits: number;
  /** the run's first scalar >= r (its index within the run), -1 if none */
  bad: number;
  profile: ProfileReport | null;
  /** pool bytes in use once the run was submitted */
  poolBytes: number;
}

/**
 * One quick run over points [base0, base0 + n) of uploaded bases and the caller's scalars, as
 * startMsm's: submitted before this resolves, `result` resolving with the readback; the buffers go
 * back to the pool at once (queue order keeps the next user after this run).
 */
export async function startQuickMsm(
  ctx: GpuContext,
  bases: GPUBuffer,
  base0: number,
  scalars: ScalarWords,
  n: number,
  profile = false,
): Promise<{ result: Promise<QuickRunResult> }> {
  const pipe = await ctx.pipelines.all([MSM_QUICK_PIPELINE]).then(([p]) => p);
  const { chunks, bits, groups } = quickShape(n);
  const held: GPUBuffer[] = [];
  const acquire = heldStorage(ctx, held);
  const prof = new Profiler(ctx.device, profile && ctx.features.timestamps, 1);
  try {
    const packed = acquire(packedScalarBytes(n), 'msm packed scalars');
    const { words, start, be } = scalars;
    const first = (MSM_BYTES.scalar / 4) * start;
    await ctx.uploadAsync(words.subarray(first, first + packedScalarBytes(n) / 4), 'msm packed scalars', undefined, packed);
    const bad = acquire(4, 'msm scalar check');
    ctx.device.queue.writeBuffer(bad, 0, Uint32Array.of(NONE));
    // Ping-pong between two buffers; the first pass reads no points, but binds the other one.
    const sums = [
      acquire(MSM_BYTES.projective * groups[0] * chunks, 'msm quick sums'),
      acquire(MSM_BYTES.projective * (groups[1] ?? 1) * chunks, 'msm quick sums'),
    ];
    const enc = ctx.device.createCommandEncoder({ label: 'msm quick' });
    const pass = prof.beginPass(enc, 'quick');
    groups.forEach((out, k) => {
      const values =
        k === 0
          ? { n, base0, be: be ? 1 : 0, per: QUICK_PER, mode: 0, chunks, bits }
          : { n: groups[k - 1], base0: 0, be: 0, per: QUICK_GROUP, mode: 1, chunks, bits };
      const params = uploadParams(ctx, QUICK_PARAMS, values);
      held.push(params);
      const group = bindGroup(ctx, QUICK_B, [bases, packed, sums[(k + 1) % 2], sums[k % 2], bad, params]);
      dispatch(pass, ctx, pipe, group, out * chunks, QUICK_WG);
    });
    pass.end();
    prof.resolve(enc);
    const t0 = performance.now();
    ctx.submit(enc, 'msm quick');
    const poolBytes = ctx.pool.stats().bytesInUse;
    const last = groups.length - 1;
    const reads = ctx.readRanges([
      { buffer: sums[last % 2], word: 0, count: groups[last] * chunks * MSM_WORDS.projective },
      { buffer: bad, word: 0, count: 1 },
    ]);
    const report = profile ? prof.read(t0) : Promise.resolve(null);
    const result = Promise.all([report, reads])
      .then(([p, [points, flag]]) => ({ sums: points, chunks, bits, bad: flag[0] === NONE ? -1 : flag[0], profile: p, poolBytes }))
      .finally(() => prof.destroy());
    result.catch(() => {}); // the caller awaits it; this keeps an early failure from going unhandled meanwhile
    return { result };
  } catch (e) {
    prof.destroy();
    throw e;
  } finally {
    for (const b of held) ctx.pool.release(b);
  }
}
