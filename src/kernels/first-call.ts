/**
 * A family's first call, compiled in one wave. Before this, a first call compiled in stages: the
 * self-check's small jobs (checks/known-answer.ts) requested their pipelines, waited, ran, and
 * only then did the caller's job request its own, which for the MSM took three waves (the bases
 * conversion, the self-check's plan, the job's other reduction variant; bench/RESULTS.md "cold").
 * The router (src/families.ts) calls `prefetch` on a family's first job: every pipeline that the
 * self-check and this call will need is requested at once, so the driver compiles them side by
 * side while the self-check's first steps and its CPU half run, and each stage then finds its
 * pipelines ready or in flight (PipelineCache shares the promise).
 * @module
 */
import type { GpuContext } from '../gpu/context.js';
import type { PipelineRequest } from '../gpu/pipeline-cache.js';
import type { NttJob, NttOp } from './ntt/job.js';
import { isFieldName, type FieldName } from '../params/fields.js';
import { POSEIDON2_WIDTHS, type Poseidon2Width } from '../params/poseidon2.js';

/** What a family's first call and its self-check will run, as far as compiling goes. */
export interface FirstCall {
  /** NTT jobs (the self-check's and the caller's) */
  ntt: NttJob[];
  /** MSM sizes (the self-check's and the caller's) */
  msmPoints: number[];
  /** Poseidon2 widths and fields (the self-check's and the caller's; none: both BabyBear widths) */
  poseidon2?: Poseidon2Shape[];
  /** Groth16 keys' sizes (the self-check's and the caller's zkey, read from their headers) */
  groth16?: Groth16Shape[];
}

/** What a zkey's pipelines depend on: its signals (the G1 MSMs' sizes) and its domain (the NTTs', the H MSM's). */
export interface Groth16Shape {
  nVars: number;
  domainSize: number;
}

/**
 * Every pipeline `call` needs in `family` (a method's family name from src/methods.ts). Async: each
 * family's host code is imported here only when that family's call asks, as its own facet does
 * (src/lazy.ts: a page that only commits with Merkle never loads the NTT's or the MSM's).
 */
export async function firstCallRequests(ctx: GpuContext, family: string, call: FirstCall): Promise<PipelineRequest[]> {
  const ntt = async () => {
    const [{ nttLimits, planNtt }, { NTT_TUNING }] = await Promise.all([import('./ntt/plan.js'), import('./ntt/tuning.js')]);
    return call.ntt.flatMap((job) => {
      try {
        return [...planNtt(job, NTT_TUNING, nttLimits(ctx)).requests];
      } catch {
        return []; // a job the device cannot run: the call reports it
      }
    });
  };
  const merkle = async () => (await import('./merkle.js')).merklePipelineRequests();
  // Every family that takes field arrays range-checks a large one on the GPU (canonical.ts).
  const canonical = async () => [(await import('./canonical.js')).CANONICAL_PIPELINE];
  switch (family) {
    case 'ntt':
      return (await Promise.all([ntt(), canonical()])).flat();
    case 'commit':
      return (await Promise.all([ntt(), merkle(), canonical()])).flat();
    case 'merkle':
      return (await Promise.all([merkle(), canonical()])).flat();
    case 'field':
      return canonical();
    case 'poseidon2': {
      const { poseidon2PipelineRequest } = await import('./poseidon2.js');
      const shapes = call.poseidon2?.length ? call.poseidon2 : BABYBEAR_POSEIDON2;
      return [...shapes.map((c) => poseidon2PipelineRequest(c.width, c.field)), ...(await canonical())];
    }
    case 'grind':
      return [(await import('./grind.js')).GRIND_PIPELINE];
    case 'groth16':
      return groth16Requests(ctx, call.groth16 ?? []);
    case 'msm': {
      const [{ MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE, msmPipelineRequests }, { msmRuns }] = await Promise.all([
        import('./msm/pipelines.js'),
        import('./msm/runs.js'),
      ]);
      // While the walker's pipelines compile, runs take the quick engine (msm/engines.ts), whose
      // pipelines are marked `first`: the driver takes them before the walker's. With no walker
      // requested yet (no warm-up) they go out now, before the walker's plans are made (the
      // search took 30-90 ms of the thread on a first call).
      if (!ctx.pipelines.requested('msm_walk')) await ctx.pipelines.request([MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE]);
      const plans = call.msmPoints.flatMap((n) => msmRuns([{ start: 0, n }], 0, n, {}, ctx.workgroup).runs.map((r) => r.plan));
      const walker = plans.flatMap((plan) => msmPipelineRequests(plan));
      const quick = ctx.pipelines.allReady(walker) ? [] : [MSM_QUICK_PIPELINE];
      return [MSM_BASES_PIPELINE, ...quick, ...walker];
    }
    default:
      return [];
  }
}

/**
 * A groth16 key's first proof runs the QAP stage, a G2 MSM and G1 MSMs of each size: found stage by
 * stage, their compiles came one after another (a first 2^16 proof: 8.1 s on the H200's host), and
 * requested together, the fast kernels' compiles still took ~6 s. So a first proof runs on quick
 * pipelines, requested here first: the G1 and G2 quick MSMs (msm/engines.ts, g2msm/quick.ts) and
 * the QAP kernels with their multiplies' rows in a loop (PipelineCache.fastOrQuick); the fast G2
 * and QAP pipelines follow them once the call has settled (the G1 walker's: engines.ts).
 */
