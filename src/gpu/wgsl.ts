/**
 * Run-time half of the WGSL linker: a generated kernel plus a `const` preamble holding the
 * parameter constants it uses (src/params/wgsl-consts.ts) and the plan constants the caller
 * supplies. Plans are consts, not `override`s, because some are array sizes in workgroup
 * memory and Safari mishandles overrides there; a kernel declares an `override` itself where a
 * scalar that sizes nothing lets one module serve several pipelines (the NTT's NTT_FLAGS), and
 * the pipeline request supplies its value. With an entry point the source is tree-shaken to what
 * that entry point uses (wgsl-shake.ts).
 * @module
 */
import { WGSL_KERNELS, type KernelName } from '../wgsl.gen.js';
import { WGSL_PARAM_CONSTS, type WgslConst } from '../params/wgsl-consts.js';
import { shakeToEntry } from './wgsl-shake.js';

export type PlanConsts = Readonly<Record<string, number>>;

function constLine(name: string, value: WgslConst): string {
  const u32 = (v: number) => {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`WGSL const ${name}: ${v} is not a u32`);
    return `${v}u`;
  };
  if (typeof value === 'number') return `const ${name}: u32 = ${u32(value)};`;
  return `const ${name} = array<u32, ${value.length}>(${value.map(u32).join(', ')});`;
}

/**
 * Full source for `kernel`, or with `entry` only what that entry point uses (wgsl-shake.ts: one
 * entry point's closure, a tenth or less of a family's file); throws if a plan constant is missing
 * or unexpected.
 */
export function kernelSource(kernel: KernelName, plan: PlanConsts = {}, entry?: string): string {
  const k = WGSL_KERNELS[kernel];
  const missing = k.planConsts.filter((n) => !(n in plan));
  const extra = Object.keys(plan).filter((n) => !(k.planConsts as readonly string[]).includes(n));
  if (missing.length || extra.length) {
    throw new Error(`kernel ${kernel}: plan constants missing [${missing.join(', ')}], unexpected [${extra.join(', ')}]`);
  }
  const lines = [
    `// ${kernel}: generated preamble`,
    ...k.paramConsts.map((n) => constLine(n, WGSL_PARAM_CONSTS[n])),
    ...k.planConsts.map((n) => constLine(n, plan[n])),
  ];
  const full = lines.join('\n') + '\n\n' + k.code;
  return entry ? `// ${kernel}: ${entry}\n` + shakeToEntry(full, entry) : full;
}
