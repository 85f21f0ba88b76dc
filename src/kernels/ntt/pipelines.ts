/**
 * The pipeline a pass of an NTT job runs, as a request to the pipeline cache (src/gpu/pipeline-cache.ts).
 *
 * The module set of the family is fixed: one module per entry point of ntt_stockham.gen.wgsl
 * (41: `ntt_pass_r{1..32}`, `_table`, `_split`, `_first`, `_staged`, `ntt_lde_fused_r{2..16}`,
 * `ntt_pass2_r{4..32}` with `_table` / `_split`) and width W, plus the tuning's switches (Shoup,
 * inner halves, static flags), never the size: rows, strides, Ns and twiddle offsets come from the
 * pass's uniform (NttParams), twiddles from tables in buffers. A pass's flags are the WGSL override
 * NTT_FLAGS (one module, a pipeline per flag set: 2026-11-22, 833adf1, H100; `git show
 * 833adf1:bench/RESULTS.md`). Two-level passes also size their workgroup tile by W and groups
 * (NTT_TG, NTT_TL, NTT_TILE2_WORDS).
 * ./plan.ts asks for every pipeline of a job once; the warm-up (src/kernels/warm-up.ts) asks for
 * those of typical jobs without running them.
 * @module
 */
import type { BindingKind, PipelineRequest } from '../../gpu/pipeline-cache.js';
import type { FieldName } from '../../params/fields.js';
import {
  NTT_FLAG_BITREV,
  NTT_FLAG_FOLDED_SCALE,
  NTT_FLAG_HALF,
  NTT_FLAG_INVERSE,
  NTT_FLAG_LAST,
  NTT_FLAG_PADDED,
  NTT_FLAG_ROTATE,
  NTT_FLAG_SCALE,
  NTT_STAGE_WORDS,
  NTT_TW_HI,
  NTT_TW_LO,
  NTT_TW_LO_BITS,
  passFlags,
  type NttPass,
} from './passes.js';
import type { NttTuning } from './tuning.js';

export const NTT_BINDINGS: readonly BindingKind[] = ['read-only-storage', 'storage', 'read-only-storage', 'read-only-storage', 'uniform'];
/** Two-level passes also bind their inner twiddle table (`tt`). */
export const NTT_BINDINGS_TWO: readonly BindingKind[] = [...NTT_BINDINGS, 'read-only-storage'];

/**
 * The request for pass `p` running `entryPoint` at width `w`, `groups` groups per two-level
 * workgroup (0 for a register pass), over `field`: the same WGSL with that field's constants
 * (BB_P, BB_MU, BB_ROOTS_32, ...: src/params/wgsl-consts.ts). BabyBear's request names no field.
 */
export function passPipeline(
  p: NttPass,
  entryPoint: string,
  w: number,
  groups: number,
  tuning: NttTuning,
  field: FieldName = 'babybear',
): PipelineRequest {
  const g = Math.max(groups, 1);
  const flagSource = staticFlags(p, tuning);
  return {
    kernel: 'ntt_stockham',
    entryPoint,
    plan: {
      NTT_W: w,
      NTT_WG: tuning.workgroup,
      NTT_STAGE_WORDS,
      NTT_TW_LO,
      NTT_TW_HI,
      NTT_LO_BITS: NTT_TW_LO_BITS,
      NTT_FLAG_LAST,
      NTT_FLAG_INVERSE,
      NTT_FLAG_SCALE,
      NTT_FLAG_BITREV,
      NTT_FLAG_HALF,
      NTT_FLAG_FOLDED_SCALE,
      NTT_FLAG_ROTATE,
      NTT_FLAG_PADDED,
      NTT_SHOUP: tuning.shoup ? 1 : 0,
      NTT_INNER_HALVES: tuning.innerHalves ? 1 : 0,
      NTT_STATIC_FLAGS: flagSource,
      NTT_TG: g,
      NTT_TL: g * w,
      NTT_TILE2_WORDS: p.sub > 0 ? g * w * p.radix : 1,
    },
    bindings: p.sub > 0 ? NTT_BINDINGS_TWO : NTT_BINDINGS,
    overrides: { NTT_FLAGS: flagSource === 2 ? passFlags(p) & ~LOAD_FLAGS : flagSource === 1 ? passFlags(p) : 0 },
    ...(field === 'babybear' ? {} : { field }),
  };
}

/** The flags a first pass reads from its uniform where its load flags are dynamic (NTT_STATIC_FLAGS = 2). */
const LOAD_FLAGS = NTT_FLAG_INVERSE | NTT_FLAG_HALF | NTT_FLAG_PADDED;

/**
 * NTT_STATIC_FLAGS of pass `p`: 0 flags from the uniform, 1 all from NTT_FLAGS, 2 (a register
 * pass that is its transform's first and not its last, with NttTuning.firstPassLoads 'uniform')
 * its load flags from the uniform: an lde's idft and dft first passes then take one pipeline, not
 * two (a first lde 2^17 x 8 waited for three radix-32 compiles on the H100's host, not two).
 */
function staticFlags(p: NttPass, tuning: NttTuning): 0 | 1 | 2 {
  if (!tuning.staticFlags) return 0;
  const firstOnly = p.ns === 1 && p.sub === 0 && (p.flags & NTT_FLAG_LAST) === 0;
  return firstOnly && tuning.firstPassLoads === 'uniform' ? 2 : 1;
}

/** Two requests name the same pipeline when their entry point, groups, flag source and flags agree (the rest follows from the job). */
export function pipelineKey(r: PipelineRequest): string {
  return `${r.entryPoint} ${r.plan?.NTT_TG} ${r.plan?.NTT_STATIC_FLAGS} ${r.overrides?.NTT_FLAGS}`;
}
