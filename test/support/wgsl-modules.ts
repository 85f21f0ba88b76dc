/**
 * Every WGSL module the package can hand to `createShaderModule`, and every pipeline (entry point
 * and `override` values) it can build from them, found without a GPU: the host's own request
 * makers (plan records, warm-up sets, first-call prefetches, exported PipelineRequest constants)
 * over a grid of job shapes and device limits, fed through the real PipelineCache on a device that
 * only records what it is given. So each text is exactly the string that would reach
 * createShaderModule (the const preamble, the field's constants, the entry point's tree-shaken
 * closure), and each pipeline exactly the stage `createComputePipelineAsync` would get.
 *
 * New kernels are found, not listed: every shipped kernel of src/wgsl/kernels.gen.ts is expected
 * to appear (`uncovered` names those that do not), and every module under HOST_DIRS is imported and
 * its exported PipelineRequest values, arrays of them and zero-argument `*PipelineRequest(s)`
 * functions are requested, so a family whose host code exports its requests is checked as soon as
 * it lands. Parameterised makers (NTT and MSM plans, Poseidon2 widths, fields) get a grid here.
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PipelineCache, type PipelineRequest } from '../../src/gpu/pipeline-cache.js';
import { generatedKernel, loadAllFamilies } from '../../src/gpu/wgsl.js';
import { KERNEL_FAMILY } from '../../src/wgsl/kernels.gen.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { FIELD_NAMES, MONTY31_FIELDS, type FieldName } from '../../src/params/fields.js';
import { POSEIDON2_WIDTHS } from '../../src/params/poseidon2.js';
import { WARM_UP_FAMILIES, type WarmUpFamily } from '../../src/warm-up-families.js';
import { familyRequests } from '../../src/kernels/warm-up.js';
import { firstCallRequests, type FirstCall } from '../../src/kernels/first-call.js';
import { nttLimits, planNtt } from '../../src/kernels/ntt/plan.js';
import { NTT_TUNING, twoLevelAt, withTuning, type NttTuning } from '../../src/kernels/ntt/tuning.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';
import { NTT_TW_LO_BITS } from '../../src/kernels/ntt/passes.js';
import { TWIST_WG } from '../../src/kernels/ntt/twist.js';
import { FIELD_OPS, FIELD_WG } from '../../src/kernels/field.js';
import { CANONICAL_PIPELINE } from '../../src/kernels/canonical.js';
import { poseidon2PipelineRequest } from '../../src/kernels/poseidon2.js';
import { msmPipelineRequests } from '../../src/kernels/msm/pipelines.js';
import { msmPlan, type MsmTuning } from '../../src/kernels/msm/plan.js';
import { msmRuns } from '../../src/kernels/msm/runs.js';
import { frNttLimits } from '../../src/kernels/qap/ntt.js';
import { qapStageRequests } from '../../src/kernels/qap/pipelines.js';
import { planFrNtt } from '../../src/kernels/qap/ntt-plan.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Host code whose exported requests are picked up (families added later included). */
const HOST_DIRS = ['src/kernels', 'src/whir', 'src/groth16'];

/**
 * Devices by workgroup limits: WebGPU's defaults (phones), a 512-thread one, Apple/most desktops
 * (1024 threads, 32 KiB) and an H100 (48 KiB), with the default and large binding limits: the NTT's
 * staged and two-level passes and the MSM walker's workgroup size follow these.
 */
