/**
 * Compile a kernel family's pipelines ahead of its first call: `prover.warmUp(families)` and
 * `createProver({ warmUp: [...] })`. Each family's set is what its jobs would request at the sizes
 * that exercise every variant (WARM_UP below): with shapes in uniforms (src/kernels/ntt/pipelines.ts,
 * msm/pipelines.ts msmPipelineRequests) every other size reuses these pipelines, which
 * test/unit/warm-up.test.ts checks by planning sizes up to 2^23 (NTT) and 2^20 (MSM) against the set.
 * Everything is requested at once (PipelineCache.all), so the driver compiles side by side, and
 * a job that arrives meanwhile awaits the same promises instead of compiling again.
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { PipelineRequest } from '../gpu/pipeline-cache.js';
import { requireWarmUpFamilies, type WarmUpFamily } from '../warm-up-families.js';
import { CANONICAL_PIPELINE } from './canonical.js';
import { GRIND_PIPELINE } from './grind.js';
import { merklePipelineRequests } from './merkle.js';
import { MSM_BASES_PIPELINE, msmPipelineRequests } from './msm/pipelines.js';
import { msmPlan } from './msm/plan.js';
import type { NttJob } from './ntt/job.js';
import { nttLimits, planNtt } from './ntt/plan.js';
import { NTT_TUNING } from './ntt/tuning.js';
import { poseidon2PipelineRequest } from './poseidon2.js';

/**
 * The jobs whose pipelines a family's warm-up compiles. NTT: every op at widths 1 and 8 from 2^10
 * to 2^14 rows, where each remainder radix (2..16) and each flag set first appears; 2^15 .. 2^23
 * add none (register passes; 2^24 and up take two-level passes, compiled on first use). Other
 * widths compile on first use (the width is a module constant: index arithmetic by a constant).
 * MSM: the plans of 2^10 .. 2^20 points by default tuning (slots, walker workgroup and riders: the
 * only constants left).
 */
export const WARM_UP = {
  ntt: { ops: ['dft', 'idft', 'lde', 'encode'] as const, widths: [1, 8], logs: [10, 11, 12, 13, 14] },
  msm: { logs: [10, 12, 14, 16, 18, 20] },
};

/** The pipelines `family` would request, without compiling them (tests count these). */
export function familyRequests(ctx: Pick<GpuContext, 'workgroup' | 'limits'>, family: WarmUpFamily): PipelineRequest[] {
  switch (family) {
    case 'ntt': {
      const out: PipelineRequest[] = [];
      for (const width of WARM_UP.ntt.widths) {
        for (const log of WARM_UP.ntt.logs) {
          for (const op of WARM_UP.ntt.ops) {
            const job: NttJob = { op, height: 2 ** log, width, addedBits: op === 'lde' || op === 'encode' ? 1 : 0 };
            out.push(...planNtt(job, NTT_TUNING, nttLimits(ctx)).requests);
          }
        }
      }
      return [...out, CANONICAL_PIPELINE];
    }
    case 'merkle':
      return [...merklePipelineRequests(), CANONICAL_PIPELINE];
    case 'commit':
      return [...familyRequests(ctx, 'ntt'), ...merklePipelineRequests()];
    case 'poseidon2':
      return [poseidon2PipelineRequest(16), poseidon2PipelineRequest(24), CANONICAL_PIPELINE];
    case 'grind':
      return [GRIND_PIPELINE];
    case 'msm':
      return [MSM_BASES_PIPELINE, ...WARM_UP.msm.logs.flatMap((log) => msmPipelineRequests(msmPlan(2 ** log, {}, ctx.workgroup)))];
  }
}

/**
 * Compile the pipelines of `families` (default: all) on `ctx`; resolves when every one is ready.
 * Pipelines already compiled or in flight are not compiled again (PipelineCache).
 */
export async function warmUp(ctx: GpuContext, families?: readonly WarmUpFamily[]): Promise<void> {
  const requests = requireWarmUpFamilies(families).flatMap((f) => familyRequests(ctx, f));
  await ctx.pipelines.all(requests, true);
}
