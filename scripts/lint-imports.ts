/**
 * `npm run lint`: imports that run the wrong way. Prints each as `file:line: rule: what`, exits 1
 * if there is any. Only relative specifiers are read (packages are package.json's business),
 * found by TypeScript's own pre-processor, so comments and strings never count and static,
 * type-only, side-effect, re-export and dynamic imports all do.
 *
 * The rules:
 * - layer: inside src/, a file imports only its own layer or one below (LAYERS, lowest first).
 * - kernels-ref: src/kernels imports nothing from src/ref (host field math lives in src/field);
 *   KERNEL_REF_ALLOWED names the imports that are still there until that move lands, and an
 *   entry that no longer matches an import is an error too, so the list only shrinks.
 * - src-outside: src/ imports nothing outside src/ (not test/, bench/, demo/, scripts/).
 * - test-bench: test/ imports nothing from bench/ or demo/ except bench/support/, the helpers
 *   the page, the tests and the benches share; tests OF the bench driver or the page live
 *   beside them (bench/device/*.test.ts, demo/bench/*.test.ts).
 * - bench-test: bench/ and demo/ import no code from test/; the known-answer JSON in
 *   test/vectors/ is data they read, kept beside the Rust crate that writes it.
 * - support-leaf: bench/support/ imports only src/, itself and that data, so a test that
 *   imports it pulls in no bench or page code.
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** src/ layers, lowest first; a path not listed (sched's users, whir/, worker/, prover.ts ...) is the top. */
export const LAYERS: readonly (readonly string[])[] = [
  ['src/params/', 'src/wgsl/'],
  // Errors, input checks and the method tables any layer may use (each imports only these and params).
  ['src/errors.ts', 'src/validate.ts', 'src/warm-up-families.ts', 'src/methods.ts', 'src/lazy.ts'],
  ['src/field/'],
  ['src/ref/'],
  ['src/gpu/'],
  ['src/sched/'],
  ['src/kernels/'],
  ['src/api/'],
];

/** Today's src/kernels -> src/ref imports; the merger empties this once i22-field lands. */
export const KERNEL_REF_ALLOWED: readonly string[] = [];

export interface SourceFile {
  path: string;
  text: string;
}
export interface Violation {
  path: string;
  line: number;
  rule: string;
  message: string;
}

const VECTOR_DATA = /^test\/vectors\/[^/]+\.json$/;
const under = (path: string, dir: string) => path.startsWith(dir);

const LAYER_NAMES = [...LAYERS.map((dirs) => dirs.map((d) => d.slice(4).replace(/\/$|\.ts$/, '')).join(', ')), 'the rest of src'].join(
  ' < ',
);

function layerOf(path: string): number {
  const i = LAYERS.findIndex((dirs) => dirs.some((d) => (d.endsWith('/') ? under(path, d) : path === d)));
  return i < 0 ? LAYERS.length : i;
}

/** `from` and `to` are repo-relative with .ts for .js; returns the rule it breaks, or undefined. */
function check(from: string, to: string, allowed: Set<string>, used: Set<string>): [string, string] | undefined {
  if (under(from, 'src/')) {
    if (!under(to, 'src/')) return ['src-outside', `src/ imports nothing outside src/ (${to})`];
    if (under(from, 'src/kernels/') && under(to, 'src/ref/')) {
      const key = `${from} -> ${to}`;
      if (allowed.has(key)) return void used.add(key);
      return ['kernels-ref', `src/kernels imports no src/ref (${to}): host field math is in src/field`];
    }
    if (layerOf(to) > layerOf(from)) return ['layer', `${to} is a higher layer (${LAYER_NAMES})`];
    return undefined;
  }
  if (under(from, 'bench/support/') && !(under(to, 'src/') || under(to, 'bench/support/') || VECTOR_DATA.test(to))) {
    return ['support-leaf', `bench/support/ imports only src/, bench/support/ and test/vectors/*.json (${to})`];
  }
  if (under(from, 'test/') && (under(to, 'demo/') || (under(to, 'bench/') && !under(to, 'bench/support/')))) {
    return ['test-bench', `test/ imports nothing from bench/ or demo/ except bench/support/ (${to})`];
  }
  if ((under(from, 'bench/') || under(from, 'demo/')) && under(to, 'test/') && !VECTOR_DATA.test(to)) {
    return ['bench-test', `bench/ and demo/ import no code from test/ (${to}); shared helpers go in bench/support/`];
  }
  return undefined;
}

/** The violations in `files` (paths repo-relative, '/'-separated). */
export function lintImports(files: readonly SourceFile[], allowList: readonly string[] = KERNEL_REF_ALLOWED): Violation[] {
  const allowed = new Set(allowList);
  const used = new Set<string>();
  const out: Violation[] = [];
  for (const { path, text } of files) {
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const to = posix.normalize(posix.join(posix.dirname(path), ref.fileName)).replace(/\.js$/, '.ts');
      const broken = check(path, to, allowed, used);
      if (broken) out.push({ path, line: text.slice(0, ref.pos).split('\n').length, rule: broken[0], message: broken[1] });
    }
  }
  for (const key of allowed) {
    if (!used.has(key)) {
      out.push({
        path: 'scripts/lint-imports.ts',
        line: 1,
        rule: 'kernels-ref',
        message: `KERNEL_REF_ALLOWED lists "${key}", which no file imports any more: remove it`,
      });
    }
  }
  return out;
}

const ROOTS = ['src', 'test', 'bench', 'demo', 'scripts'];
// Installed and built folders, and the vectors' Rust crates (no TypeScript there).
const SKIP = new Set(['node_modules', 'dist', 'target', 'test/vectors']);

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!SKIP.has(name) && !SKIP.has(p.split('\\').join('/')) && !name.startsWith('.')) walk(p, out);
    } else if (/\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const files = ROOTS.flatMap((r) => walk(r, [])).map((p) => ({ path: p.split('\\').join('/'), text: readFileSync(p, 'utf8') }));
  const found = lintImports(files);
  for (const v of found) console.log(`${v.path}:${v.line}: ${v.rule}: ${v.message}`);
  console.log(`lint-imports: ${files.length} files, ${found.length} violation${found.length === 1 ? '' : 's'}`);
  process.exit(found.length ? 1 : 0);
}
