/**
 * WGSL linker: turns wgsl/lib/*.wgsl (functions only) and wgsl/kernels/*.wgsl (entry points)
 * into src/wgsl/<family>.gen.ts (one module per kernel family, loaded lazily) and
 * src/wgsl/kernels.gen.ts (each kernel's family, one import() per family), one self-contained
 * source string per kernel; kernels only tests and benchmarks use go to bench/support/wgsl-dev.gen.ts.
 *
 * Each file starts with `// <file>: summary` and `// requires: a, b` (lib module names). A file
 * named <name>.gen.wgsl is written by a scripts/gen-*.ts generator (edit the generator, then
 * `npm run gen`); its module is <name>, the same as for a hand-written <name>.wgsl.
 * The linker resolves requires transitively, emits each module once in dependency order
 * (dependencies first), rejects bindings and entry points in lib/, and records for each kernel
 * which parameter constants (src/params/wgsl-consts.ts) and which plan constants (any other
 * SCREAMING_CASE name not declared in the linked code) it needs.
 *
 *   node --import tsx scripts/gen-wgsl.ts          write the generated modules
 *   node --import tsx scripts/gen-wgsl.ts --check  exit 1 if it is stale
 * @module
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WGSL_PARAM_CONSTS } from '../src/params/wgsl-consts.js';

export interface WgslModule {
  name: string;
  requires: string[];
  body: string;
}

export interface LinkedKernel {
  code: string;
  modules: string[];
  paramConsts: string[];
  planConsts: string[];
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The generated per-family modules live here (relative to the repo). */
export const GEN_DIR = 'src/wgsl';

/** `file` is the file name (`x.wgsl`, or `x.gen.wgsl` for generated code); the module is `name`. */
export function parseModule(name: string, text: string, file = `${name}.wgsl`): WgslModule {
  const lines = text.split('\n');
  if (!lines[0]?.startsWith(`// ${file}:`)) throw new Error(`${file}: line 1 must be "// ${file}: <summary>"`);
  const m = /^\/\/ requires:(.*)$/.exec(lines[1] ?? '');
  if (!m) throw new Error(`${file}: line 2 must be "// requires: a, b" (may be empty)`);
  const requires = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { name, requires, body: text.trimEnd() + '\n' };
}

function readDir(dir: string): Map<string, WgslModule> {
  const out = new Map<string, WgslModule>();
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.wgsl'))
    .sort()) {
    // x.gen.wgsl is written by a scripts/gen-*.ts generator (edit that, not the file): module x.
    const name = f.replace(/(\.gen)?\.wgsl$/, '');
    if (out.has(name)) throw new Error(`${dir}: both ${name}.wgsl and ${name}.gen.wgsl`);
    out.set(name, parseModule(name, readFileSync(join(dir, f), 'utf8'), f));
  }
  return out;
}

/** Post-order DFS: every module after all it requires; throws on cycles and unknown names. */
export function resolveOrder(root: WgslModule, libs: Map<string, WgslModule>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, from: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`WGSL requires cycle through ${name}`);
    const mod = libs.get(name);
    if (!mod) throw new Error(`${from}.wgsl requires unknown module "${name}"`);
    state.set(name, 'visiting');
    for (const r of mod.requires) visit(r, name);
    state.set(name, 'done');
    order.push(name);
  };
  for (const r of root.requires) visit(r, root.name);
  return order;
}

const stripComments = (code: string) => code.replace(/\/\/.*$/gm, '');

/** Link one kernel against the lib modules: the code string plus the constants it needs. */
export function linkKernel(kernel: WgslModule, libs: Map<string, WgslModule>): LinkedKernel {
  const modules = resolveOrder(kernel, libs);
  const code = [...modules.map((n) => libs.get(n)!.body), kernel.body].join('\n');
  const bare = stripComments(code);
  const declared = new Set([...bare.matchAll(/\b(?:const|let|var|override|fn|struct|alias)\s+([A-Za-z_]\w*)/g)].map((m) => m[1]));
  const used = new Set([...bare.matchAll(/\b([A-Z][A-Z0-9_]*[A-Z0-9])\b/g)].map((m) => m[1]));
  const paramConsts: string[] = [];
  const planConsts: string[] = [];
  for (const name of [...used].sort()) {
    if (declared.has(name)) continue;
    (name in WGSL_PARAM_CONSTS ? paramConsts : planConsts).push(name);
  }
  return { code, modules, paramConsts, planConsts };
}

export function linkAll(wgslDir = join(ROOT, 'wgsl')): Record<string, LinkedKernel> {
  const libs = readDir(join(wgslDir, 'lib'));
  for (const mod of libs.values()) {
    const bare = stripComments(mod.body);
    if (/@(group|binding|compute|workgroup_size)\b/.test(bare)) {
      throw new Error(`wgsl/lib/${mod.name}.wgsl: lib modules hold functions and structs only (no bindings or entry points)`);
    }
    if (/\bfn\s+(?!\w+_)/.test(bare)) {
      // every lib function carries its module prefix (bb_, ext4_, u32x_, ...)
      throw new Error(`wgsl/lib/${mod.name}.wgsl: function names need a module prefix like "bb_"`);
    }
  }
  const out: Record<string, LinkedKernel> = {};
  for (const kernel of readDir(join(wgslDir, 'kernels')).values()) out[kernel.name] = linkKernel(kernel, libs);
  return out;
}

/**
 * Kernels that only tests and benchmarks run: emitted into bench/support/wgsl-dev.gen.ts, never into
 * src/ (so never into dist/). Their host code registers them on import (registerKernels).
 */
export const DEV_ONLY_KERNELS: ReadonlySet<string> = new Set(['field_bench', 'msm_fq13']);