export const DEVICES: Record<string, Pick<GpuContext, 'workgroup' | 'limits'>> = {
  default: {
    workgroup: { threads: 256, tileBytes: 16384 },
    limits: { maxStorageBufferBindingSize: 2 ** 27, maxBufferSize: 2 ** 28, maxComputeWorkgroupsPerDimension: 65535 },
  },
  mid: {
    workgroup: { threads: 512, tileBytes: 32768 },
    limits: { maxStorageBufferBindingSize: 2 ** 30, maxBufferSize: 2 ** 30, maxComputeWorkgroupsPerDimension: 65535 },
  },
  apple: {
    workgroup: { threads: 1024, tileBytes: 32768 },
    limits: { maxStorageBufferBindingSize: 2 ** 32 - 4, maxBufferSize: 2 ** 34, maxComputeWorkgroupsPerDimension: 65535 },
  },
  h100: {
    workgroup: { threads: 1024, tileBytes: 49152 },
    limits: { maxStorageBufferBindingSize: 2 ** 32 - 4, maxBufferSize: 2 ** 36, maxComputeWorkgroupsPerDimension: 65535 },
  },
} as unknown as Record<string, Pick<GpuContext, 'workgroup' | 'limits'>>;

/** One pipeline as the device would get it. */
export interface PipelineCase {
  /** the module's text, as createShaderModule gets it */
  code: string;
  entryPoint: string;
  overrides: Readonly<Record<string, number>>;
  /** the cache's label: kernel#entry{plan constants}[@field] */
  label: string;
  kernel: string;
}

export interface Enumeration {
  /** distinct (module text, entry point, overrides) */
  pipelines: PipelineCase[];
  /** distinct module texts */
  modules: number;
  /** shipped kernels no request reached */
  uncovered: string[];
  /** entry points of covered kernels no request reached (dead or test-only code: reported, not checked) */
  unusedEntries: string[];
  /** requests the host made that kernelSource refused (a plan constant missing or extra) */
  refused: { label: string; error: string }[];
  /** host modules that could not be imported for discovery */
  importErrors: string[];
}

/** A GPUDevice that records modules and compute pipelines and compiles nothing. */
class RecordingDevice {
  readonly pipelines: { code: string; entryPoint: string; constants: Record<string, number>; label: string }[] = [];
  createShaderModule(d: { code: string; label?: string }) {
    return { code: d.code, label: d.label ?? '' };
  }
  createComputePipelineAsync(d: {
    compute: { module: { code: string }; entryPoint: string; constants?: Record<string, number> };
    label?: string;
  }) {
    this.pipelines.push({
      code: d.compute.module.code,
      entryPoint: d.compute.entryPoint,
      constants: d.compute.constants ?? {},
      label: d.label ?? '',
    });
    return Promise.resolve({});
  }
  createPipelineLayout() {
    return {};
  }
  createBindGroupLayout() {
    return {};
  }
}

const isRequest = (x: unknown): x is PipelineRequest =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as PipelineRequest).kernel === 'string' &&
  typeof (x as PipelineRequest).entryPoint === 'string';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Exported requests of every host module: constants, arrays of them, zero-argument `*PipelineRequest(s)` makers. */
async function discovered(importErrors: string[]): Promise<PipelineRequest[]> {
  const out: PipelineRequest[] = [];
  const dirs = HOST_DIRS.map((d) => join(ROOT, d)).filter((d) => existsSync(d));
  for (const file of dirs.flatMap(tsFiles).sort()) {
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (e) {
      importErrors.push(`${relative(ROOT, file)}: ${(e as Error).message}`);
      continue;
    }
    for (const [name, v] of Object.entries(mod)) {
      if (isRequest(v)) out.push(v);
      else if (Array.isArray(v) && v.length > 0 && v.every(isRequest)) out.push(...v);
      else if (typeof v === 'function' && v.length === 0 && /PipelineRequests?$/.test(name)) {
        try {
          const r: unknown = await (v as () => unknown)();
          if (isRequest(r)) out.push(r);
          else if (Array.isArray(r)) out.push(...r.filter(isRequest));
        } catch (e) {
          importErrors.push(`${relative(ROOT, file)} ${name}(): ${(e as Error).message}`);
        }
      }
    }
  }
  return out;
}

const NTT_OPS = ['dft', 'idft', 'lde', 'encode'] as const;
/** Column counts: each is a module constant (NTT_W), so every width is its own module; these cover 1, small odd/even, powers of two and wide. */
const NTT_WIDTHS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 32, 64, 100];