async function groth16Requests(ctx: GpuContext, shapes: readonly Groth16Shape[]): Promise<PipelineRequest[]> {
  const [{ MSM_BASES_PIPELINE, MSM_QUICK_PIPELINE }, g2, qap, { frNttLimits }] = await Promise.all([
    import('./msm/pipelines.js'),
    import('./g2msm/pipelines.js'),
    import('./qap/pipelines.js'),
    import('./qap/ntt.js'),
  ]);
  const fr = (quick: boolean) =>
    qap.qapPipelineRequests(
      frNttLimits(ctx),
      shapes.map((s) => s.domainSize),
      quick,
    );
  // In the order a first proof needs them: the key's conversions and its offsets' MSMs (quick
  // engine), then the proof's kernels, the G2 MSM's first (its run is the longest: gpu-key.ts
  // queues it ahead of h when both wait); fr(true) starts with the root table's, the key's too.
  const quick = [MSM_BASES_PIPELINE, g2.G2_CHECK_PIPELINE, qap.FR_TWIDDLES_PIPELINE, MSM_QUICK_PIPELINE, g2.G2_QUICK_PIPELINE, ...fr(true)];
  return [...quick.map((r) => ({ ...r, first: true })), ...g2.G2_RUN_PIPELINES, ...fr(false)];
}

const NTT_OPS: readonly string[] = ['dft', 'idft', 'lde', 'encode'];

/**
 * The NttJob a dft / idft / lde / encode / commit call's arguments describe, or undefined: a guess
 * for compiling ahead, not a validation (the call validates its own arguments and reports).
 */
export function nttCallSpec(method: string, args: readonly unknown[]): NttJob | undefined {
  const op = (method === 'commit' ? 'encode' : method) as NttOp;
  if (!NTT_OPS.includes(op)) return undefined;
  const [values, o] = args as [{ length?: number; width?: number; height?: number } | undefined, Record<string, unknown> | undefined];
  const width = typeof o?.width === 'number' ? o.width : values?.width;
  const height = ArrayBuffer.isView(values) ? (values.length ?? 0) / (width ?? 0) : values?.height;
  if (!Number.isInteger(width) || width! < 1 || !Number.isInteger(height) || height! < 2 || (height! & (height! - 1)) !== 0)
    return undefined;
  // A KoalaBear call compiles KoalaBear's pipelines (their module text differs), not BabyBear's.
  const bitReversed = o?.bitReversedOutput === true;
  const field = isFieldName(o?.field) && o.field !== 'babybear' ? { field: o.field } : {};
  if (op === 'dft' || op === 'idft') return { op, height: height!, width: width!, bitReversed, ...field };
  if (!Number.isInteger(o?.addedBits)) return undefined;
  const addedBits = o!.addedBits as number;
  if (op === 'encode') return { op, height: height!, width: width!, addedBits, bitReversed, ...field };
  const shift = typeof o?.shift === 'number' ? o.shift : undefined;
  return { op, height: height!, width: width!, addedBits, shift, bitReversed, ...field };
}

/** A Poseidon2 permutation's shape: its width and field. */
export interface Poseidon2Shape {
  width: Poseidon2Width;
  field: FieldName;
}

/** Both BabyBear widths: what a poseidon2 call whose shape is not understood compiles, and its self-check runs. */
export const BABYBEAR_POSEIDON2: readonly Poseidon2Shape[] = POSEIDON2_WIDTHS.map((width) => ({ width, field: 'babybear' }));

/** The width and field a poseidon2 call's options name, or undefined (a guess, as nttCallSpec's). */
export function poseidon2CallSpec(method: string, args: readonly unknown[]): Poseidon2Shape | undefined {
  const o = args[1] as { width?: unknown; field?: unknown } | undefined;
  if (method !== 'poseidon2' || (o?.width !== 16 && o?.width !== 24)) return undefined;
  if (o.field !== undefined && !isFieldName(o.field)) return undefined;
  return { width: o.width, field: o.field ?? 'babybear' };
}

/** The number of points an msm / msmBases call's first argument holds, or undefined. */
export function msmCallPoints(args: readonly unknown[]): number | undefined {
  const p = args[0];
  if (Array.isArray(p)) return p.length;
  if (p instanceof Uint8Array && p.length % 64 === 0) return p.length / 64;
  return undefined;
}

/**
 * The most bytes one array of a call moves to the GPU (its input, an MSM's points and scalars as
 * uploaded) and from it (an NTT's output unless kept on the GPU, a poseidon2 or batchField result
 * the size of its input), as far as its arguments tell: which of the staging ring's directions its
 * transfers will take (a guess, as nttCallSpec's).
 */
export function callTransfers(method: string, args: readonly unknown[], ntt: NttJob | undefined): { up: number; down: number } {
  const views = args.filter((a): a is ArrayBufferView => ArrayBuffer.isView(a)).map((a) => a.byteLength);
  const list = (i: number) => (Array.isArray(args[i]) ? (args[i] as unknown[]).length : 0);
  const up = Math.max(0, ...views, 64 * list(0), 32 * list(1));
  const onGpu = args.some((a) => typeof a === 'object' && a !== null && (a as { gpu?: unknown }).gpu === true);
  const blowUp = ntt && (ntt.op === 'lde' || ntt.op === 'encode') ? 2 ** (ntt.addedBits ?? 0) : 1;
  const nttOut = ntt && !onGpu && method !== 'commit' ? 4 * ntt.width * ntt.height * blowUp : 0;
  const sameSize = method === 'poseidon2' || method === 'batchField' ? (views[0] ?? 0) : 0;
  return { up, down: Math.max(nttOut, sameSize) };
}