/**
 * A kernel's family is its file name up to the first `_` (msm_walk -> msm, ntt_stockham -> ntt,
 * poseidon2_s16_batch -> poseidon2): a new wgsl/kernels/msm_x.wgsl joins the MSM's module with no
 * other edit. Each family is one generated module, loaded on its first pipeline (import()).
 */
export const familyOf = (kernel: string): string => kernel.split('_')[0];

const HEADER = ['// AUTO-GENERATED by scripts/gen-wgsl.ts from wgsl/. DO NOT EDIT.', '// Regenerate: npm run gen', ''];

function renderTable(kernels: [string, LinkedKernel][], typeFrom: string, tail: string[] = []): string {
  const entries = kernels.map(
    ([name, k]) =>
      `  ${name}: {\n    modules: ${JSON.stringify(k.modules)},\n    paramConsts: ${JSON.stringify(k.paramConsts)},\n    planConsts: ${JSON.stringify(k.planConsts)},\n    code: ${JSON.stringify(k.code)},\n  },`,
  );
  return [
    ...HEADER,
    `import type { GeneratedKernel } from '${typeFrom}';`,
    ...tail.filter((l) => l.startsWith('import ')),
    '',
    'export const KERNELS: Readonly<Record<string, GeneratedKernel>> = {',
    ...entries,
    '};',
    ...tail.filter((l) => !l.startsWith('import ')),
    '',
  ].join('\n');
}

/**
 * The generated files, path (relative to the repo) -> text: src/wgsl/kernels.gen.ts (every kernel's
 * family, and one import() per family: bundlers split each into its own chunk), one
 * src/wgsl/<family>.gen.ts per family, and bench/support/wgsl-dev.gen.ts (the dev-only kernels).
 */
export function renderGenerated(kernels: Record<string, LinkedKernel>): Map<string, string> {
  const shipped = Object.keys(kernels)
    .filter((k) => !DEV_ONLY_KERNELS.has(k))
    .sort();
  const dev = Object.keys(kernels)
    .filter((k) => DEV_ONLY_KERNELS.has(k))
    .sort();
  const families = [...new Set(shipped.map(familyOf))].sort();
  const files = new Map<string, string>();
  files.set(
    'src/wgsl/kernels.gen.ts',
    [
      ...HEADER,
      'export interface GeneratedKernel {',
      '  /** lib modules linked in, dependencies first */',
      '  readonly modules: readonly string[];',
      '  /** constants from src/params/wgsl-consts.ts the code uses */',
      '  readonly paramConsts: readonly string[];',
      '  /** constants the host supplies per pipeline (workgroup sizes, iteration counts) */',
      '  readonly planConsts: readonly string[];',
      '  readonly code: string;',
      '}',
      '',
      "/** Each shipped kernel's family: the generated module (./<family>.gen.ts) that holds its code. */",
      'export const KERNEL_FAMILY = {',
      ...shipped.map((k) => `  ${k}: '${familyOf(k)}',`),
      '} as const;',
      '',
      '/** Kernels only tests and benchmarks run (bench/support/wgsl-dev.gen.ts registers them); not in dist/. */',
      `export const DEV_KERNELS = ${JSON.stringify(dev)} as const;`,
      '',
      'export type KernelFamily = (typeof KERNEL_FAMILY)[keyof typeof KERNEL_FAMILY];',
      'export type KernelName = keyof typeof KERNEL_FAMILY | (typeof DEV_KERNELS)[number];',
      '',
      '/** One import() per family, written out literally so every bundler splits each into its own chunk. */',
      'export const FAMILY_SOURCES: Readonly<Record<KernelFamily, () => Promise<Readonly<Record<string, GeneratedKernel>>>>> = {',
      ...families.map((f) => `  ${f}: () => import('./${f}.gen.js').then((m) => m.KERNELS),`),
      '};',
      '',
    ].join('\n'),
  );
  for (const f of families) {
    files.set(
      `src/wgsl/${f}.gen.ts`,
      renderTable(
        shipped.filter((k) => familyOf(k) === f).map((k) => [k, kernels[k]]),
        './kernels.gen.js',
      ),
    );
  }
  files.set(
    'bench/support/wgsl-dev.gen.ts',
    renderTable(
      dev.map((k) => [k, kernels[k]]),
      '../../src/wgsl/kernels.gen.js',
      [
        "import { registerKernels } from '../../src/gpu/wgsl.js';",
        '',
        '// Importing this module makes the dev-only kernels available to PipelineCache.',
        'registerKernels(KERNELS);',
      ],
    ),
  );
  return files;
}

/** Generated files that differ from what is on disk, and generated files on disk no longer made. */
export function staleFiles(files = renderGenerated(linkAll())): string[] {
  const stale = [...files]
    .filter(([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), 'utf8') !== text)
    .map(([p]) => p);
  const dir = join(ROOT, GEN_DIR);
  const orphans = (existsSync(dir) ? readdirSync(dir) : [])
    .map((f) => `${GEN_DIR}/${f}`)
    .filter((p) => p.endsWith('.gen.ts') && !files.has(p));
  return [...stale, ...orphans];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = renderGenerated(linkAll());
  if (process.argv.includes('--check')) {
    const stale = staleFiles(files);
    if (stale.length) {
      console.error(`stale generated WGSL (${stale.join(', ')}): run \`npm run gen\` and commit it`);
      process.exit(1);
    }
    console.log('generated WGSL modules are up to date');
  } else {
    mkdirSync(join(ROOT, GEN_DIR), { recursive: true });
    for (const p of staleFiles(files)) if (!files.has(p)) rmSync(join(ROOT, p));
    for (const [path, text] of files) writeFileSync(join(ROOT, path), text);
    console.log(`wrote ${[...files].map(([p, t]) => `${p} (${t.length} chars)`).join(', ')}`);
  }
}
