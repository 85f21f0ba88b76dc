/**
 * Public facet: Merkle commitments equal to Plonky3 MerkleTreeMmcs (PaddingFreeSponge<Perm16,
 * 16,8,8> leaves, TruncatedPermutation<Perm16,2,8,16> nodes, cap height 0) built on the GPU in
 * one submission; only the root comes back. The tree stays on the GPU for openings until
 * tree.dispose().
 * @module
 */
import { ProverError } from '../errors.js';
import type { GpuContext } from '../gpu/context.js';
import { openGpuMerkle, planMerkle, DIGEST, type GpuMerkle } from '../kernels/merkle.js';
import { requireCanonical, requireMultipleOf, requireUint32Array } from '../validate.js';
import { maxBindingWords, type ApiEnv } from './env.js';

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
  /** Row `index` and its authentication path (verify with verifyMerklePath). */
  open(index: number): Promise<MerkleOpening>;
  /** Free the GPU buffers; later open() calls throw DESTROYED. */
  dispose(): void;
}

export interface MerkleMethods {
  /**
   * Commit a row-major matrix of canonical values (height a power of two, width 1..4096).
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE
   * @example const { root, tree } = await prover.merkleCommit(values, { width: 8 });
   */
  merkleCommit(matrix: Uint32Array, options: { width: number }): Promise<{ root: Uint32Array; tree: MerkleTree }>;
}

export function requireRowWidth(width: unknown): number {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < 1 || width > MAX_ROW_WIDTH) {
    throw new ProverError('INVALID_ARGUMENT', `width must be an integer in 1..${MAX_ROW_WIDTH}, got ${String(width)}`);
  }
  return width;
}

/** Height must be a power of two and the rows and 2·height digests must fit one binding each. */
export function requireTreeShape(ctx: GpuContext, height: number, width: number): void {
  if (height < 1 || (height & (height - 1)) !== 0) {
    throw new ProverError('INVALID_LENGTH', `matrix height ${height} is not a power of two (pad the matrix to 2^k rows)`);
  }
  const max = maxBindingWords(ctx);
  if (height * width > max || height * DIGEST > max) {
    throw new ProverError('TOO_LARGE', `a ${height} x ${width} matrix exceeds this device's ${max}-value binding limit`);
  }
}

/** Record the tree after whatever `enc` already holds, submit once, read the root, wrap it as a MerkleTree. */
export async function commitOnGpu(ctx: GpuContext, plan: GpuMerkle, enc?: GPUCommandEncoder): Promise<{ root: Uint32Array; tree: MerkleTree }> {
  try {
    enc ??= ctx.device.createCommandEncoder({ label: 'merkle commit' });
    plan.encode(enc);
    ctx.device.queue.submit([enc.finish()]);
    const at = plan.rootAt();
    const [root] = await ctx.readRanges([{ buffer: at.buffer, word: at.word, count: DIGEST }]);
    return { root: root.slice(), tree: wrapTree(ctx, plan, root.slice()) };
  } catch (e) {
    plan.releaseTree();
    throw e;
  } finally {
    plan.releaseScratch();
  }
}

function wrapTree(ctx: GpuContext, plan: GpuMerkle, root: Uint32Array): MerkleTree {
  let disposed = false;
  return {
    height: plan.n,
    width: plan.width,
    root,
    async open(index) {
      if (disposed) throw new ProverError('DESTROYED', 'this Merkle tree was disposed; commit again to open it');
      if (!Number.isInteger(index) || index < 0 || index >= plan.n) {
        throw new ProverError('INVALID_ARGUMENT', `open(${index}): index must be an integer in 0..${plan.n - 1}`);
      }
      return ctx.run(() => openGpuMerkle(ctx, plan, index));
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      plan.releaseTree();
    },
  };
}

export function merkleMethods({ ctx, alive }: ApiEnv): MerkleMethods {
  return {
    async merkleCommit(matrix, options) {
      alive();
      const width = requireRowWidth(options?.width);
      requireUint32Array('matrix', matrix);
      requireMultipleOf('matrix', matrix, width, `rows of ${width} values`);
      requireTreeShape(ctx, matrix.length / width, width);
      requireCanonical('matrix', matrix);
      return ctx.run(async () => {
        const rows = ctx.upload(matrix, 'merkle rows');
        const plan = await planMerkle(ctx, rows, matrix.length / width, width, () => ctx.pool.release(rows));
        return commitOnGpu(ctx, plan);
      });
    },
  };
}
