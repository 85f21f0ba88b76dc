// The WGSL a family's plans would compile, counted without a GPU: the module set does not grow
// with n (shapes are uniforms, not source), every size's pipelines are in the family's warm-up set,
// and a first call compiles at most 200 K characters (issue 29).
import { beforeAll, describe, expect, it } from 'vitest';
import { generatedKernel, kernelSource, loadAllFamilies } from '../../src/gpu/wgsl.js';
import { PipelineCache, type PipelineRequest } from '../../src/gpu/pipeline-cache.js';
import { shakeToEntry } from '../../src/gpu/wgsl-shake.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';
import { nttLimits, planNtt } from '../../src/kernels/ntt/plan.js';
import { NTT_TUNING } from '../../src/kernels/ntt/tuning.js';
import { msmPipelineRequests } from '../../src/kernels/msm/pipelines.js';
import { msmPlan } from '../../src/kernels/msm/plan.js';
import { familyRequests } from '../../src/kernels/warm-up.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { requireWarmUpFamilies } from '../../src/warm-up-families.js';
import { requireProverOptions } from '../../src/options.js';

// WebGPU's default limits, and an H100's (1024 threads, 48 KiB of workgroup memory).
const DEVICES = {
  default: {
    workgroup: { threads: 256, tileBytes: 16384 },
    limits: { maxStorageBufferBindingSize: 2 ** 27, maxBufferSize: 2 ** 28, maxComputeWorkgroupsPerDimension: 65535 },
  },
  h100: {
    workgroup: { threads: 1024, tileBytes: 49152 },
    limits: { maxStorageBufferBindingSize: 2 ** 32 - 4, maxBufferSize: 2 ** 36, maxComputeWorkgroupsPerDimension: 65535 },
  },
} as unknown as Record<string, GpuContext>;

beforeAll(loadAllFamilies);

const source = (r: PipelineRequest) => kernelSource(r.kernel, r.plan ?? {}, r.entryPoint);
/** A pipeline as the cache keys it: module text, entry point, bindings, overrides. */
const pipelineKey = (r: PipelineRequest) => `${source(r)}|${r.entryPoint}|${r.bindings?.join(',')}|${JSON.stringify(r.overrides ?? {})}`;
const modules = (rs: readonly PipelineRequest[]) => new Set(rs.map(source));
const chars = (rs: readonly PipelineRequest[]) => [...modules(rs)].reduce((a, m) => a + m.length, 0);
const OPS = ['dft', 'idft', 'lde', 'encode'] as const;
const nttSpec = (op: NttJob['op'], log: number, width: number): NttJob => ({
  op,
  height: 2 ** log,
  width,
  addedBits: op === 'lde' || op === 'encode' ? 1 : 0,
  shift: 31,
});

