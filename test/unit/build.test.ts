// The package as npm ships it: `npm run build:dist` then `npm pack`, and the tarball, installed
// alone in a fresh project (its runtime dependencies linked from this repo: no network), must
// import in plain Node and type-check a consumer under `tsc --strict` with both `nodenext` and
// `bundler` resolution, with no WebGPU typings installed. Also lists what the tarball holds, checks
// that the WGSL ships as one lazily imported module per kernel family without the check/bench
// shaders, and that `npm publish --dry-run` is clean. The README's and docs/usage.md's TypeScript
// blocks compile against the tarball too, as does a file naming every type the README teaches.
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

let work: string; // temp dir: the tarball and the consumer projects
let packed: PackResult;
let fixture: string; // the tarball, its dependencies and typescript: no WebGPU typings
let withTypes: string; // the same plus @webgpu/types and 'webgpu' (Dawn), as a Node project has

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

/**
 * The types the README and docs/usage.md teach, named by a consumer, and the NTT methods' result
 * typed by their `gpu` option: a literal, absent, and a `boolean` held in a variable.
 */
const TYPES_CONSUMER = `import {
  createProver,
  type BackendStats,
  type Capabilities,
  type CheckMode,
  type CheckStats,
  type CheckThreadState,
  type Family,
  type FamilyPath,
  type JobOptions,
  type JobProgress,
  type JobStats,
  type MsmEngine,
  type MsmPlan,
  type MsmRunInfo,
  type MsmTuning,
  type NttMatrix,
  type NttOptions,
  type NttResult,
  type PassTime,
  type ProfileReport,
} from 'webgpu-prover';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(): T | undefined => undefined;

export async function typed(x: Uint32Array, gpu: boolean, points: Uint8Array): Promise<number> {
  const prover = await createProver();
  const check: CheckMode = 'sample';
  const seen: JobProgress[] = [];
  const job: JobOptions = { check, signal: new AbortController().signal, onProgress: (p) => seen.push(p) };
  const plain = await prover.dft(x, { width: 1, ...job });
  expectType<Equal<typeof plain, Uint32Array>>();
  const off = await prover.encode(x, { width: 1, addedBits: 1, gpu: false });
  expectType<Equal<typeof off, Uint32Array>>();
  const kept = await prover.lde(x, { width: 1, addedBits: 1, shift: 31, gpu: true });
  expectType<Equal<typeof kept, NttMatrix>>();
  const opts = { width: 1, gpu };
  const either = await prover.dft(x, opts);
  expectType<Equal<typeof either, Uint32Array | NttMatrix>>();
  const declared: NttOptions = { width: 1 };
  const alsoEither = await prover.idft(x, declared);
  expectType<Equal<typeof alsoEither, NttResult<NttOptions>>>();
  expectType<Equal<NttResult<NttOptions>, Uint32Array | NttMatrix>>();
  const values: Uint32Array = either instanceof Uint32Array ? either : await either.read(job);
  const caps: Capabilities = prover.capabilities();
  const families: Family[] = Object.keys(caps) as Family[];
  const ntt: FamilyPath = caps.ntt;
  const stats: BackendStats & { checks: CheckStats } = prover.stats();
  const jobs: JobStats = stats.jobs;
  const thread: CheckThreadState = stats.checks.thread;
  const bases = await prover.msmBases(points, job);
  const tuning: MsmTuning = { c: 13 };
  const info: MsmRunInfo = await bases.msmProfiled([1n], tuning, job);
  const plans: MsmPlan[] = info.plans;
  const engines: MsmEngine[] = info.engines;
  const profiles: (ProfileReport | null)[] = info.profiles;
  const passes: PassTime[] = profiles.flatMap((r) => r?.passes ?? []);
  kept.destroy();
  bases.destroy();
  prover.destroy();
  return values.length + families.length + (ntt.reason ?? '').length + jobs.run + thread.length + plans[0].c + engines.length + passes.length;
}
`;

/** snarkjs ships no types: the one call the README's Groth16 example makes. */
const SNARKJS_SHIM = `declare module 'snarkjs' {
  export const groth16: { verify(vk: unknown, publicSignals: string[], proof: unknown): Promise<boolean> };
}
`;

