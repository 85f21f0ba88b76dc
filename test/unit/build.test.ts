// The package as npm ships it: `npm run build:dist` then `npm pack`, and the tarball, installed
// alone in a fresh project (its runtime dependencies linked from this repo: no network), must
// import in plain Node and type-check a consumer under `tsc --strict` with both `nodenext` and
// `bundler` resolution, with no WebGPU typings installed. Also lists what the tarball holds, checks
// that the WGSL ships as one lazily imported module per kernel family without the check/bench
// shaders, and that `npm publish --dry-run` is clean.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repo = process.cwd();
const tsc = join(repo, 'node_modules/typescript/bin/tsc');

/** Run a command; a non-zero exit fails the calling test with the command's output. */
function run(cmd: string, args: string[], cwd = repo): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

let work: string; // temp dir: the tarball and the consumer project
let packed: PackResult;
let fixture: string;

/** A consumer that uses the public API the way the README does, types included. */
const CONSUMER = `import { createProver, ProverError, isProverError, babybear, type Prover, type ProverErrorCode, type NttMatrix } from 'webgpu-prover';
export async function use(): Promise<number> {
  let prover: Prover | undefined;
  try {
    prover = await createProver({ powerPreference: 'high-performance' });
    const c: Uint32Array = await prover.batchField('mul', new Uint32Array([1]), new Uint32Array([2]));
    const m: NttMatrix = await prover.dft(c, { width: 1, gpu: true });
    m.destroy();
    return c[0] + babybear.BB_P;
  } catch (e) {
    const code: ProverErrorCode | undefined = isProverError(e) ? e.code : undefined;
    if (e instanceof ProverError) throw new Error(code);
    return -1;
  } finally {
    prover?.destroy();
  }
}
`;

/** Compile options per resolution mode; no `types`/`lib` beyond the defaults a new project has. */
const RESOLUTIONS = {
  nodenext: ['--module', 'nodenext', '--moduleResolution', 'nodenext'],
  bundler: ['--module', 'esnext', '--moduleResolution', 'bundler'],
};