describe('NTT: the module set is fixed', () => {
  for (const [name, ctx] of Object.entries(DEVICES)) {
    for (const width of [1, 8, 16]) {
      it(`${name}, width ${width}: sizes 2^15 .. 2^23 add no module or pipeline to those of 2^10 .. 2^14`, () => {
        const small = OPS.flatMap((op) =>
          [10, 11, 12, 13, 14].flatMap((log) => planNtt(nttSpec(op, log, width), NTT_TUNING, nttLimits(ctx)).requests),
        );
        const large = OPS.flatMap((op) =>
          [15, 16, 17, 18, 19, 20, 21, 22, 23].flatMap((log) => planNtt(nttSpec(op, log, width), NTT_TUNING, nttLimits(ctx)).requests),
        );
        const known = new Set(small.map(pipelineKey));
        const fresh = large.filter((r) => !known.has(pipelineKey(r)));
        expect(fresh.map((r) => `${r.entryPoint} flags ${r.overrides?.NTT_FLAGS}`)).toEqual([]);
        expect(modules(large).size).toBeLessThanOrEqual(modules(small).size);
        // a handful of entry points per width, never one per size
        expect(modules(small).size).toBeLessThanOrEqual(12);
      });
    }
    it(`${name}: the warm-up set holds every pipeline of every op at widths 1 and 8 from 2^10 to 2^23`, () => {
      const warm = new Set(familyRequests(ctx, 'ntt').map(pipelineKey));
      for (const width of [1, 8]) {
        for (const op of OPS) {
          for (let log = 10; log <= 23; log++) {
            for (const r of planNtt(nttSpec(op, log, width), NTT_TUNING, nttLimits(ctx)).requests) {
              expect(warm.has(pipelineKey(r)), `${op} 2^${log} x${width}: ${r.entryPoint}`).toBe(true);
            }
          }
        }
      }
    });
  }

  it('a first lde 2^17 x 8 compiles ≤ 200 K characters in ≤ 6 modules; 2^24 x 1 too', () => {
    for (const [log, width] of [
      [17, 8],
      [20, 1],
      [24, 1],
      [12, 16],
    ]) {
      const rs = [...planNtt(nttSpec('lde', log, width), NTT_TUNING, nttLimits(DEVICES.h100)).requests];
      expect(chars(rs), `2^${log} x${width}`).toBeLessThanOrEqual(200_000);
      expect(modules(rs).size).toBeLessThanOrEqual(6);
    }
  });

  it('the source of a module never holds the size', () => {
    const a = planNtt(nttSpec('lde', 11, 8), NTT_TUNING, nttLimits(DEVICES.h100))
      .requests.map(source)
      .sort();
    const b = planNtt(nttSpec('lde', 21, 8), NTT_TUNING, nttLimits(DEVICES.h100))
      .requests.map(source)
      .sort();
    expect(new Set(b)).toEqual(new Set(a));
  });
});

describe('MSM: the pipelines come from a fixed variant set', () => {
  for (const [name, ctx] of Object.entries(DEVICES)) {
    it(`${name}: 2^10 .. 2^20 points need only the warm-up set's pipelines, ≤ 200 K characters each`, () => {
      const warm = new Set(familyRequests(ctx, 'msm').map(pipelineKey));
      const all = new Set<string>();
      for (let log = 10; log <= 20; log++) {
        const rs = msmPipelineRequests(msmPlan(2 ** log, {}, ctx.workgroup));
        for (const r of rs) {
          expect(warm.has(pipelineKey(r)), `2^${log}: ${r.entryPoint}`).toBe(true);
          all.add(pipelineKey(r));
        }
        expect(chars(rs)).toBeLessThanOrEqual(200_000);
      }
      // 9 pipelines a plan; variants (first segment, walker workgroup) add a few, never one per size
      expect(all.size).toBeLessThanOrEqual(14);
    });
  }

  it('window sizes 4 .. 16 bits share every pipeline (c and M are uniforms)', () => {
    const keys = (c: number) =>
      msmPipelineRequests(msmPlan(2 ** 14, { c, S: 4 }, DEVICES.h100.workgroup))
        .filter((r) => r.kernel !== 'msm_reduce')
        .map(pipelineKey);
    for (const c of [4, 6, 9, 12, 16]) expect(keys(c)).toEqual(keys(8));
  });
});

