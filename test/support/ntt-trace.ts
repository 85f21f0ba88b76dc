/**
 * What the NTT records for a job, captured without a GPU: a stand-in GpuContext and command
 * encoder log every pipeline request, bind group (each binding's buffer label and size) and
 * dispatch. test/unit/ntt-recording.test.ts compares the log for a set of jobs against
 * test/unit/ntt-recording.fixture.json, captured from the recording before the NTT was planned
 * once (issue 22): the same pipelines, tables, uniforms and grids, so the same kernel time.
 * @module
 */
import type { GpuContext } from '../../src/gpu/context.js';
import type { PipelineRequest } from '../../src/gpu/pipeline-cache.js';

/** One device shape: workgroup limits and the limits the NTT reads. */
export interface TraceDevice {
  workgroup: { threads: number; tileBytes: number };
  limits: { maxStorageBufferBindingSize: number; maxBufferSize: number; maxComputeWorkgroupsPerDimension: number };
}

/** One recorded compute pass: its pipeline request, bindings (label:size) and grid. */
export interface TracePass {
  label: string;
  pipeline: PipelineRequest;
  bindings: string[];
  grid: number[];
}

export interface Trace {
  passes: TracePass[];
  computePasses: number;
}

/** A GpuContext and encoder that log what is recorded on them; `record` runs the job on them. */
export async function traceNtt(
  device: TraceDevice,
  record: (ctx: GpuContext, enc: GPUCommandEncoder, input: GPUBuffer) => Promise<unknown>,
): Promise<Trace> {
  const g = globalThis as Record<string, unknown>;
  g.GPUBufferUsage ??= {
    MAP_READ: 1,
    MAP_WRITE: 2,
    COPY_SRC: 4,
    COPY_DST: 8,
    INDEX: 16,
    VERTEX: 32,
    UNIFORM: 64,
    STORAGE: 128,
    INDIRECT: 256,
    QUERY_RESOLVE: 512,
  };
  let nextId = 0;
  const buffer = (label: string, size: number) => ({ label: `${label}#${nextId++}`, size }) as unknown as GPUBuffer;
  const name = (b: GPUBuffer) => (b as unknown as { label: string }).label.replace(/#\d+$/, '');
  const layouts = new Map<string, object>();
  const bindGroups = new WeakMap<object, string[]>();
  const ctx = {
    workgroup: device.workgroup,
    limits: device.limits,
    device: {
      limits: device.limits,
      createBindGroup(d: GPUBindGroupDescriptor) {
        const g = {};
        const entries = [...d.entries].sort((a, b) => a.binding - b.binding);
        bindGroups.set(
          g,
          entries.map((e) => {
            const r = e.resource as GPUBufferBinding;
            return `${e.binding}:${name(r.buffer)}${r.size === undefined ? '' : `:${r.size}`}`;
          }),
        );
        return g;
      },
    },
    pipelines: {
      all: async (rs: PipelineRequest[]) => rs.map((r) => ({ request: r })),
      layout: (kinds: readonly string[]) => {
        const k = kinds.join(',');
        if (!layouts.has(k)) layouts.set(k, { kinds: k });
        return layouts.get(k);
      },
    },
    pool: { acquire: (bytes: number, _u: number, label: string) => buffer(label, bytes), release() {} },
    constantBuffer: (words: Uint32Array, _u: number, label: string) => buffer(label, words.byteLength),
  } as unknown as GpuContext;
  const passes: TracePass[] = [];
  let computePasses = 0;
  const enc = {
    beginComputePass(d: GPUComputePassDescriptor) {
      computePasses++;
      let cur: Partial<TracePass> = {};
      return {
        setPipeline(p: { request: PipelineRequest }) {
          cur = { label: d.label ?? '', pipeline: p.request };
        },
        setBindGroup(_i: number, group: object) {
          cur.bindings = bindGroups.get(group);
        },
        dispatchWorkgroups(x: number, y = 1, z = 1) {
          passes.push({ ...cur, grid: [x, y, z] } as TracePass);
        },
        end() {},
      };
    },
  } as unknown as GPUCommandEncoder;
  await record(ctx, enc, buffer('input', 0));
  return JSON.parse(JSON.stringify({ passes, computePasses })) as Trace;
}

/** WebGPU's default limits and an H100's (1024 threads, 48 KiB of workgroup memory, 4 GiB bindings). */
export const TRACE_DEVICES: Record<string, TraceDevice> = {
  default: {
    workgroup: { threads: 256, tileBytes: 16384 },
    limits: { maxStorageBufferBindingSize: 2 ** 27, maxBufferSize: 2 ** 28, maxComputeWorkgroupsPerDimension: 65535 },
  },
  h100: {
    workgroup: { threads: 1024, tileBytes: 49152 },
    limits: { maxStorageBufferBindingSize: 2 ** 32 - 4, maxBufferSize: 2 ** 36, maxComputeWorkgroupsPerDimension: 65535 },
  },
};

/** The jobs traced: every op, register and two-level layouts, small and 2^24-2^25, widths 1-16, bit reversal, blow-ups 0-3. */
export const TRACE_JOBS = (() => {
  const jobs: Array<{
    op: 'dft' | 'idft' | 'lde' | 'encode';
    height: number;
    width: number;
    addedBits?: number;
    shift?: number;
    bitReversed?: boolean;
  }> = [];
  for (const log of [0, 1, 3, 5, 10, 12, 14, 17, 20, 24]) {
    for (const width of [1, 2, 8, 16]) {
      if (log >= 24 && width > 8) continue;
      jobs.push({ op: 'dft', height: 2 ** log, width });
      jobs.push({ op: 'idft', height: 2 ** log, width });
      for (const addedBits of log >= 24 ? [1] : [1, 3]) {
        jobs.push({ op: 'lde', height: 2 ** log, width, addedBits, shift: 31 });
        jobs.push({ op: 'encode', height: 2 ** log, width, addedBits });
      }
    }
  }
  jobs.push({ op: 'lde', height: 2 ** 12, width: 4, addedBits: 0, shift: 7 });
  jobs.push({ op: 'encode', height: 2 ** 13, width: 1, addedBits: 2, bitReversed: true });
  jobs.push({ op: 'lde', height: 2 ** 24, width: 1, addedBits: 1, shift: 31, bitReversed: true });
  jobs.push({ op: 'dft', height: 2 ** 16, width: 3, bitReversed: true });
  return jobs;
})();

/** Bench/A-B overrides traced on two jobs each (tuning changes the recording; these pin each knob's effect). */
export const TRACE_OVERRIDES: Array<Record<string, number | boolean>> = [
  { stagedFirstPass: false },
  { stagedFirstPass: true },
  { twiddleTables: false },
  { shoup: false },
  { splitTables: true },
  { fuseLde: false },
  { maxRadix: 16 },
  { workgroup: 64 },
  { twoLevel: 0 },
  { twoLevel: 10 },
  { twoLevel: 6 },
  { twoLevel: 8 },
  { foldPadding: false },
  { foldScale: false },
  { staticFlags: false },
  { innerHalves: false },
  { twoLevelGroups: 1 },
  { twoLevelGroups: 32 },
  { tableMax: 2 ** 10 },
  { passLimit: 2 },
];
