/**
 * Generates wgsl/kernels/ntt_stockham.gen.wgsl: one entry point per radix (1, 2, 4, 8, 16, 32) of a
 * Stockham NTT pass, written out straight-line. Why generated: the first version looped over a
 * `var v: array<u32, R>`; on the H100 (Dawn/Vulkan) the driver kept that array in local memory
 * (2^24 dft: 11.9 ms, 64x t_limit). With one named variable per value and constant indices
 * everywhere, the values are registers by construction. The plan and index formulas are those
 * of src/kernels/ntt/passes.ts (checked on the CPU by test/unit/ntt-plan.test.ts). The prelude,
 * the butterflies and the two-level entry points live in scripts/ntt-wgsl/.
 *
 * Each radix R ≥ 4 also gets `ntt_pass_r${R}_staged`, for the first pass of a transform that is
 * not its last. There ns = 1, so thread j stores rows j·R .. j·R + R − 1: at width 1 the 32 lanes
 * of a warp store at a stride of R words (128 bytes at R = 32), one 4-byte word per 32-byte
 * sector per store, while every later pass stores runs of ≥ 32 consecutive words. On the H100
 * the width-1 passes ran at ~1/3 of copy bandwidth and width 8 (32-byte pieces) 1.75x more
 * efficiently per element. The staged kernel writes its outputs to a 16 KiB workgroup tile and
 * then copies the tile out as one contiguous block (consecutive threads, consecutive words).
 *
 *   node --import tsx scripts/gen-ntt-wgsl.ts          write the file, then run `npm run gen`
 *   node --import tsx scripts/gen-ntt-wgsl.ts --check  exit 1 if it is stale
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NTT_FUSED_RADICES, NTT_TWO_LEVEL_RADICES } from '../src/kernels/ntt/passes.js';
import { reverseBits } from '../src/ref/ntt.js';
import { butterflies, MAX_RADIX } from './ntt-wgsl/butterflies.js';
import { NTT_PRELUDE } from './ntt-wgsl/prelude.js';
import { twoLevelEntry } from './ntt-wgsl/two-level.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'wgsl', 'kernels', 'ntt_stockham.gen.wgsl');
export const NTT_RADICES = [1, 2, 4, 8, 16, 32];
/**
 * Radices with a `_staged` entry point. Not 2: its workgroup would be NTT_STAGE_WORDS / 2 = 2048
 * threads, past the 1024 of the adapters we know, and a radix-2 pass is first-but-not-last only with maxRadix 2.
 */
export const NTT_STAGED_RADICES = [4, 8, 16, 32];
/** Radices with `_table`, `_split` and `_first` entry points (twiddles from a table / a split table / none): every R ≥ 2. */
export const NTT_TABLE_RADICES = [2, 4, 8, 16, 32];

/**
 * A register pass: twiddles computed ('running'), from a table or a split table, or none
 * (`_first`: a pass at Ns = 1, where k = 0, without the running twiddles' code, which the driver
 * would compile for nothing: the radix-32 pass compiled in ~0.6 s with it on the H100's host).
 */
function entry(R: number, tw: 'running' | 'table' | 'split' | 'none' = 'running'): string {
  const logR = Math.round(Math.log2(R));
  const L: string[] = [];
  L.push(`@compute @workgroup_size(NTT_WG)`);
  L.push(
    `fn ntt_pass_r${R}${tw === 'running' ? '' : tw === 'none' ? '_first' : `_${tw}`}(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {`,
  );
  L.push(`  let t = gid.x + gid.y * nwg.x * NTT_WG;`);
  L.push(`  let m = ntt_n() >> ${logR}u;`);
  L.push(`  if (t >= m * NTT_W) { return; }`);
  L.push(`  let col = t % NTT_W;`);
  L.push(`  let j = t / NTT_W;`);
  L.push(`  let k = j & (ntt_ns() - 1u);`);
  for (let r = 0; r < R; r++) L.push(`  var v${r} = ntt_load(j + ${r}u * m, col);`);
  L.push(...butterflies(R, tw, '  '));
  L.push(`  let base = (j - k) * ${R}u + k;`);
  for (let q = 0; q < R; q++) L.push(`  ntt_store(base, ${reverseBits(q, logR)}u, col, v${q});`);
  L.push(`}`);
  return L.join('\n');
}

/**
 * The first pass (ns = 1: k = 0, no twiddles) of a transform that has more passes, storing
 * through the workgroup tile: NTT_STAGE_WORDS / R threads cover rows [j0, j0 + wg / W) of all W
 * columns, whose R outputs each form one contiguous block of NTT_STAGE_WORDS words at j0·R·W.
 * The host runs it only when W divides wg and the pass has at least wg threads (every workgroup
 * full, so the block never runs past the matrix); the guards below only skip the padding
 * workgroups of a 2-D grid. No early return: the barrier must stay in uniform control flow.
 */
