/**
 * Public facet: the encode-and-commit pipeline (prover.commit), the commitment step of WHIR
 * (whir.md §2.2): Reed-Solomon encode the coefficient columns (zero-pad to h·2^addedBits rows,
 * dft_batch, natural order; the NTT issue's encodeToGpu) and commit the codeword with
 * Plonky3's MerkleTreeMmcs, in ONE command submission. The codeword never leaves the GPU;
 * tree.open(i) returns codeword row i and its path.
 * @module
 */
import { ProverError } from '../errors.js';
import { encodeToGpu } from '../kernels/ntt.js';
import { planMerkle } from '../kernels/merkle.js';
import { BB_TWO_ADICITY } from '../params/babybear.js';
import { requireCanonical, requireMultipleOf, requireUint32Array } from '../validate.js';
import type { ApiEnv } from './env.js';
import { commitOnGpu, requireRowWidth, requireTreeShape, type MerkleTree } from './merkle.js';

export interface CommitMethods {
  /**
   * Encode `coeffs` (height a power of two, row-major, `width` columns) to h·2^addedBits rows
   * and commit the codeword: equals p3_commit Encoder::encode_batch then MerkleTreeMmcs::commit.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE
   * @example const { root, tree } = await prover.commit(coeffs, { width: 8, addedBits: 1 });
   */
  commit(coeffs: Uint32Array, options: { width: number; addedBits: number }): Promise<{ root: Uint32Array; tree: MerkleTree }>;
}

export function commitMethods({ ctx, alive }: ApiEnv): CommitMethods {
  return {
    async commit(coeffs, options) {
      alive();
      const width = requireRowWidth(options?.width);
      requireUint32Array('coeffs', coeffs);
      requireMultipleOf('coeffs', coeffs, width, `rows of ${width} values`);
      const height = coeffs.length / width;
      if (height < 1 || (height & (height - 1)) !== 0) {
        throw new ProverError('INVALID_LENGTH', `coeffs height ${height} is not a power of two (pad the columns with zero coefficients)`);
      }
      const addedBits = options.addedBits;
      const maxAdded = BB_TWO_ADICITY - Math.log2(height);
      if (!Number.isInteger(addedBits) || addedBits < 0 || addedBits > maxAdded) {
        throw new ProverError('INVALID_ARGUMENT', `addedBits must be an integer in 0..${maxAdded} (codeword height <= 2^${BB_TWO_ADICITY}), got ${String(addedBits)}`);
      }
      const n = height * 2 ** addedBits;
      requireTreeShape(ctx, n, width);
      requireCanonical('coeffs', coeffs);
      return ctx.run(async () => {
        const enc = ctx.device.createCommandEncoder({ label: 'encode + commit' });
        const codeword = await encodeToGpu(ctx, coeffs, width, addedBits, { encoder: enc });
        const plan = await planMerkle(ctx, codeword.buffer, n, width, () => codeword.release());
        return commitOnGpu(ctx, plan, enc);
      });
    },
  };
}