/**
 * NTT tunings other than the default: the benches' A/Bs and the GPU checks pass these (record.ts
 * `tuning`); the published API plans with NTT_TUNING only. Each switch flipped alone, plus the
 * two-level radices at any size: they reach the entry points the defaults never take (radix-1 and
 * split-table passes, Montgomery twiddles, uniform flags, two-level radices 4..32).
 */
const NTT_TUNINGS: readonly NttTuning[] = [
  NTT_TUNING,
  ...(
    [
      { shoup: false },
      { twiddleTables: false },
      { splitTables: true, tableMax: 2 ** 6 },
      { firstEntry: false },
      { fuseLde: false },
      { foldPadding: false },
      { foldScale: false },
      { staticFlags: false },
      { firstPassLoads: 'static' },
      { innerHalves: false },
      { stageBelowWidth: 0 },
      { stageBelowWidth: Infinity },
      { workgroup: 64 },
      ...[1, 2, 4, 8, 16].map((maxRadix) => ({ maxRadix })),
      ...[4, 6, 8, 10].map(twoLevelAt),
      { ...twoLevelAt(8), shoup: false, innerHalves: false },
    ] as Partial<NttTuning>[]
  ).map(withTuning),
];

/**
 * Every NTT plan's requests over ops, sizes 2^0 .. the field's two-adicity, widths, blow-ups, bit
 * order, fields and devices with the default tuning; the other tunings (BabyBear: a field changes
 * only the preamble's constants) on the smallest and largest device, at fewer widths and sizes.
 */
