/**
 * Writes the package's one declaration file, dist/index.d.ts: the public API of src/index.ts
 * and the types its signatures mention, nothing else (dts-bundle-generator). Per-file
 * declarations would ship every internal module (the buffer pool, the GPU context, kernel
 * plans) and, through them, WebGPU types (GPUBuffer, GPUDevice, GPUCommandEncoder) that a
 * consumer without `@webgpu/types` cannot resolve: `tsc --strict` then failed on our files.
 * test/unit/build.test.ts compiles a consumer against the packed tarball to keep it so.
 *
 *   node --import tsx scripts/build-types.ts [outFile]   (default dist/index.d.ts)
 * @module
 */
import { generateDtsBundle } from 'dts-bundle-generator';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Identifiers that would mean internals leaked into the public declarations. */
const INTERNAL_NAMES = ['GpuContext', 'BufferPool', 'PipelineCache', 'ApiEnv', 'GPUBuffer', 'GPUDevice', 'GPUCommandEncoder', 'GPUAdapter'];

/**
 * The bundler hoists each module's file-level comment (the one tagged `@module`) onto whatever
 * declaration it keeps first from that file, where it reads as that declaration's doc (the
 * buffer pool's design notes on PoolStats). Drop those blocks; declaration docs stay.
 */
function dropModuleComments(dts: string): string {
  return dts.replace(/\/\*\*(?:(?!\*\/)[\s\S])*?@module(?:(?!\*\/)[\s\S])*?\*\/\n?/g, '');
}

function buildTypes(outFile = 'dist/index.d.ts'): string {
  const [bundle] = generateDtsBundle([{ filePath: 'src/index.ts', output: { noBanner: true, exportReferencedTypes: false } }], {
    preferredConfigPath: 'tsconfig.build.json',
  });
  const dts = dropModuleComments(bundle);
  const leaked = INTERNAL_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(dts));
  if (leaked.length > 0) throw new Error(`build-types: internal names in the public declarations: ${leaked.join(', ')}`);
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, dts);
  return dts;
}

const outFile = process.argv[2] ?? 'dist/index.d.ts';
const dts = buildTypes(outFile);
console.log(`wrote ${outFile} (${dts.length} chars)`);
