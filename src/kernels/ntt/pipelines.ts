/**
 * Which pipeline each pass of an NTT job runs, as a plain record computed once per job without
 * touching the GPU: the passes (ntt-spec.ts devicePasses, stagedPasses, twiddleSources, scaleFold,
 * fusedLdePass), each pass's entry point and the pipeline request it needs. src/kernels/ntt.ts
 * requests every pipeline of the record at once (PipelineCache.all) before it records a pass, and
 * the warm-up (src/kernels/warm-up.ts) requests those of typical jobs without running them.
 *
 * The module set of the family is fixed: one module per entry point of ntt_stockham.gen.wgsl
 * (36: `ntt_pass_r{1..32}`, `_table`, `_split`, `_staged`, `ntt_lde_fused_r{2..16}`,
 * `ntt_pass2_r{4..32}` with `_table` / `_split`) and width W, plus the A/B knobs (Shoup, inner
 * halves, static flags), never the size: rows, strides, Ns and twiddle offsets come from the
 * pass's uniform (NttParams), twiddles from tables in buffers. A pass's flags are the WGSL
 * override NTT_FLAGS (one module, a pipeline per flag set: 1.08x at 2^24, bench/RESULTS.md).
 * Two-level passes also size their workgroup tile by W and groups (NTT_TG, NTT_TL, NTT_TILE2_WORDS).
 * @module
 */
import type { GpuContext } from '../../gpu/context.js';
import type { BindingKind, PipelineRequest } from '../../gpu/pipeline-cache.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_FOLDED_SCALE, NTT_FLAG_HALF, NTT_FLAG_INVERSE, NTT_FLAG_LAST, NTT_FLAG_PADDED, NTT_FLAG_ROTATE, NTT_FLAG_SCALE,
  NTT_STAGE_WORDS, NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS, passFlags, twoLevelGroups, type NttPass,
} from './passes.js';
import {
  devicePasses, fusedLdePass, NTT_WG, scaleFold, SHOUP_TWIDDLES, STATIC_FLAGS, stagedPasses, twiddleSources, twoLevelGroupsFor,
  type NttSpec, type ScaleFold, type TwiddleSource,
} from './spec.js';

export const NTT_BINDINGS: readonly BindingKind[] = ['read-only-storage', 'storage', 'read-only-storage', 'read-only-storage', 'uniform'];
/** Two-level passes also bind their inner twiddle table (`tt`). */
export const NTT_BINDINGS_TWO: readonly BindingKind[] = [...NTT_BINDINGS, 'read-only-storage'];

/** One job's passes and what each runs. */
export interface NttJobLayout {
  passes: NttPass[];
  /** the scale of an idft / lde's last store (inverseScale), null for none */
  scale: [number, number, number] | null;
  fold: ScaleFold | null;
  /** index of the lde's fused pass (its next pass runs inside it), -1 for none */
  fused: number;
  staged: boolean[];
  sources: TwiddleSource[];
  /** groups per two-level workgroup, 0 for register passes */
  groups: number[];
  /** entry point of each pass */
  entries: string[];
  /** index into `requests` of each pass's pipeline, -1 for a pass that runs inside the fused one */
  pipelineOf: number[];
  /** the distinct pipelines the job needs */
  requests: PipelineRequest[];
}

/** The layout of `spec` on this device: passes, entry points and pipeline requests. */
export function nttJobLayout(ctx: GpuContext, spec: NttSpec): NttJobLayout {
  const w = spec.width;
  const planned = devicePasses(ctx, spec);
  const wg = spec.workgroup ?? NTT_WG;
  const staged = stagedPasses(ctx, spec, planned.passes);
  const sources = twiddleSources(spec, planned.passes, staged);
  const { passes, fold } = scaleFold(spec, planned.passes, sources);
  const kind = (i: number) => (sources[i] === 'running' || (passes[i].sub > 0 && sources[i] === 'staged') ? '' : `_${sources[i]}`);
  const fused = fusedLdePass(ctx, spec, passes);
  const entries = passes.map((p, i) => (i === fused ? `ntt_lde_fused_r${p.radix}` : p.sub > 0 ? `ntt_pass2_r${p.sub}${kind(i)}` : `ntt_pass_r${p.radix}${kind(i)}`));
  const groups = passes.map((p) => (p.sub > 0 ? twoLevelGroups(p.sub, w, p.n / p.radix, ctx.workgroup, spec.twoLevelGroups ?? twoLevelGroupsFor(w)) : 0));
  const staticFlags = spec.staticFlags ?? STATIC_FLAGS;
  const shoup = spec.shoup ?? SHOUP_TWIDDLES;
  const requests: PipelineRequest[] = [];
  const index = new Map<string, number>();
  const pipelineOf = passes.map((p, i) => {
    if (fused >= 0 && i === fused + 1) return -1;
    const g = Math.max(groups[i], 1);
    const req: PipelineRequest = {
      kernel: 'ntt_stockham',
      entryPoint: entries[i],
      plan: {
        NTT_W: w, NTT_WG: wg, NTT_STAGE_WORDS, NTT_TW_LO, NTT_TW_HI, NTT_LO_BITS: NTT_TW_LO_BITS,
        NTT_FLAG_LAST, NTT_FLAG_INVERSE, NTT_FLAG_SCALE, NTT_FLAG_BITREV, NTT_FLAG_HALF, NTT_FLAG_FOLDED_SCALE, NTT_FLAG_ROTATE, NTT_FLAG_PADDED,
        NTT_SHOUP: shoup ? 1 : 0, NTT_INNER_HALVES: spec.innerHalves ?? true ? 1 : 0, NTT_STATIC_FLAGS: staticFlags ? 1 : 0,
        NTT_TG: g, NTT_TL: g * w, NTT_TILE2_WORDS: p.sub > 0 ? g * w * p.radix : 1,
      },
      bindings: p.sub > 0 ? NTT_BINDINGS_TWO : NTT_BINDINGS,
      overrides: { NTT_FLAGS: staticFlags ? passFlags(p) : 0 },
    };
    const key = `${req.entryPoint} ${g} ${req.overrides!.NTT_FLAGS}`;
    let at = index.get(key);
    if (at === undefined) {
      at = requests.push(req) - 1;
      index.set(key, at);
    }
    return at;
  });
  return { passes, scale: planned.scale, fold, fused, staged, sources, groups, entries, pipelineOf, requests };
}
