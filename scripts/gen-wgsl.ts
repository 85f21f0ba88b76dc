/**
 * WGSL linker: turns wgsl/lib/*.wgsl (functions only) and wgsl/kernels/*.wgsl (entry points)
 * into src/wgsl.gen.ts, one self-contained source string per kernel.
 *
 * Each file starts with `// <file>: summary` and `// requires: a, b` (lib module names). A file
 * named <name>.gen.wgsl is written by a scripts/gen-*.ts generator (edit the generator, then
 * `npm run gen`); its module is <name>, the same as for a hand-written <name>.wgsl.
 * The linker resolves requires transitively, emits each module once in dependency order
 * (dependencies first), rejects bindings and entry points in lib/, and records for each kernel
 * which parameter constants (src/params/wgsl-consts.ts) and which plan constants (any other
 * SCREAMING_CASE name not declared in the linked code) it needs.
 *
 *   node --import tsx scripts/gen-wgsl.ts          write src/wgsl.gen.ts
 *   node --import tsx scripts/gen-wgsl.ts --check  exit 1 if it is stale
 * @module
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
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
export const GEN_PATH = join(ROOT, 'src', 'wgsl.gen.ts');

/** `file` is the file name (`x.wgsl`, or `x.gen.wgsl` for generated code); the module is `name`. */
export function parseModule(name: string, text: string, file = `${name}.wgsl`): WgslModule {
  const lines = text.split('\n');
  if (!lines[0]?.startsWith(`// ${file}:`)) throw new Error(`${file}: line 1 must be "// ${file}: <summary>"`);
  const m = /^\/\/ requires:(.*)$/.exec(lines[1] ?? '');
  if (!m) throw new Error(`${file}: line 2 must be "// requires: a, b" (may be empty)`);
  const requires = m[1].split(',').map((s) => s.trim()).filter(Boolean);
  return { name, requires, body: text.trimEnd() + '\n' };
}

function readDir(dir: string): Map<string, WgslModule> {
  const out = new Map<string, WgslModule>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.wgsl')).sort()) {
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

export function renderGenerated(kernels: Record<string, LinkedKernel>): string {
  const entries = Object.entries(kernels).map(([name, k]) =>
    `  ${name}: {\n    modules: ${JSON.stringify(k.modules)},\n    paramConsts: ${JSON.stringify(k.paramConsts)},\n    planConsts: ${JSON.stringify(k.planConsts)},\n    code: ${JSON.stringify(k.code)},\n  },`);
  return [
    '// AUTO-GENERATED by scripts/gen-wgsl.ts from wgsl/. DO NOT EDIT.',
    '// Regenerate: npm run gen',
    '',
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
    'export const WGSL_KERNELS = {',
    ...entries,
    '} as const satisfies Record<string, GeneratedKernel>;',
    '',
    'export type KernelName = keyof typeof WGSL_KERNELS;',
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderGenerated(linkAll());
  if (process.argv.includes('--check')) {
    const current = readFileSync(GEN_PATH, 'utf8');
    if (current !== text) {
      console.error('src/wgsl.gen.ts is stale: run `npm run gen` and commit it');
      process.exit(1);
    }
    console.log('src/wgsl.gen.ts is up to date');
  } else {
    writeFileSync(GEN_PATH, text);
    console.log(`wrote ${GEN_PATH} (${text.length} chars)`);
  }
}
