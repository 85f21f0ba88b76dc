// The WGSL linker: generated file up to date, dependency order, lib rules, preamble.
import { beforeAll, describe, it, expect } from 'vitest';
import { DEV_ONLY_KERNELS, familyOf, linkAll, linkKernel, parseModule, renderGenerated, staleFiles } from '../../scripts/gen-wgsl.js';
import { generatedKernel, kernelSource, loadAllFamilies, loadKernel } from '../../src/gpu/wgsl.js';
import { KERNEL_FAMILY, type KernelName } from '../../src/wgsl/kernels.gen.js';

const mod = (name: string, requires: string, body = '') => parseModule(name, `// ${name}.wgsl: test\n// requires: ${requires}\n${body}`);

describe('WGSL linker', () => {
  beforeAll(loadAllFamilies);

  it('the generated modules are up to date with wgsl/ (run `npm run gen` if this fails)', () => {
    expect(staleFiles()).toEqual([]);
  });

  it('one module per family, named by the file-name prefix; check/bench kernels only in bench/support', () => {
    const files = renderGenerated(linkAll());
    const linked = Object.keys(linkAll());
    expect([...files.keys()].sort()).toEqual(
      [
        'src/wgsl/kernels.gen.ts',
        'bench/support/wgsl-dev.gen.ts',
        ...[...new Set(linked.filter((k) => !DEV_ONLY_KERNELS.has(k)).map(familyOf))].map((f) => `src/wgsl/${f}.gen.ts`),
      ].sort(),
    );
    // a new msm_* file lands in the msm family with no other edit
    expect(familyOf('msm_new_kernel')).toBe('msm');
    expect(KERNEL_FAMILY).toMatchObject({
      msm_walk: 'msm',
      ntt_stockham: 'ntt',
      merkle_gather: 'merkle',
      poseidon2_s24_batch: 'poseidon2',
    });
    for (const k of DEV_ONLY_KERNELS) {
      expect(KERNEL_FAMILY, k).not.toHaveProperty(k);
      for (const [path, text] of files) if (path.startsWith('src/')) expect(text, `${k} in ${path}`).not.toContain(`// ${k}.wgsl:`);
    }
  });

  it('a dev-only kernel must be registered by its importer', async () => {
    await expect(loadKernel('msm_fq13')).rejects.toThrow(/test\/benchmark kernel, not in the package/);
    await import('../../bench/support/wgsl-dev.gen.js');
    await expect(loadKernel('msm_fq13')).resolves.toBeUndefined();
    expect(generatedKernel('field_bench').code).toContain('fn field_bench');
  });

  it('orders dependencies first, emits each module once', () => {
    const libs = new Map([
      ['a', mod('a', '', 'fn a_x() {}')],
      ['b', mod('b', 'a', 'fn b_x() {}')],
      ['c', mod('c', 'a, b', 'fn c_x() {}')],
    ]);
    const k = linkKernel(mod('k', 'c, b'), libs);
    expect(k.modules).toEqual(['a', 'b', 'c']);
    expect(k.code.match(/fn a_x/g)?.length).toBe(1);
  });

  it('rejects cycles, unknown modules and malformed headers', () => {
    const cyc = new Map([
      ['a', mod('a', 'b')],
      ['b', mod('b', 'a')],
    ]);
    expect(() => linkKernel(mod('k', 'a'), cyc)).toThrow(/cycle/);
    expect(() => linkKernel(mod('k', 'nope'), new Map())).toThrow(/unknown module "nope"/);
    expect(() => parseModule('x', 'fn f() {}')).toThrow(/line 1/);
  });

  it('splits constants into parameter and plan constants', () => {
    const k = linkKernel(
      mod('k', '', 'const LOCAL_C: u32 = 1u;\n@compute @workgroup_size(MY_WG) fn main() { let x = BB_P + LOCAL_C; }'),
      new Map(),
    );
    expect(k.paramConsts).toEqual(['BB_P']);
    expect(k.planConsts).toEqual(['MY_WG']);
  });

  it('every real kernel links, its own source last', () => {
    // A module's header names its file: x.wgsl, or x.gen.wgsl when a generator writes it.
    const at = (code: string, m: string) => Math.max(code.indexOf(`// ${m}.wgsl:`), code.indexOf(`// ${m}.gen.wgsl:`));
    for (const name of Object.keys(KERNEL_FAMILY) as KernelName[]) {
      const k = generatedKernel(name);
      expect(at(k.code, name), name).toBeGreaterThanOrEqual(0);
      for (const m of k.modules) expect(at(k.code, m), `${name} after ${m}`).toBeLessThan(at(k.code, name));
    }
    expect(generatedKernel('field_check').modules).toEqual(['u32x', 'babybear', 'babybear_ext4']);
  });

  it('kernelSource prepends constants and checks plan constants', () => {
    const src = kernelSource('field_check', { FIELD_WG: 64 });
    expect(src).toContain('const BB_P: u32 = 2013265921u;');
    expect(src).toContain('const FIELD_WG: u32 = 64u;');
    expect(() => kernelSource('field_check', {})).toThrow(/missing \[FIELD_WG\]/);
    expect(() => kernelSource('field_check', { FIELD_WG: 64, EXTRA: 1 })).toThrow(/unexpected \[EXTRA\]/);
    expect(() => kernelSource('field_check', { FIELD_WG: -1 })).toThrow(/not a u32/);
  });
});