describe('Poseidon2 kernels: one permutation call site per entry point', () => {
  // The compiler inlines each call site of the ~560-multiply permutation: a second site doubled
  // mk_leaves' compile on the H100's host (bench/RESULTS.md, cold: 2026-11-26, 58bc912).
  it('merkle, batch (both fields and widths) and grind entry points each call the permutation once', async () => {
    const { merklePipelineRequests } = await import('../../src/kernels/merkle.js');
    const { poseidon2PipelineRequest } = await import('../../src/kernels/poseidon2.js');
    const { GRIND_PIPELINE } = await import('../../src/kernels/grind.js');
    const requests = [
      ...merklePipelineRequests(),
      poseidon2PipelineRequest(16),
      poseidon2PipelineRequest(24),
      poseidon2PipelineRequest(16, 'koalabear'),
      poseidon2PipelineRequest(24, 'koalabear'),
      GRIND_PIPELINE,
    ].filter((r) => r.entryPoint !== 'mg_gather');
    expect(requests.length).toBe(7);
    for (const r of requests) {
      const code = kernelSource(r.kernel, r.plan ?? {}, r.entryPoint, r.field ?? 'babybear');
      const sites = (code.match(/\b\w+_permute\(/g) ?? []).length - (code.match(/fn \w+_permute\(/g) ?? []).length;
      expect(`${r.kernel} ${r.entryPoint}: ${sites}`).toBe(`${r.kernel} ${r.entryPoint}: 1`);
    }
  });
});

describe('wgsl-shake', () => {
  it('keeps one entry point and what it reaches, drops the others', () => {
    const code = generatedKernel('merkle').code;
    const leaves = shakeToEntry(code, 'mk_leaves');
    expect(leaves).toContain('fn mk_leaves');
    expect(leaves).not.toContain('fn mk_nodes');
    expect(leaves).toContain('fn p2s16_permute'); // functions it calls stay
    expect(leaves.length).toBeLessThan(code.length);
    expect(() => shakeToEntry(code, 'no_such_entry')).toThrow(/not declared/);
  });

  it('keeps declarations reached only through others, in source order', () => {
    const code = [
      'const A: u32 = 1u;',
      'const B: u32 = A + 1u;',
      'const UNUSED: u32 = 9u;',
      'struct S { x: u32 };',
      'fn helper(s: S) -> u32 { return s.x + B; }',
      'fn other() -> u32 { return UNUSED; }',
      '@group(0) @binding(0) var<storage, read_write> out: array<u32>;',
      '@group(0) @binding(1) var<storage, read> unused_buf: array<u32>;',
      '@compute @workgroup_size(1) fn main() { var s: S; out[0] = helper(s); }',
    ].join('\n// a comment\n');
    const shaken = shakeToEntry(code, 'main');
    expect(shaken.split('\n').filter(Boolean)).toEqual([
      'const A: u32 = 1u;',
      'const B: u32 = A + 1u;',
      'struct S { x: u32 };',
      'fn helper(s: S) -> u32 { return s.x + B; }',
      '@group(0) @binding(0) var<storage, read_write> out: array<u32>;',
      '@compute @workgroup_size(1) fn main() { var s: S; out[0] = helper(s); }',
    ]);
  });

  it("a family's body parsed once, its plan's constants apart, shakes to what the joined text does", () => {
    const prelude = ['const NTT_W: u32 = 8u;', 'const UNUSED_PLAN: u32 = 3u;', ''].join('\n');
    const code = generatedKernel('ntt_stockham').code;
    for (const entry of ['ntt_pass_r32', 'ntt_pass_r2', 'ntt_pass_r32_table']) {
      const split = shakeToEntry(code, entry, prelude);
      expect(split).toBe(shakeToEntry(prelude + code, entry));
      expect(split).toContain('NTT_W');
      expect(split).not.toContain('UNUSED_PLAN');
    }
    // an entry in the prelude is found too
    expect(shakeToEntry('const A: u32 = 1u;', 'main', '@compute @workgroup_size(1) fn main() { _ = A; }\n')).toContain('const A');
  });
});

it('PipelineCache keys plan constants by name, in any order', () => {
  expect(PipelineCache.key('k', 'e', { B: 2, A: 1 })).toBe(PipelineCache.key('k', 'e', { A: 1, B: 2 }));
});

describe('warm-up families', () => {
  it('accepts known families and rejects others with INVALID_ARGUMENT', () => {
    expect(requireWarmUpFamilies(undefined)).toEqual(['ntt', 'merkle', 'poseidon2', 'grind', 'msm']);
    expect(requireWarmUpFamilies(['commit', 'msm'])).toEqual(['commit', 'msm']);
    for (const bad of ['ntt', ['nope'], [1], {}])
      expect(() => requireWarmUpFamilies(bad)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => requireProverOptions({ warmUp: ['lde'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(requireProverOptions({ warmUp: true }).warmUp).toBe(true);
  });

  it('commit warms what ntt and merkle do; every family asks for something', () => {
    const ctx = DEVICES.h100;
    const keys = (f: Parameters<typeof familyRequests>[1]) => new Set(familyRequests(ctx, f).map(pipelineKey));
    expect(keys('commit')).toEqual(new Set([...keys('ntt'), ...keys('merkle')]));
    for (const f of ['ntt', 'merkle', 'poseidon2', 'grind', 'msm'] as const) expect(keys(f).size).toBeGreaterThan(0);
  });
});
