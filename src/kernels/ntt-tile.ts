/**
 * Host side of the workgroup-memory NTT variant (wgsl/kernels/ntt_tile.wgsl, plan in
 * src/kernels/ntt-tile-plan.ts). It records the same jobs as the register path of
 * src/kernels/ntt.ts (dft, idft, coset LDE, zero-padded encode; 1/h and shift powers fused into
 * the idft's last store, bit reversal into the final store) but with radix-T passes whose T-point
 * DFTs run in workgroup memory: 2^24 rows in 2 passes at 4096-word tiles instead of 5.
 *
 * Which path runs: `spec.variant`, else the prover's default (`createProver({ nttVariant })`,
 * kept per device here), else 'stockham' (the register path, measured on the H100 in
 * bench/RESULTS.md; the tiled one is not measured yet, so it is not the default).
 * @module
 */
import { ProverError } from '../errors.js';
import type { GpuContext } from '../gpu/context.js';
import { cachedUniform } from '../gpu/context.js';
import { grid2d } from '../gpu/dispatch.js';
import type { BindingKind } from '../gpu/pipeline-cache.js';
import {
  NTT_FLAG_BITREV, NTT_FLAG_INVERSE, NTT_FLAG_LAST, NTT_FLAG_SCALE, NTT_TW_HI, NTT_TW_LO, NTT_TW_LO_BITS,
} from './ntt-plan.js';
import {
  NTT_TILE_ROOT_LOG, NTT_TILE_WG, NTT_TILE_WG_CPU, NTT_TILE_WORDS, planTileTransform, tileCount, tilePassUniform, tileRootTable,
  type NttTilePass, type NttTileShape,
} from './ntt-tile-plan.js';

export type NttVariant = 'stockham' | 'tiled';
export const NTT_VARIANTS: readonly NttVariant[] = ['stockham', 'tiled'];

/** What the tiled recorder needs from a job (a subset of NttSpec in ./ntt.ts). */
export interface NttTileJob {
  op: 'dft' | 'idft' | 'lde' | 'encode';
  height: number;
  width: number;
  addedBits?: number;
  bitReversed?: boolean;
  tileWords?: number;
  tileRun?: number;
  /** Threads per tile workgroup (default NTT_TILE_WG). */
  tileWg?: number;
}

const DEFAULTS = new WeakMap<GpuContext, NttVariant>();

/** Set the device's default NTT path (createProver's `nttVariant`). */
export function setNttVariant(ctx: GpuContext, v: NttVariant): void {
  if (!NTT_VARIANTS.includes(v)) throw new ProverError('INVALID_ARGUMENT', `nttVariant must be one of ${NTT_VARIANTS.join(', ')}, got ${String(v)}`);
  DEFAULTS.set(ctx, v);
}

/**
 * The job's variant, else the prover's, else 'stockham'. H100, clocks warm, alternating A/B in one
 * run (bench/RESULTS.md): since the Stockham path stages its first pass through workgroup memory,
 * it beats the tiled passes for every op and width measured (2^24 x1 dft 0.59 vs 1.25 ms, encode
 * 0.85 vs 1.97, lde 1.31 vs 2.95; x8 2.9-3.1x; 2^22 likewise). Before that, tiled won dft at
 * 2^24 and was the default there. On CPU adapters each tile barrier is a coroutine switch too.
 * The tiled path stays selectable (nttVariant: 'tiled') and checked in CI.
 */
export function nttVariant(ctx: GpuContext, v: NttVariant | undefined): NttVariant {
  return v ?? DEFAULTS.get(ctx) ?? 'stockham';
}

/** Tile size in words for this device: the job's, else 4096 (16 KiB), never past the adapter's limit. */
export function tileWordsFor(ctx: GpuContext, job: NttTileJob): number {
  const max = Math.floor(ctx.limits.maxComputeWorkgroupStorageSize / 4);
  const words = job.tileWords ?? Math.min(NTT_TILE_WORDS, max);
  if (!Number.isInteger(words) || words < 2 || (words & (words - 1)) !== 0 || words > max) {
    throw new ProverError('INVALID_ARGUMENT', `tileWords ${words} must be a power of two ≤ ${max} (maxComputeWorkgroupStorageSize / 4)`);
  }
  return words;
}

