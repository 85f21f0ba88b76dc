/**
 * Run-time half of the WGSL linker: a generated kernel plus a `const` preamble holding the
 * parameter constants it uses (src/params/wgsl-consts.ts) and the plan constants the caller
 * supplies. Plans are consts, not `override`s, because some are array sizes in workgroup
 * memory and Safari mishandles overrides there; a kernel declares an `override` itself where a
 * scalar that sizes nothing lets one module serve several pipelines (the NTT's NTT_FLAGS), and
 * the pipeline request supplies its value. With an entry point the source is tree-shaken to what
 * that entry point uses (wgsl-shake.ts).
 *
 * Kernel code is not imported up front: each family's WGSL is its own generated module
 * (src/wgsl/<family>.gen.ts), fetched through import() the first time one of its kernels is
 * needed (`loadKernel`, awaited by PipelineCache before it builds a pipeline), so bundlers put it
 * in its own chunk and a page that only commits with Merkle never downloads the MSM's or NTT's
 * WGSL (docs/internals.md, "The published package").
 * @module
 */
import {
  DEV_KERNELS,
  FAMILY_SOURCES,
  KERNEL_FAMILY,
  type GeneratedKernel,
  type KernelFamily,
  type KernelName,
} from '../wgsl/kernels.gen.js';
import { wgslParamConsts, type WgslConst } from '../params/wgsl-consts.js';
import type { FieldName } from '../params/fields.js';
import { shakeToEntry } from './wgsl-shake.js';
import { loadPart } from '../lazy.js';

export type PlanConsts = Readonly<Record<string, number>>;

function constLine(name: string, value: WgslConst): string {
  const u32 = (v: number) => {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`WGSL const ${name}: ${v} is not a u32`);
    return `${v}u`;
  };
  if (typeof value === 'number') return `const ${name}: u32 = ${u32(value)};`;
  return `const ${name} = array<u32, ${value.length}>(${value.map(u32).join(', ')});`;
}

/** Kernel code loaded so far (one table for the whole page: the strings are immutable). */
const loaded = new Map<string, GeneratedKernel>();
const loading = new Map<KernelFamily, Promise<void>>();

/** Make kernels available to kernelSource: what a family's module holds, or the dev-only kernels. */
export function registerKernels(kernels: Readonly<Record<string, GeneratedKernel>>): void {
  for (const [name, k] of Object.entries(kernels)) loaded.set(name, k);
}

/** Load `family`'s WGSL module once (concurrent callers share the one import). */
export function loadFamily(family: KernelFamily): Promise<void> {
  let p = loading.get(family);
  if (!p) {
    p = loadPart(`webgpu-prover's ${family} WGSL`, FAMILY_SOURCES[family]).then(registerKernels);
    // A failed chunk fetch (offline, a deploy that removed it) must be retried by the next job.
    p.catch(() => loading.delete(family));
    loading.set(family, p);
  }
  return p;
}

/** Load the module holding `kernel`; dev-only kernels must have been registered by their importer. */
export async function loadKernel(kernel: KernelName): Promise<void> {
  if (loaded.has(kernel)) return;
  if (kernel in KERNEL_FAMILY) return loadFamily(KERNEL_FAMILY[kernel as keyof typeof KERNEL_FAMILY]);
  if ((DEV_KERNELS as readonly string[]).includes(kernel)) {
    throw new Error(`kernel ${kernel} is a test/benchmark kernel, not in the package: import bench/support/wgsl-dev.gen.ts first`);
  }
  throw new Error(`unknown kernel ${kernel}`);
}

/** Every family's module (Node tools and tests that read kernel sources synchronously). */
export async function loadAllFamilies(): Promise<void> {
  await Promise.all((Object.keys(FAMILY_SOURCES) as KernelFamily[]).map(loadFamily));
}

/** The linked code of a loaded kernel. */
export function generatedKernel(kernel: KernelName): GeneratedKernel {
  const k = loaded.get(kernel);
  if (!k) throw new Error(`kernel ${kernel}: its WGSL module is not loaded (await loadKernel('${kernel}') first)`);
  return k;
}

/**
 * Full source for `kernel` (its family must be loaded: loadKernel), or with `entry` only what that entry point uses (wgsl-shake.ts: one
 * entry point's closure, a tenth or less of a family's file); throws if a plan constant is missing
 * or unexpected. The 31-bit field constants (BB_P, BB_MU, ...) are `field`'s (BabyBear by default).
 */
export function kernelSource(kernel: KernelName, plan: PlanConsts = {}, entry?: string, field: FieldName = 'babybear'): string {
  const k = generatedKernel(kernel);
  const missing = k.planConsts.filter((n) => !(n in plan));
  const extra = Object.keys(plan).filter((n) => !(k.planConsts as readonly string[]).includes(n));
  if (missing.length || extra.length) {
    throw new Error(`kernel ${kernel}: plan constants missing [${missing.join(', ')}], unexpected [${extra.join(', ')}]`);
  }
  const params = wgslParamConsts(field);
  const lines = [
    field === 'babybear' ? `// ${kernel}: generated preamble` : `// ${kernel}: generated preamble, field ${field}`,
    ...k.paramConsts.map((n) => constLine(n, params[n])),
    ...k.planConsts.map((n) => constLine(n, plan[n])),
  ];
  const prelude = lines.join('\n') + '\n\n';
  return entry ? `// ${kernel}: ${entry}\n` + shakeToEntry(k.code, entry, prelude) : prelude + k.code;
}