function stagedEntry(R: number): string {
  const logR = Math.round(Math.log2(R));
  const L: string[] = [];
  L.push(`@compute @workgroup_size(NTT_STAGE_WORDS / ${R}u)`);
  L.push(`fn ntt_pass_r${R}_staged(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32,`);
  L.push(`    @builtin(num_workgroups) nwg: vec3u) {`);
  L.push(`  const wg = NTT_STAGE_WORDS / ${R}u;`);
  L.push(`  const q = max(1u, ${R}u * NTT_W / 32u); // tile rows per lane group (see ntt_stage_slot)`);
  L.push(`  let t = gid.x + gid.y * nwg.x * wg;`);
  L.push(`  let m = ntt_n() >> ${logR}u;`);
  L.push(`  if (t < m * NTT_W) {`);
  L.push(`    let col = t % NTT_W;`);
  L.push(`    let j = t / NTT_W;`);
  for (let r = 0; r < R; r++) L.push(`    var v${r} = ntt_load(j + ${r}u * m, col);`);
  L.push(...butterflies(R, 'none', '    '));
  L.push(...stagedStore(R));
  return L.join('\n');
}

/**
 * The end of a staged entry: v0..v{R-1} (V[s] in v_rev(s)) into the tile, the barrier (outside
 * the thread guard, in uniform control flow), then the tile out as one contiguous block.
 */
function stagedStore(R: number): string[] {
  const logR = Math.round(Math.log2(R));
  const L: string[] = [];
  L.push(`    let base = (lid / NTT_W) * ${R}u;`);
  for (let q = 0; q < R; q++) L.push(`    ntt_stage[ntt_stage_slot((base + ${reverseBits(q, logR)}u) * NTT_W + col, q)] = v${q};`);
  L.push(`  }`);
  L.push(`  workgroupBarrier();`);
  L.push(`  let t0 = t - lid; // the workgroup's first thread: its block starts at word t0·R`);
  L.push(`  if (t0 < m * NTT_W) {`);
  L.push(`    for (var i = 0u; i < ${R}u; i++) {`);
  L.push(`      let x = lid + i * wg;`);
  L.push(`      dst[t0 * ${R}u + x] = ntt_stage[ntt_stage_slot(x, q)];`);
  L.push(`    }`);
  L.push(`  }`);
  L.push(`}`);
  return L;
}

/**
 * An lde's idft last pass (radix R1, Ns = n/R1, scale) fused with its dft's first pass (radix
 * 32 = R1·2^addedBits over the zero-padded 2^addedBits·n rows, staged store). No exchange between
 * threads: the idft's last-pass thread j writes rows j + s·Ns, the rows the dft's first-pass
 * thread j reads as its inputs s; its inputs R1..31 are the zero padding. prm is the idft pass's
 * uniform (with NTT_FLAG_INVERSE when the idft is this one pass: ntt_load reverses its rows).
 */
function ldeFusedEntry(R1: number): string {
  const R = MAX_RADIX,
    log1 = Math.round(Math.log2(R1));
  const L: string[] = [];
  const rename = (lines: string[]) => lines.map((l) => l.replace(/\bv(\d+)\b/g, 'a$1'));
  L.push(`@compute @workgroup_size(NTT_STAGE_WORDS / ${R}u)`);
  L.push(`fn ntt_lde_fused_r${R1}(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32,`);
  L.push(`    @builtin(num_workgroups) nwg: vec3u) {`);
  L.push(`  const wg = NTT_STAGE_WORDS / ${R}u;`);
  L.push(`  const q = max(1u, ${R}u * NTT_W / 32u); // tile rows per lane group (see ntt_stage_slot)`);
  L.push(`  let t = gid.x + gid.y * nwg.x * wg;`);
  L.push(`  let m = ntt_ns(); // the idft's last stride = the dft's first-pass row stride`);
  L.push(`  if (t < m * NTT_W) {`);
  L.push(`    let col = t % NTT_W;`);
  L.push(`    let j = t / NTT_W;`);
  L.push(`    let k = j;`);
  for (let r = 0; r < R1; r++) L.push(`    var a${r} = ntt_load(j + ${r}u * m, col);`);
  L.push(`    {`);
  L.push(...rename(butterflies(R1, 'running', '      ')));
  L.push(`    }`);
  // a_{rev(s)} holds V[s]; dft input r takes V[r], scaled at row j + r·Ns.
  for (let r = 0; r < R; r++) {
    if (r >= R1) {
      L.push(`    var v${r} = 0u;`);
      continue;
    }
    L.push(`    var v${r} = bb_mul(a${reverseBits(r, log1)}, ntt_scale(j + ${r}u * m));`);
  }
  L.push(`    {`);
  L.push(...butterflies(R, 'none', '      '));
  L.push(`    }`);
  L.push(...stagedStore(R));
  return L.join('\n');
}

export function nttWgsl(): string {
  const tables = (['table', 'split', 'none'] as const).flatMap((tw) => NTT_TABLE_RADICES.map((R) => entry(R, tw)));
  const fused = NTT_FUSED_RADICES.map(ldeFusedEntry);
  const two = NTT_TWO_LEVEL_RADICES.flatMap((R) => (['none', 'table', 'split'] as const).map((tw) => twoLevelEntry(R, tw)));
  return (
    NTT_PRELUDE +
    '\n' +
    [...NTT_RADICES.map((R) => entry(R)), ...tables, ...NTT_STAGED_RADICES.map(stagedEntry), ...fused, ...two].join('\n\n') +
    '\n'
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = nttWgsl();
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error(`${OUT} is stale: run node --import tsx scripts/gen-ntt-wgsl.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${OUT}`);
  }
}
