// Every WGSL module the package can compile, through naga as Firefox (macOS: Metal, Windows: D3D12,
// Linux/Android: Vulkan) and Deno run it: parsed and validated with WebGPU's baseline capabilities,
// then per pipeline its `override` values applied and the entry point translated to MSL, HLSL
// (shader models 5.1 and 6.0) and SPIR-V. The modules are the exact strings createShaderModule
// would get, found by running the host's own request makers over a grid of job shapes and devices
// (test/support/wgsl-modules.ts); the checker is bench/naga-check, built here with cargo (a cold
// build 1-3 min; a missing cargo fails this test, it never skips). docs/portability.md, "naga".
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerateModules, type Enumeration } from '../support/wgsl-modules.js';
import { nagaCheckPath, runNagaCheck, type NagaRun } from '../support/naga-check.js';
import { KERNEL_FAMILY } from '../../src/wgsl/kernels.gen.js';

let found: Enumeration;
let run: NagaRun;

beforeAll(async () => {
  nagaCheckPath(); // the build first: its output is cargo's, before ours
  const t0 = performance.now();
  found = await enumerateModules();
  const t1 = performance.now();
  run = runNagaCheck(found.pipelines);
  const t2 = performance.now();
  console.log(
    `naga targets: ${found.modules} modules, ${found.pipelines.length} pipelines of ${Object.keys(KERNEL_FAMILY).length} kernels ` +
      `(enumerated in ${((t1 - t0) / 1000).toFixed(1)} s, checked in ${((t2 - t1) / 1000).toFixed(1)} s): ${run.summary}`,
  );
  if (found.unusedEntries.length) {
    console.log(`entry points no host request reaches (not checked): ${found.unusedEntries.join(', ')}`);
  }
}, 900_000);

// The modules stay in the temp folder only when naga failed on some (the failure message names it).
afterAll(() => {
  if (run?.verdicts.every((v) => v.ok)) rmSync(run.dir, { recursive: true, force: true });
});

describe('naga: every module validates and translates to MSL, HLSL and SPIR-V', () => {
  it('finds every shipped kernel among the host requests', () => {
    expect(found.importErrors, 'host modules that failed to import').toEqual([]);
    expect(found.refused, 'host requests the WGSL linker refused').toEqual([]);
    // A kernel listed here is shipped but reached by no request this enumeration makes: export its
    // PipelineRequest(s) from its host module (found automatically), or add its maker to wgsl-modules.ts.
    expect(found.uncovered, 'shipped kernels with no pipeline request').toEqual([]);
    expect(run.verdicts.length).toBe(found.pipelines.length);
  });

  it('naga accepts every pipeline on every target', () => {
    const failed = run.verdicts.filter((v) => !v.ok);
    const report = failed.map((v) => `${v.label}\n  [${v.stage}] ${v.message}`).join('\n\n');
    expect(failed.length, `naga failed ${failed.length} of ${run.verdicts.length} pipelines (modules in ${run.dir}):\n\n${report}`).toBe(0);
  });
});
