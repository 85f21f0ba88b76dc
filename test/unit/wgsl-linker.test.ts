// The WGSL linker: generated file up to date, dependency order, lib rules, preamble.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { GEN_PATH, linkAll, linkKernel, parseModule, renderGenerated } from '../../scripts/gen-wgsl.js';
import { kernelSource } from '../../src/gpu/wgsl.js';
import { WGSL_KERNELS } from '../../src/wgsl.gen.js';

const mod = (name: string, requires: string, body = '') => parseModule(name, `// ${name}.wgsl: test\n// requires: ${requires}\n${body}`);

describe('WGSL linker', () => {
  it('src/wgsl.gen.ts is up to date with wgsl/ (run `npm run gen` if this fails)', () => {
    expect(readFileSync(GEN_PATH, 'utf8')).toBe(renderGenerated(linkAll()));
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
    const cyc = new Map([['a', mod('a', 'b')], ['b', mod('b', 'a')]]);
    expect(() => linkKernel(mod('k', 'a'), cyc)).toThrow(/cycle/);
    expect(() => linkKernel(mod('k', 'nope'), new Map())).toThrow(/unknown module "nope"/);
    expect(() => parseModule('x', 'fn f() {}')).toThrow(/line 1/);
  });

  it('splits constants into parameter and plan constants', () => {
    const k = linkKernel(mod('k', '', 'const LOCAL_C: u32 = 1u;\n@compute @workgroup_size(MY_WG) fn main() { let x = BB_P + LOCAL_C; }'), new Map());
    expect(k.paramConsts).toEqual(['BB_P']);
    expect(k.planConsts).toEqual(['MY_WG']);
  });

  it('every real kernel links, its own source last', () => {
    // A module's header names its file: x.wgsl, or x.gen.wgsl when a generator writes it.
    const at = (code: string, m: string) => Math.max(code.indexOf(`// ${m}.wgsl:`), code.indexOf(`// ${m}.gen.wgsl:`));
    for (const [name, k] of Object.entries(WGSL_KERNELS)) {
      expect(at(k.code, name), name).toBeGreaterThanOrEqual(0);
      for (const m of k.modules) expect(at(k.code, m), `${name} after ${m}`).toBeLessThan(at(k.code, name));
    }
    expect(WGSL_KERNELS.field_check.modules).toEqual(['u32x', 'babybear', 'babybear_ext4']);
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
