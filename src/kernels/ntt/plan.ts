/**
 * planNtt: an NTT job, a tuning and the adapter's limits in, the whole plan out, as one plain
 * frozen record computed once per job without a GPU (test/unit/ntt-plan-record.test.ts checks its
 * invariants). Per recorded pass (NttStep): the Stockham pass, its entry point and pipeline
 * request, where its twiddles come from, the tables bound at `tw`, `sc` and `tt`, its uniform's
 * words, its grid, its buffers' rows. Per job: the scale of an inverse transform (one place:
 * inverseScale of the height and the lde's shift), the fused and folded passes, the distinct
 * tables, and how the job splits when its matrix is larger than one binding (column blocks, or a
 * four-step per column: ./blocks.ts, ./long.ts). ./record.ts records the steps as they are.
 * @module
 */
import { ProverError } from '../../errors.js';
import type { GpuContext } from '../../gpu/context.js';
import { grid2d } from '../../gpu/dispatch.js';
import type { PipelineRequest } from '../../gpu/pipeline-cache.js';
import { jobField, outputHeight, type NttJob } from './job.js';
import {
  fusedLdePass,
  jobPasses,
  scaleFold,
  stagedPasses,
  twiddleSources,
  twoLevelGroupsFor,
  twoLevelLog,
  type NttLimits,
  type NttScale,
  type ScaleFold,
  type TwiddleSource,
} from './layout.js';
import { passUniform, stageWorkgroup, twoLevelGroups, type NttPass } from './passes.js';
import { passPipeline, pipelineKey } from './pipelines.js';
import { inverseScale, tableLabel, type NttTable } from './tables.js';
import type { NttTuning } from './tuning.js';

/** One recorded pass. */
export interface NttStep {
  /** Index of the pass in NttPlan.passes (a fused step also runs pass index + 1). */
  readonly index: number;
  readonly pass: NttPass;
  readonly fused: boolean;
  readonly entryPoint: string;
  /** Index into NttPlan.requests. */
  readonly pipeline: number;
  readonly twiddles: TwiddleSource;
  /** Groups per two-level workgroup; 0 for a register pass. */
  readonly groups: number;
  /** Bound at `tw` (binding 2): the lo/hi powers, or the pass's split table. */
  readonly tw: NttTable;
  /** Bound at `sc` (binding 3): the scale table (or the powers when there is none), or the pass's twiddle table. */
  readonly sc: NttTable;
  /** Bound at `tt` (binding 5) by a two-level pass: its inner twiddles. */
  readonly inner: NttTable | null;
  /** The pass's 8-word uniform (NttParams). */
  readonly uniform: readonly number[];
  /** Threads per workgroup and the threads the pass needs; `grid` workgroups cover them. */
  readonly workgroupSize: number;
  readonly threads: number;
  readonly grid: readonly [number, number];
  /** Rows of the buffer it reads (the job's input for the first step) and of the one it writes. */
  readonly srcRows: number;
  readonly dstRows: number;
  /** Which of the job's two ping-pong buffers it writes. */
  readonly dst: 0 | 1;
  /** Its compute pass's label when each pass is timed alone. */
  readonly label: string;
}

/** How a job runs when its output exceeds one binding: whole, in blocks of columns, or per column as a four-step. */
export type NttSplit =
  | { readonly mode: 'whole' }
  | { readonly mode: 'columns'; readonly columns: number }
  | { readonly mode: 'four-step'; readonly n1: number; readonly n2: number };

export interface NttPlan {
  readonly job: NttJob;
  readonly tuning: NttTuning;
  readonly limits: NttLimits;
  readonly outRows: number;
  readonly split: NttSplit;
  /** log2 of the two-level radix the passes use, 0 for register passes only. */
  readonly twoLevel: number;
  readonly passes: readonly NttPass[];
  readonly staged: readonly boolean[];
  /** An inverse transform's scale (idft, lde), null otherwise. */
  readonly scale: NttScale | null;
  readonly fold: ScaleFold | null;
  /** Index of the lde's fused pass (its next pass runs inside it), -1 for none. */
  readonly fused: number;
  /** The passes recorded (all but a fused pass's partner; a prefix with tuning.passLimit). */
  readonly steps: readonly NttStep[];
  /** The distinct pipelines the job needs, requested at once before a pass is recorded. */
  readonly requests: readonly PipelineRequest[];
  /** The distinct tables the steps bind. */
  readonly tables: readonly NttTable[];
}

