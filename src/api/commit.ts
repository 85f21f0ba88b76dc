/**
 * Public facet: the encode-and-commit pipeline (prover.commit), the commitment step of WHIR
 * (whir.md §2.2): Reed-Solomon encode the coefficient columns (zero-pad to h·2^addedBits rows,
 * dft_batch, natural order; the NTT issue's encodeToGpu) and commit the codeword with
 * Plonky3's MerkleTreeMmcs, in ONE command submission. The codeword never leaves the GPU;
 * tree.open(i) returns codeword row i and its path.
 * @module
 */
import { ProverError } from '../errors.js';
import { encodeToGpu } from '../kernels/ntt/record.js';
import { uploadChecked } from '../kernels/canonical.js';
import { planMerkle } from '../kernels/merkle.js';
import { requireAddedBits, requireFieldArray, requireMultipleOf, requireOptions } from '../validate.js';
import type { ApiEnv } from './env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { commitOnGpu, requireRowWidth, requireTreeShape, type MerkleTree } from './merkle.js';

export interface CommitMethods {
  /**
   * Encode `coeffs` (height a power of two, row-major, `width` columns) to h·2^addedBits rows
   * and commit the codeword: equals p3_commit Encoder::encode_batch then MerkleTreeMmcs::commit.
   * @throws ProverError INVALID_ARGUMENT, INVALID_LENGTH, NON_CANONICAL, TOO_LARGE (codeword past 2^27 rows or one binding), DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const { root, tree } = await prover.commit(coeffs, { width: 8, addedBits: 1 });
   */
  commit(coeffs: Uint32Array, options: { width: number; addedBits: number } & JobOptions): Promise<{ root: Uint32Array; tree: MerkleTree }>;
}

/**
 * A commit call, checked: coefficient columns (height a power of two) and the blow-up. With
 * `gpuScans` (the GPU path) a large array's values are range-checked on the GPU after upload.
 */
export function requireCommitJob(
  coeffs: unknown,
  options: unknown,
  gpuScans = false,
): { coeffs: Uint32Array; width: number; height: number; addedBits: number } {
  const o = requireOptions<{ width: number; addedBits: number }>('commit options', options, false);
  const width = requireRowWidth(o.width);
  const values = requireFieldArray('coeffs', coeffs, gpuScans);
  requireMultipleOf('coeffs', values, width, `rows of ${width} values`);
  const height = values.length / width;
  if ((height & (height - 1)) !== 0) {
    throw new ProverError('INVALID_LENGTH', `coeffs height ${height} is not a power of two; pad the columns with zero coefficients`);
  }
  const addedBits = requireAddedBits('commit', height, o.addedBits);
  return { coeffs: values, width, height, addedBits };
}

export function commitMethods({ ctx, sched, alive }: ApiEnv): CommitMethods {
  return {
    async commit(given, options) {
      alive();
      const { coeffs, width, height, addedBits } = requireCommitJob(given, options, true);
      const n = height * 2 ** addedBits;
      requireTreeShape(ctx, n, width);
      return sched.run('commit', requireJobOptions('commit options', options), async () => {
        // Through the staging ring, range-checked on the GPU as it lands and the check read with
        // the root (writeBuffer and a host scan of a 64 MiB table cost ~60 ms and ~20 ms;
        // bench/RESULTS.md, whir).
        const input = await uploadChecked(ctx, coeffs, 'coeffs', 'commit input');
        try {
          const enc = ctx.device.createCommandEncoder({ label: 'encode + commit' });
          const codeword = await encodeToGpu(ctx, input.buffer, width, addedBits, { height, encoder: enc });
          const plan = await planMerkle(ctx, codeword.buffer, n, width, () => codeword.release());
          return await commitOnGpu(ctx, sched, plan, enc, { input });
        } finally {
          input.releaseFlags();
          ctx.pool.release(input.buffer);
        }
      });
    },
  };
}
