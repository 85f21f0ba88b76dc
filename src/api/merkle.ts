/**
 * Public facet: Merkle commitments equal to Plonky3 MerkleTreeMmcs (PaddingFreeSponge<Perm16,
 * 16,8,8> leaves, TruncatedPermutation<Perm16,2,8,16> nodes, cap height 0) built on the GPU in
 * one submission; only the root comes back. The tree stays on the GPU for openings until
 * tree.dispose().
 * @module
 */
import { isNttMatrix } from './is-ntt-matrix.js';
import { ProverError } from '../errors.js';
import { storageUsage, type GpuContext } from '../gpu/context.js';
import { openGpuMerkle, openGpuMerkleMany, planMerkle, DIGEST, MK_WG, type GpuMerkle } from '../kernels/merkle.js';
import { uploadChecked, type CheckedUpload } from '../kernels/canonical.js';
import type { AfterChunk } from '../gpu/staging.js';
import { requireDenseArray, requireFieldArray, requireInt, requireMultipleOf, requireOptions, show } from '../validate.js';
import { maxBindingWords, type ApiEnv } from './env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import type { Scheduler } from '../sched/scheduler.js';
import type { NttMatrix, NttMatrixRows } from './ntt.js';
import { loadPart } from '../lazy.js';

/** Widest row accepted: 4096 values = 512 sponge permutations per leaf. */
export const MAX_ROW_WIDTH = 4096;

export interface MerkleOpening {
  /** The committed row (canonical values). */
  row: Uint32Array;
  /** Sibling digests from the leaf level up, as Plonky3's proof lists them. */
  siblings: Uint32Array[];
}

export interface MerkleTree {
  readonly height: number;
  readonly width: number;
  readonly root: Uint32Array;
  /**
   * Row `index` and its authentication path (verify with verifyMerklePath).
   * @throws ProverError INVALID_ARGUMENT (index), DESTROYED (the tree or its prover), ABORTED, DEVICE_LOST
   */
  open(index: number, job?: JobOptions): Promise<MerkleOpening>;
  /**
   * The openings of several rows (any order, repeats allowed) in one GPU readback.
   * @throws ProverError INVALID_ARGUMENT (an index), DESTROYED, ABORTED, DEVICE_LOST
   */
  openMany(indices: readonly number[], job?: JobOptions): Promise<MerkleOpening[]>;
  /** Free the GPU buffers; later open() calls throw DESTROYED. */
  dispose(): void;
}

export interface MerkleMethods {
  /**
   * Commit a row-major matrix of canonical values (height a power of two, width 1..4096), or
   * an NttMatrix from this prover's NTT methods in place (no round trip; e.g. an lde with
   * bitReversedOutput, as Plonky3's PCS commits it). The tree keeps the NttMatrix's rows for its
   * openings until tree.dispose(), even if the handle is destroyed first. For an NttMatrix,
   * options.width may be left out (it must match if given).
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE, DESTROYED (a destroyed NttMatrix or prover), DEVICE_LOST, GPU_ERROR
   * @example const { root, tree } = await prover.merkleCommit(values, { width: 8 });
   * @example const { root } = await prover.merkleCommit(await prover.lde(trace, { width: 8, addedBits: 1, shift: 31, bitReversedOutput: true, gpu: true }));
   */
  merkleCommit(
    matrix: Uint32Array | NttMatrix,
    options?: { width?: number } & JobOptions,
  ): Promise<{ root: Uint32Array; tree: MerkleTree }>;
}

/** A list of row indices of a tree of `height` rows. */
export function requireRowIndices(indices: unknown, height: number): number[] {
  const list = requireDenseArray('openMany(indices)', indices, 'an array of row indices');
  return list.map((i, k) => requireInt(`openMany(indices): indices[${k}]`, i, 0, height - 1, 'a row of the tree'));
}

export function requireRowWidth(width: unknown): number {
  return requireInt('width', width, 1, MAX_ROW_WIDTH, "pass { width } with the matrix's column count");
}

/** A tree's height must be a power of two. */
export function requireTreeHeight(height: number): void {
  if (height < 1 || (height & (height - 1)) !== 0) {
    throw new ProverError('INVALID_LENGTH', `matrix height ${height} is not a power of two; pad the matrix to 2^k rows`);
  }
}

/** A merkleCommit of host values, checked: the rows (height a power of two) and their width. */
export function requireMerkleJob(
  matrix: unknown,
  width: unknown,
  gpuScans = false,
): { values: Uint32Array; width: number; height: number } {
  const w = requireRowWidth(width);
  const values = requireFieldArray('matrix', matrix, gpuScans);
  requireMultipleOf('matrix', values, w, `rows of ${w} values`);
  requireTreeHeight(values.length / w);
  return { values, width: w, height: values.length / w };
}

/** Height must be a power of two and the rows and 2·height digests must fit one binding each. */
export function requireTreeShape(ctx: GpuContext, height: number, width: number): void {
  requireTreeHeight(height);
  const max = maxBindingWords(ctx);
  if (height * width > max || height * DIGEST > max) {
    throw new ProverError(
      'TOO_LARGE',
      `a ${height} x ${width} matrix exceeds this device's ${max}-value binding limit; commit fewer rows or columns`,
    );
  }
}

