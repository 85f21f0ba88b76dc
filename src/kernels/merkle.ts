/**
 * Host side of wgsl/kernels/merkle.wgsl: plans the dispatches that build a whole Plonky3
 * MerkleTreeMmcs tree (cap height 0, one matrix, power-of-two height) from rows already on the
 * GPU, encodes them into one command encoder, and reads openings from the GPU-resident levels.
 * 2^24 rows take 3 dispatches: mk_leaves (hash + 8 levels), then mk_nodes twice (8 levels each).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { PipelineRequest } from '../gpu/pipeline-cache.js';
import { storageUsage } from '../gpu/context.js';
import { dispatch1d } from '../gpu/dispatch.js';
import { p2RcVec4, uploadConstants } from './poseidon2.js';

/** Levels folded per dispatch: a 256-thread workgroup reduces 256 nodes to 1 (9 KiB of workgroup memory: the row tile, then the digests). */
export const MK_LOG = 8;
export const MK_WG = 1 << MK_LOG;
/** Digest size in BabyBear values. */
export const DIGEST = 8;

const BINDINGS = ['uniform', 'uniform', 'read-only-storage', 'storage', 'storage'] as const;
/** MkParams: six u32 (n, width, level, levels, group0, group_end), padded to 32 bytes. */
const MK_PARAM_BYTES = 32;

/** Word offset of level l >= 1 in the `up` buffer for n leaves (levels back to back). */
export function upOffset(n: number, level: number): number {
  return DIGEST * (n - n / 2 ** (level - 1));
}

/** GPU-resident tree: the committed rows and every digest level, until release(). */
export interface GpuMerkle {
  readonly n: number;
  readonly width: number;
  readonly logN: number;
  readonly rows: GPUBuffer;
  readonly leaves: GPUBuffer;
  readonly up: GPUBuffer;
  /** Append the tree-building dispatches to `enc` (call once, then submit). */
  encode(enc: GPUCommandEncoder): void;
  /** Subtrees (MK_WG rows each) of the leaf dispatch; `encodeLeaves` over all of them, then `encodeUpper`, is `encode`. */
  readonly leafGroups: number;
  /** Hash rows into leaves and fold MK_LOG levels for subtrees [from, to): rows hashed as their upload lands. */
  encodeLeaves(enc: GPUCommandEncoder, from: number, to: number): void;
  /** The levels above the leaf dispatch's (call once, after every subtree's leaves). */
  encodeUpper(enc: GPUCommandEncoder): void;
  /** Where the root digest lives after the submission. */
  rootAt(): { buffer: GPUBuffer; word: number };
  /** Free the per-dispatch uniforms (after submit). The level buffers stay until releaseTree(). */
  releaseScratch(): void;
  /** Free the level buffers and the rows (through `releaseRows`). */
  releaseTree(): void;
}

const MG_WG = 256;
const GATHER_BINDINGS = ['read-only-storage', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage'] as const;

/** The tree's pipelines (leaves, nodes, and the openings' gather): the same for every size and width. */
export function merklePipelineRequests(): PipelineRequest[] {
  const plan = { P2_RC_VEC4: p2RcVec4(16), MK_LOG, MK_WG };
  return [
    { kernel: 'merkle', entryPoint: 'mk_leaves', plan, bindings: BINDINGS },
    { kernel: 'merkle', entryPoint: 'mk_nodes', plan, bindings: BINDINGS },
    { kernel: 'merkle_gather', entryPoint: 'mg_gather', plan: { MG_WG }, bindings: GATHER_BINDINGS },
  ];
}

/**
 * Plan a tree over `rows` (n·width canonical values on the GPU, n a power of two). The caller
 * has validated n, width and that the buffers fit the device's binding limit; the tree owns
 * the rows from here on and gives them back with `releaseRows` (also if planning fails).
 */
export async function planMerkle(ctx: GpuContext, rows: GPUBuffer, n: number, width: number, releaseRows: () => void): Promise<GpuMerkle> {
  let leavesPipe: GPUComputePipeline, nodesPipe: GPUComputePipeline;
  try {
    [leavesPipe, nodesPipe] = await ctx.pipelines.all(merklePipelineRequests());
  } catch (e) {
    releaseRows();
    throw e;
  }
  const logN = Math.log2(n);
  const leaves = ctx.pool.acquire(n * DIGEST * 4, storageUsage(), 'merkle leaves');
  const upWords = Math.max(DIGEST * (n - 1), DIGEST);
  const up = ctx.pool.acquire(upWords * 4, storageUsage(), 'merkle levels');
  const rc = uploadConstants(ctx, 16);
  const scratch: GPUBuffer[] = [rc.buffer];
  // Dispatch list: (pipeline, input level, levels folded, input nodes).
  const steps: Array<{ pipe: GPUComputePipeline; level: number; levels: number; nodes: number }> = [];
  for (let level = 0; level === 0 || level < logN;) {
    const levels = Math.min(MK_LOG, logN - level);
    steps.push({ pipe: level === 0 ? leavesPipe : nodesPipe, level, levels, nodes: n >> level });
    level += levels;
    if (levels === 0) break; // n = 1: the single leaf is the root
  }
  const leafGroups = Math.ceil(n / MK_WG);
  const group = (s: (typeof steps)[number], from: number, to: number) => {
    const params = ctx.uploadUniform(new Uint32Array([n, width, s.level, s.levels, from, to, 0, 0]), 'merkle params');
    scratch.push(params);
    return ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(BINDINGS),
      entries: [
        { binding: 0, resource: { buffer: rc.buffer, size: rc.size } },
        { binding: 1, resource: { buffer: params, size: MK_PARAM_BYTES } },
        { binding: 2, resource: { buffer: rows, size: n * width * 4 } },
        { binding: 3, resource: { buffer: leaves, size: n * DIGEST * 4 } },
        { binding: 4, resource: { buffer: up, size: upWords * 4 } },
      ],
    });
  };
  const record = (
    enc: GPUCommandEncoder,
    list: ReadonlyArray<{ step: (typeof steps)[number]; from: number; to: number }>,
    label: string,
  ) => {
    const pass = enc.beginComputePass({ label });
    for (const { step, from, to } of list) {
      pass.setPipeline(step.pipe);
      pass.setBindGroup(0, group(step, from, to));
      dispatch1d(pass, ctx.device, step.level === 0 ? (to - from) * MK_WG : step.nodes, MK_WG);
    }
    pass.end();
  };
  const upper = steps.slice(1).map((step) => ({ step, from: 0, to: 0 }));
  let released = false;
  return {
    n,
    width,
    logN,
    rows,
    leaves,
    up,
    leafGroups,
    encode(enc) {
      record(enc, [{ step: steps[0], from: 0, to: leafGroups }, ...upper], `merkle 2^${logN} x ${width}`);
    },
    encodeLeaves(enc, from, to) {
      if (to > from) record(enc, [{ step: steps[0], from, to }], `merkle leaves ${from}..${to} of ${leafGroups}`);
    },
    encodeUpper(enc) {
      if (upper.length) record(enc, upper, `merkle 2^${logN} upper levels`);
    },
    rootAt: () => (logN === 0 ? { buffer: leaves, word: 0 } : { buffer: up, word: upOffset(n, logN) }),
    releaseScratch() {
      for (const b of scratch.splice(0)) ctx.pool.release(b);
    },
    releaseTree() {
      if (released) return;
      released = true;
      ctx.pool.release(leaves);
      ctx.pool.release(up);
      releaseRows();
    },
  };
}