/** WebGPU's default limits, as the NTT reads them. */
export const DEFAULT_NTT_LIMITS: NttLimits = Object.freeze({
  threads: 256,
  tileBytes: 16384,
  maxWorkgroupsPerDim: 65535,
  maxWords: 2 ** 25,
});

/** The limits of `ctx`'s device that the plan reads. */
export function nttLimits(ctx: Pick<GpuContext, 'workgroup' | 'limits'>): NttLimits {
  const { workgroup: wg, limits: l } = ctx;
  return {
    threads: wg.threads,
    tileBytes: wg.tileBytes,
    maxWorkgroupsPerDim: l.maxComputeWorkgroupsPerDimension,
    maxWords: Math.floor(Math.min(l.maxStorageBufferBindingSize, l.maxBufferSize, 2 ** 32 - 4) / 4),
  };
}

/** Columns per block for a job of `width` columns and `outRows` output rows within `maxWords` values; at least 1. */
export function columnsPerBlock(width: number, outRows: number, maxWords: number): number {
  return Math.max(1, Math.min(width, Math.floor(maxWords / outRows)));
}

/** The four-step shape of a transform of length N (a power of two): n1 = 2^ceil(log N / 2) rows, n2 = N / n1 columns. */
export function fourStepShape(N: number): { n1: number; n2: number } {
  const n2 = 2 ** Math.floor(Math.round(Math.log2(N)) / 2);
  return { n1: N / n2, n2 };
}

/** How a job of `outRows` × `width` output values runs within bindings of `maxWords` values. */
export function nttSplit(outRows: number, width: number, maxWords: number): NttSplit {
  if (outRows * width <= maxWords) return { mode: 'whole' };
  if (outRows <= maxWords) return { mode: 'columns', columns: columnsPerBlock(width, outRows, maxWords) };
  return { mode: 'four-step', ...fourStepShape(outRows) };
}

/** The scale an idft or lde applies in its last inverse store: 1/h and ω_h, times the lde's shift. */
function scaleOf(job: NttJob): NttScale | null {
  if (job.op === 'idft') return inverseScale(job.height, 1, jobField(job));
  if (job.op === 'lde') return inverseScale(job.height, job.shift ?? 1, jobField(job));
  return null;
}

function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/**
 * The plan of `job` under `tuning` (a whole record: ./tuning.ts withTuning) on a device with
 * `limits`. Throws TOO_LARGE past the field's two-adic subgroup (BabyBear 2^27 rows, KoalaBear
 * 2^24); a job past one binding still gets its passes planned (warm-up and tests count its
 * pipelines), with `split` saying how it runs. A job over another field than BabyBear names it in
 * every pipeline request (its constants) and table (its roots); BabyBear's name none, as before.
 */