/** The type names in docs/usage.md's "Types you can name" table (its second column). */
function documentedTypes(): string[] {
  const doc = readFileSync(join(repo, 'docs/usage.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Types you can name'), doc.indexOf('\n## ', doc.indexOf('## Types you can name') + 1));
  const cells = [...section.matchAll(/^\|[^|\n]*\|([^|\n]*)\|$/gm)].map((m) => m[1]);
  return [...new Set(cells.flatMap((c) => [...c.matchAll(/`([A-Z]\w*)`/g)].map((m) => m[1])))];
}

/** The \`\`\`ts blocks of a Markdown file of this repository. */
function tsBlocks(doc: string): string[] {
  return [...readFileSync(join(repo, doc), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

/**
 * A new project `name` with `deps` in its node_modules: the unpacked tarball moved into the first
 * project (so its own imports resolve from that project's node_modules, as an install's do) and
 * linked into later ones; every other dependency linked from this repo.
 */
function project(name: string, deps: string[]): string {
  const dir = join(work, name);
  for (const dep of deps) {
    const at = join(dir, 'node_modules', dep);
    mkdirSync(dirname(at), { recursive: true });
    if (dep !== 'webgpu-prover') symlinkSync(join(repo, 'node_modules', dep), at, 'dir');
    else if (!fixture) renameSync(join(work, 'package'), at);
    else symlinkSync(join(fixture, 'node_modules/webgpu-prover'), at, 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

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

  run('tar', ['-xzf', join(work, packed.filename), '-C', work]); // the package, as work/package
  const manifest = JSON.parse(readFileSync(join(work, 'package/package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  // What `npm install webgpu-prover` would add: its dependencies (theirs resolve from the repo
  // through the links' real paths), and typescript to compile with. Nothing else.
  const deps = ['webgpu-prover', ...Object.keys(manifest.dependencies ?? {}), 'typescript'];
  fixture = project('consumer', deps);
  withTypes = project('consumer-webgpu', [...deps, '@webgpu/types', 'webgpu']);
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

    it(`compiles the README's and docs/usage.md's examples and names every type they teach, tsc --strict, ${resolution}`, () => {
      // Each block is a module of its own (top-level await, as a user's module has). The ones
      // that import Dawn ('webgpu') compile where it is installed; the rest with no WebGPU
      // typings at all, as a browser project without @webgpu/types has.
      const blocks = [...tsBlocks('README.md'), ...tsBlocks('docs/usage.md')];
      expect(blocks.length).toBeGreaterThanOrEqual(4);
      const files: Record<'plain' | 'dawn', string[]> = { plain: ['snarkjs.d.ts', 'documented.ts', 'types.ts'], dawn: [] };
      for (const [i, code] of blocks.entries()) {
        const where = /from 'webgpu'/.test(code) ? 'dawn' : 'plain';
        writeFileSync(join(where === 'dawn' ? withTypes : fixture, `example-${i}.ts`), code);
        files[where].push(`example-${i}.ts`);
      }
      const named = documentedTypes();
      expect(named).toEqual(expect.arrayContaining(['JobOptions', 'JobProgress', 'CheckMode', 'Capabilities', 'JobStats', 'BackendStats']));
      expect(named).toEqual(expect.arrayContaining(['MsmRunInfo', 'MsmPlan', 'MsmEngine', 'ProfileReport', 'PassTime', 'NttResult']));
      writeFileSync(join(fixture, 'snarkjs.d.ts'), SNARKJS_SHIM);
      // An import of a name the package does not export fails even where the name is unused.
      writeFileSync(join(fixture, 'documented.ts'), `import type { ${named.join(', ')} } from 'webgpu-prover';\nexport {};\n`);
      writeFileSync(join(fixture, 'types.ts'), TYPES_CONSUMER);
      run('node', [tsc, '--strict', '--noEmit', '--target', 'es2022', ...flags, ...files.plain], fixture);
      if (files.dawn.length > 0) run('node', [tsc, '--strict', '--noEmit', '--target', 'es2022', ...flags, ...files.dawn], withTypes);
    });
  }

  it("accepts navigator.gpu and Dawn's create([]) where a project has WebGPU typings", () => {
    // The second project, with @webgpu/types and 'webgpu' installed too: the package's own
    // GpuEntryPoint must take the real GPU objects.
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