beforeAll(() => {
  // No `npm run gen` here: it rewrites tracked generated files that other test files read.
  run('npm', ['run', 'build:dist']);
  work = mkdtempSync(join(tmpdir(), 'wgp-pack-'));
  // --ignore-scripts: prepack would run the full build (gen included) a second time.
  [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work])) as PackResult[];

  fixture = join(work, 'consumer');
  mkdirSync(join(fixture, 'node_modules'), { recursive: true });
  run('tar', ['-xzf', join(work, packed.filename), '-C', work]);
  renameSync(join(work, 'package'), join(fixture, 'node_modules/webgpu-prover'));
  const manifest = JSON.parse(readFileSync(join(fixture, 'node_modules/webgpu-prover/package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  // What `npm install webgpu-prover` would add: its dependencies (theirs resolve from the repo
  // through the links' real paths), and typescript to compile with. Nothing else.
  for (const dep of [...Object.keys(manifest.dependencies ?? {}), 'typescript']) {
    mkdirSync(dirname(join(fixture, 'node_modules', dep)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', dep), join(fixture, 'node_modules', dep), 'dir');
  }
  writeFileSync(join(fixture, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(fixture, 'consumer.ts'), CONSUMER);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('packed tarball', () => {
  it('holds dist, the licences, the README and the changelog, and no dev-only files', () => {
    const paths = packed.files.map((f) => f.path).sort();
    console.log(
      `${packed.filename}: ${(packed.size / 1024).toFixed(1)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${paths.length} files`,
    );
    for (const name of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE', 'dist/index.js', 'dist/index.d.ts'])
      expect(paths).toContain(name);
    const unexpected = paths.filter(
      (p) =>
        !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE', 'dist/index.d.ts'].includes(p) &&
        !/^dist\/.+\.js(\.map)?$/.test(p),
    );
    expect(unexpected).toEqual([]);
    // One declaration file: internal modules' declarations are not shipped.
    expect(paths.filter((p) => p.endsWith('.d.ts'))).toEqual(['dist/index.d.ts']);
    const licenses = readFileSync(join(fixture, 'node_modules/webgpu-prover/LICENSE-APACHE'), 'utf8');
    expect(licenses).toContain('Apache License');
  });

  it('ships source maps whose sources are inlined and equal src/', () => {
    const maps = packed.files.map((f) => f.path).filter((p) => p.endsWith('.js.map'));
    const scripts = packed.files.map((f) => f.path).filter((p) => p.endsWith('.js'));
    expect(maps.length).toBe(scripts.length);
    for (const map of maps) {
      const m = JSON.parse(readFileSync(join(fixture, 'node_modules/webgpu-prover', map), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      expect(m.sourcesContent?.length, map).toBe(m.sources.length);
      m.sources.forEach((source, i) => {
        // `sources` are relative to the map as it sits in this repo's dist/.
        expect(m.sourcesContent![i], `${map} -> ${source}`).toBe(readFileSync(resolve(repo, dirname(map), source), 'utf8'));
      });
    }
  });

  it('imports in plain Node from a project that installed only it', () => {
    const keys = run(
      'node',
      ['--input-type=module', '-e', "const m = await import('webgpu-prover'); console.log(Object.keys(m).sort().join(','))"],
      fixture,
    );
    expect(keys.trim().split(',')).toEqual(expect.arrayContaining(['createProver', 'ProverError', 'isProverError', 'babybear']));
  });

  for (const [resolution, flags] of Object.entries(RESOLUTIONS)) {
    it(`type-checks a consumer with tsc --strict, moduleResolution ${resolution}`, () => {
      // Throws with tsc's diagnostics (e.g. "Cannot find name 'GPUBuffer'") on failure.
      run('node', [tsc, '--strict', '--noEmit', '--target', 'es2022', ...flags, 'consumer.ts'], fixture);
    });
  }

  it("accepts navigator.gpu and Dawn's create([]) where a project has WebGPU typings", () => {
    // A second project beside the first, with @webgpu/types and 'webgpu' installed too: the
    // package's own GpuEntryPoint must take the real GPU objects.
    const withTypes = join(work, 'consumer-webgpu');
    for (const dep of [
      'webgpu-prover',
      ...Object.keys(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).dependencies),
      'typescript',
      '@webgpu/types',
      'webgpu',
    ]) {
      const from = dep === 'webgpu-prover' ? join(fixture, 'node_modules/webgpu-prover') : join(repo, 'node_modules', dep);
      mkdirSync(dirname(join(withTypes, 'node_modules', dep)), { recursive: true });
      symlinkSync(from, join(withTypes, 'node_modules', dep), 'dir');
    }
    writeFileSync(join(withTypes, 'package.json'), JSON.stringify({ name: 'consumer-webgpu', private: true, type: 'module' }));
    writeFileSync(
      join(withTypes, 'gpu.ts'),
      `/// <reference types="@webgpu/types" />
import { create } from 'webgpu';
import { createProver } from 'webgpu-prover';
export const inBrowser = () => createProver({ gpu: navigator.gpu, powerPreference: 'low-power' });
export const inNode = () => createProver({ gpu: create([]) });
`,
    );
    run('node', [tsc, '--strict', '--noEmit', '--target', 'es2022', ...RESOLUTIONS.nodenext, 'gpu.ts'], withTypes);
  });

  it('ships the WGSL as one module per kernel family, imported lazily, and no check/bench shader', async () => {
    const { DEV_ONLY_KERNELS, familyOf, linkAll } = await import('../../scripts/gen-wgsl.js');
    const dist = join(fixture, 'node_modules/webgpu-prover/dist');
    const families = [
      ...new Set(
        Object.keys(linkAll())
          .filter((k) => !DEV_ONLY_KERNELS.has(k))
          .map(familyOf),
      ),
    ].sort();
    const modules = readdirSync(join(dist, 'wgsl')).filter((f) => f.endsWith('.gen.js') && f !== 'kernels.gen.js');
    expect(modules.sort()).toEqual(families.map((f) => `${f}.gen.js`));
    // Each family's module is reached only through import() (the bundlers' chunk boundary).
    const index = readFileSync(join(dist, 'wgsl/kernels.gen.js'), 'utf8');
    for (const f of families) expect(index).toContain(`import('./${f}.gen.js')`);
    const scripts = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.js'));
    const staticImports = scripts.filter((p) =>
      /^import\s[^(]*['"][^'"]*\/wgsl\/(?!kernels\.gen)[^'"]+['"]/m.test(readFileSync(join(dist, p), 'utf8')),
    );
    expect(staticImports).toEqual([]);
    // The check and bench shaders stay in bench/support/wgsl-dev.gen.ts.
    for (const k of DEV_ONLY_KERNELS) {
      expect(
        scripts.filter((p) => readFileSync(join(dist, p), 'utf8').includes(`// ${k}.wgsl:`)),
        k,
      ).toEqual([]);
    }
    const sizes = modules.map((m) => `${m} ${(readFileSync(join(dist, 'wgsl', m)).length / 1024).toFixed(0)} KiB`);
    console.log(`WGSL per family: ${sizes.join(', ')}`);
  });

  it("loads each family's host code and noble on first use: the entries' static imports reach none of them", () => {
    const dist = join(fixture, 'node_modules/webgpu-prover/dist');
    /** Every module `entry` imports statically, transitively (dist paths, and bare package names). */
    const closure = (entry: string): Set<string> => {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        if (!file.startsWith('.')) return; // a package: not followed
        const text = readFileSync(join(dist, file), 'utf8');
        const specs = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm)].map(
          (m) => m[1] ?? m[2],
        );
        for (const s of specs) visit(s.startsWith('.') ? `./${join(dirname(file), s)}` : s);
      };
      visit(entry);
      return seen;
    };
    // What a family's first call loads (src/lazy.ts), and what the page's client must not hold either (kernels/
    // are one family's host code each, but for the range check every upload runs and the first call's prefetch,
    // whose cases import their family's kernels: its own imports are followed here).
    const lazy =
      /^(\.\/(api\/(field|ntt|poseidon2|merkle|grind|commit|msm[-\w]*)|cpu\/(field|ntt|hash|msm)|kernels\/(?!canonical|first-call)[-\w]+|whir\/(whir|prover|verifier))\.js|@noble\/curves\/.*)$/;
    for (const entry of ['./worker/worker.js', './index.js']) {
      const reached = [...closure(entry)];
      expect(reached.length, entry).toBeGreaterThan(10);
      expect(
        reached.filter((f) => lazy.test(f)),
        entry,
      ).toEqual([]);
    }
    // The test can fail: the in-thread prover's module does reach the MSM's code once it loads it.
    expect([...closure('./api/msm.js')].filter((f) => lazy.test(f))).toEqual(
      expect.arrayContaining(['./api/msm.js', '@noble/curves/bn254.js']),
    );
  });

  it('npm publish --dry-run is clean, offline', () => {
    // Offline-safe: --offline, an unreachable registry (nothing to talk to) and a throwaway
    // userconfig whose dummy token for that registry stops the "requires you to be logged in"
    // warning. npm still runs its publish checks (manifest normalisation, files, size).
    const npmrc = join(work, 'publish.npmrc');
    writeFileSync(npmrc, '//127.0.0.1:9/:_authToken=dry-run-only\n');
    const r = spawnSync(
      'npm',
      ['publish', '--dry-run', '--json', '--ignore-scripts', '--offline', '--registry', 'http://127.0.0.1:9/', '--userconfig', npmrc],
      { cwd: repo, encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const noise = r.stderr.split('\n').filter((l) => /^npm (warn|error|ERR)/i.test(l));
    expect(noise).toEqual([]);
    const out = JSON.parse(r.stdout) as Record<string, PackResult & { id: string }>;
    expect(out['webgpu-prover'].id).toBe(`webgpu-prover@${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version}`);
    expect(out['webgpu-prover'].files.map((f) => f.path).sort()).toEqual(packed.files.map((f) => f.path).sort());
  });

  it('declares no internals and no WebGPU types', () => {
    const dts = readFileSync(join(fixture, 'node_modules/webgpu-prover/dist/index.d.ts'), 'utf8');
    for (const name of ['GpuContext', 'BufferPool', 'PipelineCache', 'GPUBuffer', 'GPUDevice', 'GPUCommandEncoder'])
      expect(dts).not.toMatch(new RegExp(`\\b${name}\\b`));
  });
});