export function planNtt(job: NttJob, tuning: NttTuning, limits: NttLimits): NttPlan {
  const w = job.width;
  const outRows = outputHeight(job);
  const F = jobField(job);
  if (outRows > 2 ** F.twoAdicity) {
    throw new ProverError('TOO_LARGE', `NTT height ${outRows} exceeds 2^${F.twoAdicity}, the largest power-of-two subgroup of ${F.label}`);
  }
  const field = F.name === 'babybear' ? undefined : F.name;
  const inField = (t: NttTable): NttTable => (field ? { ...t, field } : t);
  const twoLevel = twoLevelLog(job, tuning, limits);
  const planned = jobPasses(job, tuning, twoLevel);
  const staged = stagedPasses(w, w < tuning.stageBelowWidth, limits, planned);
  const sources = twiddleSources(tuning, planned, staged);
  const scale = scaleOf(job);
  const { passes, fold } = scaleFold(job, tuning, planned, sources, scale);
  const fused = fusedLdePass(job, tuning, limits, passes);
  const lanes = tuning.twoLevelGroups || twoLevelGroupsFor(w, tuning.twoLevelLanes);
  const groups = passes.map((p) => (p.sub > 0 ? twoLevelGroups(p.sub, w, p.n / p.radix, limits, lanes) : 0));
  const suffix = (i: number) => (sources[i] === 'running' || (passes[i].sub > 0 && sources[i] === 'staged') ? '' : `_${sources[i]}`);
  const requests: PipelineRequest[] = [];
  const requestAt = new Map<string, number>();
  const powers: NttTable = inField({ kind: 'powers' });
  // A folded scale leaves no pass reading the scale table (folding needs two-level passes, fusing register ones).
  const scaleTable: NttTable = scale && !fold ? inField({ kind: 'scale', c: scale[0], g: scale[1], n: scale[2] }) : powers;
  const steps: NttStep[] = [];
  let srcRows = job.height;
  passes.forEach((p, i) => {
    if (fused >= 0 && i === fused + 1) return; // runs inside the fused pass
    const isFused = i === fused;
    const two = p.sub > 0;
    const entryPoint = isFused ? `ntt_lde_fused_r${p.radix}` : two ? `ntt_pass2_r${p.sub}${suffix(i)}` : `ntt_pass_r${p.radix}${suffix(i)}`;
    const request = passPipeline(p, entryPoint, w, groups[i], tuning, F.name);
    let pipeline = requestAt.get(pipelineKey(request));
    if (pipeline === undefined) {
      pipeline = requests.push(request) - 1;
      requestAt.set(pipelineKey(request), pipeline);
    }
    // A split pass reads no lo/hi powers, so `tw` is free for its split table; a table pass is
    // never the last, so `sc` is free for its table (tableQualifies). A folded scale (scaleFold)
    // puts its tables in these two bindings of the idft's last pass and the dft's first.
    const tw: NttTable =
      sources[i] !== 'split'
        ? powers
        : i === fold?.index
          ? inField({ kind: 'folded-split', ns: p.ns, radix: p.radix, scale: fold.split })
          : inField({ kind: 'split', ns: p.ns, radix: p.radix });
    const sc: NttTable =
      sources[i] !== 'table'
        ? scaleTable
        : fold && i === fold.index + 1
          ? inField({ kind: 'folded-rows', ns: p.ns, radix: p.radix, scale: fold.split, rowFactor: fold.rowFactor })
          : inField({ kind: tuning.shoup ? 'shoup' : 'montgomery', ns: p.ns, radix: p.radix });
    // A fused pass writes the dft's first-pass output (its rows) through that pass's staged tile;
    // a staged workgroup is one tile (NTT_STAGE_WORDS / R threads); a two-level workgroup is G
    // groups of R threads per column, and its kernel counts workgroups.
    const workgroupSize = isFused
      ? stageWorkgroup(32)
      : two
        ? groups[i] * w * p.sub
        : staged[i]
          ? stageWorkgroup(p.radix)
          : tuning.workgroup;
    const threads = (p.n / p.radix) * w * (two ? p.sub : 1);
    const grid = two
      ? grid2d(p.n / p.radix / groups[i], 1, limits.maxWorkgroupsPerDim)
      : grid2d(threads, workgroupSize, limits.maxWorkgroupsPerDim);
    const dstRows = isFused ? passes[i + 1].n : p.n;
    const label = isFused
      ? `r${p.radix}+r32 lde fused`
      : `r${two ? `${p.sub}x${p.sub}` : p.radix} ns=${p.ns}${suffix(i).replace('_', ' ')}`;
    if (i < tuning.passLimit) {
      steps.push({
        index: i,
        pass: p,
        fused: isFused,
        entryPoint,
        pipeline,
        twiddles: sources[i],
        groups: groups[i],
        tw,
        sc,
        inner: two ? inField({ kind: 'inner', radix: p.sub }) : null,
        uniform: Array.from(passUniform(p)),
        workgroupSize,
        threads,
        grid,
        srcRows,
        dstRows,
        dst: ((fused >= 0 && i > fused ? i - 1 : i) % 2) as 0 | 1,
        label,
      });
    }
    srcRows = dstRows;
  });
  const tables = new Map<string, NttTable>();
  for (const s of steps) for (const t of [s.tw, s.sc, s.inner]) if (t) tables.set(tableLabel(t), t);
  return deepFreeze({
    job: { ...job },
    tuning,
    limits: { ...limits },
    outRows,
    split: nttSplit(outRows, w, limits.maxWords),
    twoLevel,
    passes,
    staged,
    scale,
    fold,
    fused,
    steps,
    requests,
    tables: [...tables.values()],
  });
}
