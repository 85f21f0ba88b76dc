/**
 * The naga checker (bench/naga-check: a small CLI over the crates.io `naga` that wgpu, Firefox and
 * Deno compile WGSL with): build it once per process with cargo, write modules and a manifest to a
 * scratch folder, run it, and read its verdict per pipeline.
 *
 * Unlike the WHIR oracle (test/support/whir-oracle.ts), a missing cargo is an error, not a skip:
 * the test it serves is the only check that our WGSL compiles for Metal and D3D12 through naga.
 * The build runs inside bench/naga-check so its `.cargo/config.toml` applies (target directory
 * node_modules/.cache/naga-check); a cold build takes 1-3 minutes on 2 cores, later runs
 * ~0.2 s (cargo finds it up to date).
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PipelineCase } from './wgsl-modules.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The crate folder. */
export const NAGA_CHECK_DIR = join(ROOT, 'bench', 'naga-check');
const BINARY = join(
  ROOT,
  'node_modules',
  '.cache',
  'naga-check',
  'release',
  process.platform === 'win32' ? 'naga-check.exe' : 'naga-check',
);

let built: string | undefined;

/**
 * The path of the release binary, after `cargo build --release --locked` in bench/naga-check (a
 * no-op when up to date; crates come from crates.io, pinned by its Cargo.lock).
 * @throws Error when cargo is missing or the build fails.
 */
export function nagaCheckPath(): string {
  if (built !== undefined) return built;
  const version = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) {
    throw new Error(
      'cargo not found: test/unit/naga-targets.test.ts builds bench/naga-check (naga from crates.io) with Rust. ' +
        'Install Rust (https://rustup.rs, 1.87 or later), then run: cd bench/naga-check && cargo build --release --locked',
    );
  }
  const r = spawnSync('cargo', ['build', '--release', '--locked'], { cwd: NAGA_CHECK_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !existsSync(BINARY)) {
    throw new Error(`naga-check build failed (cargo exit ${r.status}); run: cd bench/naga-check && cargo build --release --locked`);
  }
  built = BINARY;
  return built;
}

/** One pipeline's verdict. */
export interface NagaVerdict {
  label: string;
  ok: boolean;
  /** where it failed: wgsl (parse), validate, overrides, msl, hlsl (SM 5.1 / 6.0), spv, entry */
  stage?: string;
  message?: string;
}

export interface NagaRun {
  verdicts: NagaVerdict[];
  /** the tool's summary line (naga version, modules, pipelines, failures) */
  summary: string;
  /** the scratch folder holding the modules (m<i>.wgsl) and manifest.tsv */
  dir: string;
}

/** Write `pipelines` (modules deduplicated by text) to a scratch folder and run the checker on them. */
export function runNagaCheck(pipelines: readonly PipelineCase[], outDir?: string): NagaRun {
  const dir = mkdtempSync(join(tmpdir(), 'naga-targets-'));
  const files = new Map<string, string>();
  const lines: string[] = [];
  for (const p of pipelines) {
    let file = files.get(p.code);
    if (file === undefined) {
      file = `m${files.size}.wgsl`;
      files.set(p.code, file);
      writeFileSync(join(dir, file), p.code);
    }
    const overrides = Object.entries(p.overrides)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const label = `${p.label}${overrides ? ` overrides {${overrides}}` : ''} (${file})`;
    lines.push([file, p.entryPoint, overrides || '-', label].join('\t'));
  }
  const manifest = join(dir, 'manifest.tsv');
  writeFileSync(manifest, lines.join('\n') + '\n');
  const args = [manifest, ...(outDir ? ['--out', outDir] : [])];
  const r = spawnSync(nagaCheckPath(), args, { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`naga-check exited ${r.status}: ${r.stderr}${r.error ?? ''}`);
  const verdicts = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line): NagaVerdict => {
      const [status, label, stage, message] = line.split('\t');
      return status === 'ok'
        ? { label, ok: true }
        : { label, ok: false, stage, message: message?.replace(/\\n/g, '\n').replace(/\\\\/g, '\\') };
    });
  return { verdicts, summary: r.stderr.trim().split('\n').pop() ?? '', dir };
}