function nttRequests(): PipelineRequest[] {
  const out: PipelineRequest[] = [];
  for (const [name, device] of Object.entries(DEVICES)) {
    const limits = nttLimits(device);
    for (const tuning of NTT_TUNINGS) {
      const dflt = tuning === NTT_TUNING;
      if (!dflt && name !== 'default' && name !== 'h100') continue;
      const widths = dflt ? NTT_WIDTHS : [1, 3, 8];
      for (const field of dflt ? FIELD_NAMES : (['babybear'] as const)) {
        const top = dflt ? MONTY31_FIELDS[field].twoAdicity : 16;
        for (const width of widths) {
          for (const op of NTT_OPS) {
            const blowUps = op === 'lde' || op === 'encode' ? [1, 2, 3] : [0];
            for (const addedBits of blowUps) {
              for (let log = 0; log + addedBits <= top; log++) {
                for (const bitReversed of [false, true]) {
                  const job: NttJob = { op, height: 2 ** log, width, addedBits, bitReversed, ...(field === 'babybear' ? {} : { field }) };
                  try {
                    out.push(...planNtt(job, tuning, limits).requests);
                  } catch {
                    // a job past the device's limits, or a tuning this shape cannot take: nothing compiles
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return out;
}

/**
 * MSM run plans: default tuning at 1 .. 2^22 points on each device (n = 2^k and a few others; as
 * the job plans them, msmRuns, and as one run, msmPlan), and the public tuning's switches one at a
 * time and crossed (msmProfiled's `tuning`: slots x inversion x multiply x riders; walker and fix-up
 * workgroups alone) at 2^16 and 2^20 (one batch and several; 2^10 adds none). The walker's constants are S,
 * its two workgroup sizes, the multiply and the riders, never n or c: the full product of the
 * tuning's ranges (1000 walker modules) is not run, each switch is, around the default plans.
 */
function msmRequests(): PipelineRequest[] {
  const out: PipelineRequest[] = [];
  const sizes = [1, 2, 3, 100, ...Array.from({ length: 22 }, (_, i) => 2 ** (i + 1)), 3 * 2 ** 15, 2 ** 20 + 1];
  const tunings: MsmTuning[] = [
    { mul13: false },
    { wgInv: false },
    { riders: false },
    { wgInv: false, mul13: false },
    // slots x inversion x multiply x riders, crossed (the walker's own switches); workgroups alone
    ...[1, 2, 4, 8, 16].flatMap((S) =>
      [true, false].flatMap((wgInv) => [true, false].flatMap((mul13) => [true, false].map((riders) => ({ S, wgInv, mul13, riders })))),
    ),
    ...[64, 128, 256, 512, 1024].flatMap((wg) => [{ walkWg: wg }, { fixWg: wg }, { walkWg: wg, wgInv: false }]),
  ];
  const plans = (f: () => void) => {
    try {
      f();
    } catch {
      // a tuning this device refuses (walker tree too large): the call reports it
    }
  };
  for (const device of Object.values(DEVICES)) {
    const wg = device.workgroup;
    for (const n of sizes) {
      plans(() => {
        out.push(...msmPipelineRequests(msmPlan(n, {}, wg)));
        for (const run of msmRuns([{ start: 0, n }], 0, n, {}, wg).runs) out.push(...msmPipelineRequests(run.plan));
      });
    }
    for (const t of tunings) {
      if ((t.walkWg ?? 0) > wg.threads || (t.fixWg ?? 0) > wg.threads) continue;
      for (const n of [2 ** 16, 2 ** 20]) plans(() => out.push(...msmPipelineRequests(msmPlan(n, t, wg))));
    }
  }
  return out;
}

/** The field-generic kernels the host builds per field: the range check, element-wise ops, the NTT's twist, Poseidon2. */
function fieldRequests(): PipelineRequest[] {
  return FIELD_NAMES.flatMap((field: FieldName) => [
    { ...CANONICAL_PIPELINE, field },
    ...Object.values(FIELD_OPS).map((op): PipelineRequest => ({ kernel: 'field_check', entryPoint: op.entry, plan: { FIELD_WG }, field })),
    // kernels/ntt/twist.ts recordTwist's request (it asks the cache directly, with these constants)
    { kernel: 'ntt_twist', entryPoint: 'ntt_twist', plan: { TWIST_WG, TWIST_LO_BITS: NTT_TW_LO_BITS }, field },
    ...POSEIDON2_WIDTHS.map((w) => poseidon2PipelineRequest(w, field)),
  ]);
}

/**
 * A stand-in for ctx.pipelines that keeps every request it is asked for (get, all, request) and
 * compiles nothing: host code that asks the cache itself runs unchanged against it.
 */
function capturing(out: PipelineRequest[]): GpuContext['pipelines'] {
  const keep = (rs: readonly PipelineRequest[]) => {
    out.push(...rs);
    return rs.map(() => ({}) as GPUComputePipeline);
  };
  const pipelines = {
    get: async (
      kernel: string,
      entryPoint: string,
      plan = {},
      bindings?: unknown,
      overrides?: Record<string, number>,
      _ahead = false,
      field?: FieldName,
    ) => keep([{ kernel, entryPoint, plan, overrides, field } as PipelineRequest])[0],
    all: async (rs: readonly PipelineRequest[]) => keep(rs),
    request: async (rs: readonly PipelineRequest[]) => void keep(rs),
    allReady: () => false,
    requested: () => false,
    layout: () => ({}),
    holdBackground: () => {},
  };
  return pipelines as unknown as GpuContext['pipelines'];
}

/**
 * What the host asks for on each device: each warm-up family's set, each family's first call (the
 * self-check's jobs and a caller's), and the families whose host code asks the cache itself with
 * constants written in the call (the Fr NTT's pass pipeline per plan, its twiddle and QAP kernels:
 * src/kernels/qap), replayed against a capturing cache where a function makes the call.
 */
async function hostRequests(): Promise<PipelineRequest[]> {
  const out: PipelineRequest[] = [];
  const families: WarmUpFamily[] = [...WARM_UP_FAMILIES, 'commit'];
  const calls: FirstCall[] = [
    { ntt: [{ op: 'dft', height: 2 ** 10, width: 8 }], msmPoints: [1, 2 ** 10] },
    { ntt: [{ op: 'lde', height: 2 ** 17, width: 8, addedBits: 1, shift: 31, bitReversed: true }], msmPoints: [2 ** 16, 2 ** 20] },
    {
      ntt: [{ op: 'encode', height: 2 ** 12, width: 3, addedBits: 2, field: 'koalabear' }],
      msmPoints: [2 ** 22],
      poseidon2: FIELD_NAMES.flatMap((field) => POSEIDON2_WIDTHS.map((width) => ({ width, field }))),
    },
  ];
  for (const device of Object.values(DEVICES)) {
    for (const f of families) out.push(...familyRequests(device, f));
    const ctx = { ...device, pipelines: capturing(out) } as unknown as GpuContext;
    for (const family of new Set(['ntt', 'commit', 'merkle', 'field', 'poseidon2', 'grind', 'msm', ...Object.values(KERNEL_FAMILY)])) {
      for (const call of calls) out.push(...(await firstCallRequests(ctx, family, call)));
    }
    for (let logN = 1; logN <= 27; logN++) {
      try {
        const plan = planFrNtt(logN, frNttLimits(ctx));
        out.push(...qapStageRequests(plan, false), ...qapStageRequests(plan, true));
      } catch {
        // past one binding on this device: the call refuses it
      }
    }
  }
  // fr_check is run by bench/support/fr-check.ts (the GPU check of the Fr arithmetic) with 64 threads.
  out.push({ kernel: 'fr_check', entryPoint: 'fr_check', plan: { FR_CHECK_WG: 64 } });
  return out;
}

const entryPoints = (code: string) => [...code.replace(/\/\/.*$/gm, '').matchAll(/@compute[\s\S]*?\bfn\s+(\w+)/g)].map((m) => m[1]);

/** Enumerate every module and pipeline (see the module comment). */
export async function enumerateModules(): Promise<Enumeration> {
  await loadAllFamilies();
  const g = globalThis as { GPUShaderStage?: unknown };
  g.GPUShaderStage ??= { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 }; // PipelineCache.layout reads it
  const device = new RecordingDevice();
  const cache = new PipelineCache(device as unknown as GPUDevice);
  const importErrors: string[] = [];
  const requests = [...(await discovered(importErrors)), ...(await hostRequests()), ...fieldRequests(), ...nttRequests(), ...msmRequests()];
  // One request at a time: a request kernelSource refuses is reported alone, not as the batch's failure.
  const refused: Enumeration['refused'] = [];
  const seen = new Set<string>();
  for (const r of requests) {
    const key = `${PipelineCache.key(r.kernel, r.entryPoint, r.plan ?? {})}@${r.field ?? ''}|${JSON.stringify(r.overrides ?? {})}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await cache.all([{ ...r, first: false }]);
    } catch (e) {
      refused.push({ label: key, error: (e as Error).message });
    }
  }
  const pipelines = new Map<string, PipelineCase>();
  for (const p of device.pipelines) {
    const key = `${p.code}\n${p.entryPoint}\n${JSON.stringify(Object.entries(p.constants).sort())}`;
    if (!pipelines.has(key)) {
      pipelines.set(key, { code: p.code, entryPoint: p.entryPoint, overrides: p.constants, label: p.label, kernel: p.label.split('#')[0] });
    }
  }
  const list = [...pipelines.values()];
  const covered = new Set(list.map((p) => p.kernel));
  const usedEntries = new Set(list.map((p) => `${p.kernel}#${p.entryPoint}`));
  const shipped = Object.keys(KERNEL_FAMILY);
  return {
    pipelines: list,
    modules: new Set(list.map((p) => p.code)).size,
    uncovered: shipped.filter((k) => !covered.has(k)),
    unusedEntries: shipped
      .filter((k) => covered.has(k))
      .flatMap((k) => entryPoints(generatedKernel(k as keyof typeof KERNEL_FAMILY).code).map((e) => `${k}#${e}`))
      .filter((ke) => !usedEntries.has(ke)),
    refused,
    importErrors,
  };
}