/**
 * Record the tree after whatever `enc` already holds (only its upper levels when `leavesDone`:
 * the leaves were recorded as the rows' upload landed), submit once, read the root (and the
 * input's range-check flags with it), wrap it as a MerkleTree. A bad input value frees the tree
 * and throws NON_CANONICAL.
 */
export async function commitOnGpu(
  ctx: GpuContext,
  sched: Scheduler,
  plan: GpuMerkle,
  enc?: GPUCommandEncoder,
  opts: { leavesDone?: boolean; input?: CheckedUpload } = {},
): Promise<{ root: Uint32Array; tree: MerkleTree }> {
  try {
    enc ??= ctx.device.createCommandEncoder({ label: 'merkle commit' });
    if (opts.leavesDone) plan.encodeUpper(enc);
    else plan.encode(enc);
    ctx.submit(enc, 'merkle commit');
    const at = plan.rootAt();
    const flags = opts.input?.flags;
    const [root, flagWords] = await ctx.readRanges([{ buffer: at.buffer, word: at.word, count: DIGEST }, ...(flags ? [flags] : [])]);
    if (flagWords) opts.input!.check(flagWords);
    return { root: root.slice(), tree: wrapTree(ctx, sched, plan, root.slice()) };
  } catch (e) {
    plan.releaseTree();
    throw e;
  } finally {
    plan.releaseScratch();
    opts.input?.releaseFlags();
  }
}

function wrapTree(ctx: GpuContext, sched: Scheduler, plan: GpuMerkle, root: Uint32Array): MerkleTree {
  let disposed = false;
  return {
    height: plan.n,
    width: plan.width,
    root,
    async open(index, job) {
      const jobOpts = requireJobOptions('open job options', job);
      if (disposed) throw new ProverError('DESTROYED', 'this Merkle tree was disposed; commit again to open it');
      requireInt('open(index): index', index, 0, plan.n - 1, 'a row of the tree');
      return sched.run('merkle open', jobOpts, () => openGpuMerkle(ctx, plan, index));
    },
    async openMany(indices, job) {
      const jobOpts = requireJobOptions('openMany job options', job);
      if (disposed) throw new ProverError('DESTROYED', 'this Merkle tree was disposed; commit again to open it');
      const list = requireRowIndices(indices, plan.n);
      return sched.run('merkle open', jobOpts, () => openGpuMerkleMany(ctx, plan, list));
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      plan.releaseTree();
    },
  };
}

/** Commit an NttMatrix's rows where they are; the tree holds a reference to them until disposed. */
async function commitNttMatrix(
  ctx: GpuContext,
  sched: Scheduler,
  m: NttMatrixRows,
  width: number | undefined,
  job: JobOptions,
): Promise<{ root: Uint32Array; tree: MerkleTree }> {
  if (width !== undefined && width !== m.width) {
    throw new ProverError('INVALID_ARGUMENT', `width ${show(width)} does not match the NttMatrix's ${m.width} columns; leave width out`);
  }
  requireRowWidth(m.width);
  requireTreeShape(ctx, m.height, m.width); // an NttMatrix past one binding (row blocks) is TOO_LARGE here
  const buffer = m.buffer!;
  const release = m.retain();
  return sched.run('merkleCommit', job, async () => commitOnGpu(ctx, sched, await planMerkle(ctx, buffer, m.height, m.width, release)));
}

export function merkleMethods({ ctx, sched, alive }: ApiEnv): MerkleMethods {
  return {
    async merkleCommit(matrix, options) {
      alive();
      // An NttMatrix exists only once the NTT's code has loaded: a page that only hashes never loads it.
      const gpuRows = isNttMatrix(matrix)
        ? (await loadPart("webgpu-prover's ntt code", () => import('./ntt.js'))).nttMatrixRows(ctx, matrix)
        : undefined;
      const opts = requireOptions<{ width: number }>('merkleCommit options', options, gpuRows !== undefined);
      const jobOpts = requireJobOptions('merkleCommit options', opts);
      if (gpuRows) return commitNttMatrix(ctx, sched, gpuRows, opts.width, jobOpts);
      const { values, width } = requireMerkleJob(matrix, opts.width, true);
      requireTreeShape(ctx, values.length / width, width);
      return sched.run('merkleCommit', jobOpts, async () => {
        const n = values.length / width;
        const rows = ctx.pool.acquire(values.byteLength, storageUsage(), 'merkle rows');
        const plan = await planMerkle(ctx, rows, n, width, () => ctx.pool.release(rows));
        // Each subtree's rows are hashed as soon as the upload chunk that completes them lands.
        let hashed = 0;
        const hashLanded: AfterChunk = (enc, _dst, at, count) => {
          const complete = at + count === values.length ? plan.leafGroups : Math.floor((at + count) / width / MK_WG);
          plan.encodeLeaves(enc, hashed, complete);
          hashed = complete;
        };
        let input: CheckedUpload;
        try {
          input = await uploadChecked(ctx, values, 'matrix', 'merkle rows', hashLanded, rows);
        } catch (e) {
          plan.releaseScratch();
          plan.releaseTree();
          throw e;
        }
        return commitOnGpu(ctx, sched, plan, undefined, { leavesDone: true, input });
      });
    },
  };
}