/** The job's tile passes: for lde an inverse transform (1/h and shift^j fused) then the padded forward one. */
export function tileJobPasses(job: NttTileJob, shape: NttTileShape): NttTilePass[] {
  const h = job.height;
  const logH = Math.round(Math.log2(h));
  const bits = job.addedBits ?? 0;
  const br = job.bitReversed ? NTT_FLAG_BITREV : 0;
  const w = job.width;
  switch (job.op) {
    case 'dft': return planTileTransform(logH, h, br, w, shape);
    case 'idft': return planTileTransform(logH, h, NTT_FLAG_INVERSE | NTT_FLAG_SCALE | br, w, shape);
    case 'encode': return planTileTransform(logH + bits, h, br, w, shape);
    case 'lde': return [
      ...planTileTransform(logH, h, NTT_FLAG_INVERSE | NTT_FLAG_SCALE, w, shape),
      ...planTileTransform(logH + bits, h, br, w, shape),
    ];
  }
}

const BINDINGS: readonly BindingKind[] = ['read-only-storage', 'storage', 'read-only-storage', 'read-only-storage', 'uniform', 'read-only-storage'];

interface TileResources { roots: GPUBuffer; uniforms: Map<string, GPUBuffer> }
const RESOURCES = new WeakMap<GpuContext, TileResources>();

function resources(ctx: GpuContext): TileResources {
  let r = RESOURCES.get(ctx);
  if (!r) {
    r = { roots: ctx.constantBuffer(tileRootTable(), GPUBufferUsage.STORAGE, 'ntt tile roots'), uniforms: new Map() };
    RESOURCES.set(ctx, r);
  }
  return r;
}

function uniformFor(ctx: GpuContext, res: TileResources, p: NttTilePass): GPUBuffer {
  return cachedUniform(ctx, res.uniforms, tilePassUniform(p), 'ntt tile');
}

/**
 * Record the job's tile passes into `pass`, ping-ponging between `bufs` (each ≥ output bytes);
 * returns the buffer holding the result. `tw` is ./ntt.ts's twiddle table, `scale` its scale table
 * for the job (or any buffer when the job scales nothing).
 */
export async function recordTilePasses(ctx: GpuContext, pass: GPUComputePassEncoder, job: NttTileJob,
  io: { input: GPUBuffer; bufs: GPUBuffer[]; tw: GPUBuffer; scale: GPUBuffer }): Promise<GPUBuffer> {
  const tileWords = tileWordsFor(ctx, job);
  const passes = tileJobPasses(job, { tileWords, run: job.tileRun });
  const w = job.width;
  const res = resources(ctx);
  const pipeline = await ctx.pipelines.get('ntt_tile', 'ntt_tile_pass', {
    NTT_W: w, NTT_TILE_WG: job.tileWg ?? (ctx.features.cpu ? NTT_TILE_WG_CPU : NTT_TILE_WG), NTT_TILE_WORDS: tileWords, NTT_TILE_ROOT_LOG, NTT_TW_LO, NTT_TW_HI, NTT_LO_BITS: NTT_TW_LO_BITS,
    NTT_FLAG_LAST, NTT_FLAG_INVERSE, NTT_FLAG_SCALE, NTT_FLAG_BITREV,
  }, BINDINGS);
  let src = io.input;
  let srcBytes = job.height * w * 4;
  let out = io.bufs[0];
  passes.forEach((p, i) => {
    const dst = io.bufs[i % 2];
    const dstBytes = p.n * w * 4;
    const group = ctx.device.createBindGroup({
      layout: ctx.pipelines.layout(BINDINGS),
      entries: [
        { binding: 0, resource: { buffer: src, size: srcBytes } },
        { binding: 1, resource: { buffer: dst, size: dstBytes } },
        { binding: 2, resource: { buffer: io.tw } },
        { binding: 3, resource: { buffer: io.scale } },
        { binding: 4, resource: { buffer: uniformFor(ctx, res, p) } },
        { binding: 5, resource: { buffer: res.roots } },
      ],
    });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    const [x, y] = grid2d(tileCount(p), 1, ctx.limits.maxComputeWorkgroupsPerDimension);
    pass.dispatchWorkgroups(x, y);
    src = dst;
    srcBytes = dstBytes;
    out = dst;
  });
  return out;
}
