// The MSM kernels' params structs: each WGSL struct (parsed from wgsl/kernels/) has the packer's
// fields, in its order, all u32; the packer puts each field at its index; every field is read by
// the kernel and the kernel reads no other; and the layout constants reach WGSL with their values.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MSM_PARAMS, PARAMS_WORDS, type ParamsStruct } from '../../src/kernels/msm/params.js';
import { CHECK_PARAMS } from '../../bench/support/msm-kernel-checks.js';
import { MSM_BYTES, MSM_WGSL_CONSTS, MSM_WORDS } from '../../src/params/msm-layout.js';
import { WGSL_PARAM_CONSTS } from '../../src/params/wgsl-consts.js';
import { DEV_ONLY_KERNELS, linkAll } from '../../scripts/gen-wgsl.js';

const wgsl = (kernel: string) =>
  readFileSync(new URL(`../../wgsl/kernels/${kernel}.wgsl`, import.meta.url), 'utf8').replace(/\/\/.*$/gm, '');

/** The fields of `struct name { a: T, ... }` in `code`, in order, as [name, type]. */
function structFields(code: string, name: string): [string, string][] {
  const m = new RegExp(`struct\\s+${name}\\s*\\{([^}]*)\\}`).exec(code);
  if (!m) throw new Error(`no struct ${name}`);
  return m[1]
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => {
      const [field, type] = f.split(':').map((s) => s.trim());
      return [field, type];
    });
}

const ALL: ParamsStruct<string>[] = [...MSM_PARAMS, CHECK_PARAMS];

describe('MSM params structs', () => {
  for (const s of ALL) {
    it(`${s.kernel} ${s.struct}: the WGSL struct and the packer agree`, () => {
      const code = wgsl(s.kernel);
      expect(new RegExp(`var<uniform>\\s+prm:\\s*${s.struct};`).test(code), `${s.kernel} binds prm as ${s.struct}`).toBe(true);
      const fields = structFields(code, s.struct);
      expect(fields.map(([f]) => f)).toEqual(s.fields);
      expect(fields.every(([, t]) => t === 'u32')).toBe(true);
      expect(s.fields.length).toBeLessThanOrEqual(PARAMS_WORDS);
      // Each field at its index: distinct values, zeros past the struct.
      const values = Object.fromEntries(s.fields.map((f, i) => [f, 1000 + i])) as Record<string, number>;
      const words = s.pack(values);
      expect(words.length).toBe(PARAMS_WORDS);
      expect(Array.from(words)).toEqual([...s.fields.map((_, i) => 1000 + i), ...Array(PARAMS_WORDS - s.fields.length).fill(0)]);
    });

    it(`${s.kernel}: reads every ${s.struct} field and no other`, () => {
      // The linked kernel (its lib modules too: they may read prm).
      const code = linkAll()[s.kernel].code.replace(/\/\/.*$/gm, '');
      const read = new Set([...code.matchAll(/\bprm\.(\w+)/g)].map((m) => m[1]));
      expect([...read].sort()).toEqual([...s.fields].sort());
    });
  }

  it('the packer refuses values that are not u32', () => {
    const [s] = MSM_PARAMS;
    const ok = Object.fromEntries(s.fields.map((f) => [f, 1])) as Record<string, number>;
    expect(() => s.pack({ ...ok, [s.fields[0]]: -1 })).toThrow(RangeError);
    expect(() => s.pack({ ...ok, [s.fields[0]]: 2 ** 32 })).toThrow(RangeError);
    expect(() => s.pack({ ...ok, [s.fields[0]]: 1.5 })).toThrow(RangeError);
    expect(() => s.pack({ ...ok, [s.fields[0]]: undefined as unknown as number })).toThrow(RangeError);
  });
});

describe('MSM layout', () => {
  it('sizes follow from the 8-limb Fq and reach WGSL as named constants', () => {
    expect(MSM_WORDS).toEqual({ fq: 8, affine: 16, projective: 24, pair: 48, scalar: 8 });
    expect(MSM_BYTES).toEqual({ affine: 64, projective: 96, pair: 192, scalar: 32 });
    for (const [name, value] of Object.entries(MSM_WGSL_CONSTS)) expect(WGSL_PARAM_CONSTS[name]).toBe(value);
  });

  it('the shipped MSM kernels hold only the MSM: check and bench entries are dev-only (msm_fq13)', () => {
    const kernels = linkAll();
    const entries = Object.entries(kernels)
      .filter(([k]) => k.startsWith('msm_') && !DEV_ONLY_KERNELS.has(k))
      .flatMap(([, k]) => [...k.code.matchAll(/@compute[^\n]*\n\s*fn (\w+)/g)].map((m) => m[1]));
    expect(entries.filter((e) => !e.startsWith('msm_'))).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(12);
    expect(DEV_ONLY_KERNELS.has('msm_fq13')).toBe(true);
  });

  it('no MSM kernel writes a point size as a literal', () => {
    for (const k of ['msm_prep', 'msm_split', 'msm_sort', 'msm_walk', 'msm_reduce']) {
      // 16u / 24u as a multiplier of an index, or 8u as a coordinate's offset: the layout's job.
      expect(wgsl(k)).not.toMatch(/\b(16u|24u) \*|\+ (8u|16u) \+|array<u32, 24>/);
    }
  });
});