/** The opened row and its sibling digests (leaf level first), read from the GPU-resident tree. */
export async function openGpuMerkle(ctx: GpuContext, t: GpuMerkle, index: number): Promise<{ row: Uint32Array; siblings: Uint32Array[] }> {
  const [opening] = await openGpuMerkleMany(ctx, t, [index]);
  return opening;
}

/** From this many openings on, one gather pass packs them (each readback range is a copy command: ~5 µs apiece in Dawn, 1600 of them for 80 queries of a 2^19-row tree). */
const GATHER_MIN_OPENINGS = 8;

/** Several openings in one readback (a protocol's queries: one GPU round trip instead of one each). */
export async function openGpuMerkleMany(
  ctx: GpuContext,
  t: GpuMerkle,
  indices: readonly number[],
): Promise<{ row: Uint32Array; siblings: Uint32Array[] }[]> {
  if (indices.length >= GATHER_MIN_OPENINGS && t.logN > 0) return gatherOpenings(ctx, t, indices);
  const ranges = [];
  for (const index of indices) {
    ranges.push({ buffer: t.rows, word: index * t.width, count: t.width });
    for (let l = 0; l < t.logN; l++) {
      const sib = (index >> l) ^ 1;
      ranges.push(
        l === 0
          ? { buffer: t.leaves, word: sib * DIGEST, count: DIGEST }
          : { buffer: t.up, word: upOffset(t.n, l) + sib * DIGEST, count: DIGEST },
      );
    }
  }
  const read = await ctx.readRanges(ranges);
  const per = 1 + t.logN;
  return indices.map((_, k) => ({ row: read[k * per].slice(), siblings: read.slice(k * per + 1, (k + 1) * per).map((s) => s.slice()) }));
}

/** The openings packed on the GPU by merkle_gather.wgsl, then read back in one range. */
async function gatherOpenings(
  ctx: GpuContext,
  t: GpuMerkle,
  indices: readonly number[],
): Promise<{ row: Uint32Array; siblings: Uint32Array[] }[]> {
  const pipeline = await ctx.pipelines.get('merkle_gather', 'mg_gather', { MG_WG }, GATHER_BINDINGS);
  const per = t.width + DIGEST * t.logN;
  const req = ctx.upload(Uint32Array.from([indices.length, t.width, t.logN, t.n, ...indices]), 'merkle gather request');
  const out = ctx.pool.acquire(4 * per * indices.length, storageUsage(), 'merkle gather');
  try {
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(GATHER_BINDINGS),
      entries: [t.rows, t.leaves, t.up, req, out].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const enc = ctx.device.createCommandEncoder({ label: 'merkle gather' });
    const pass = enc.beginComputePass({ label: 'merkle gather' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.min(65535, Math.ceil((per * indices.length) / MG_WG)));
    pass.end();
    ctx.submit(enc, 'merkle gather');
    const [packed] = await ctx.readRanges([{ buffer: out, word: 0, count: per * indices.length }]);
    return indices.map((_, q) => {
      const at = q * per;
      const siblings = [];
      for (let l = 0; l < t.logN; l++) siblings.push(packed.slice(at + t.width + DIGEST * l, at + t.width + DIGEST * (l + 1)));
      return { row: packed.slice(at, at + t.width), siblings };
    });
  } finally {
    ctx.pool.release(req);
    ctx.pool.release(out);
  }
}
