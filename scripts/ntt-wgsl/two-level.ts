/**
 * The two-level entry points of wgsl/kernels/ntt_stockham.gen.wgsl (`ntt_pass2_r${R}`, `_table`,
 * `_split`): a radix-R·R Stockham pass as two register halves exchanging through workgroup memory.
 * @module
 */
import { reverseBits } from '../../src/ref/ntt.js';
import { butterflies, splitMul, splitPrologue } from './butterflies.js';

/** A two-level second half's inputs (`${x}1`.. of thread jp) times ω_T^(jp·r2) from the inner table `tt` (Shoup). */
function innerTwiddles(R: number, x: string, ind: string): string[] {
  const L = [`${ind}if (jp != 0u) {`];
  for (let r2 = 1; r2 < R; r2++) L.push(`${ind}  ${x}${r2} = ntt_mul_inner(${x}${r2}, tt[${(r2 - 1) * R}u + jp]);`);
  L.push(`${ind}}`);
  return L;
}

/**
 * A Stockham pass of radix T = R·R run as two register halves that exchange through workgroup
 * memory (a two-level pass): one pass over the matrix does the work of two radix-R passes. A
 * workgroup owns NTT_TG consecutive groups j (all NTT_W columns: NTT_TL lanes) and runs R threads
 * per lane. Per group the T inputs u[r] = x[j + r·m]·ω_{Ns·T}^(k·r) (m = n/T, k = j mod Ns) go
 * through a T-point DFT as a Stockham transform of its own: first half (its Ns = 1) thread j' < R
 * takes u[j' + r1·R], a radix-R DFT, z[j'·R + s1] to the tile; second half (its Ns = R) thread j''
 * takes z[j'' + r2·R]·ω_T^(j''·r2) (table `tt`), a radix-R DFT, and V[j'' + s2·R] is output s of
 * the pass, stored like a register pass's (ntt_store: the last pass scales, bit-reverses).
 * Pre-twiddles: none (Ns = 1), a pass table in `sc` ('table'), or a split table in `tw` ('split').
 * test/unit/ntt-two-level.test.ts runs the same index maths on the CPU (src/kernels/ntt/passes.ts tile2Word, tile2Out).
 */
export function twoLevelEntry(R: number, tw: 'none' | 'table' | 'split'): string {
  const logR = Math.round(Math.log2(R)),
    T = R * R;
  const L: string[] = [];
  L.push(`@compute @workgroup_size(NTT_TL * ${R}u)`);
  L.push(
    `fn ntt_pass2_r${R}${tw === 'none' ? '' : `_${tw}`}(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u,`,
  );
  L.push(`    @builtin(num_workgroups) nwg: vec3u) {`);
  L.push(`  let m = ntt_n() >> ${2 * logR}u;`);
  L.push(`  let g0 = (wid.x + wid.y * nwg.x) * NTT_TG;`);
  L.push(`  let live = g0 < m; // uniform per workgroup: padding workgroups of a 2-D grid skip the work, not the barriers`);
  L.push(`  let lane = lid % NTT_TL;`);
  L.push(`  let jp = lid / NTT_TL;`);
  L.push(`  let c = lane / NTT_W;`);
  L.push(`  let col = lane - c * NTT_W;`);
  L.push(`  let j = g0 + c;`);
  L.push(`  let k = j & (ntt_ns() - 1u);`);
  L.push(`  ${Array.from({ length: R }, (_, r) => `var v${r} = 0u;`).join(' ')}`);
  L.push(`  if (live) {`);
  // A split pass may rotate its inputs (NTT_FLAG_ROTATE: input r takes row and twiddle r − 1 mod T).
  const row = (r1: number) => (tw === 'split' ? `ntt_rot_row(jp + ${r1 * R}u, ${T}u)` : `(jp + ${r1 * R}u)`);
  for (let r1 = 0; r1 < R; r1++) L.push(`    v${r1} = ntt_load(j + ${row(r1)} * m, col);`);
  if (tw === 'table') {
    L.push(`    let tq = ${T - 1}u * ntt_ns();`);
    L.push(`    if (jp != 0u) { v0 = ntt_table_mul(v0, (jp - 1u) * ntt_ns() + k, tq); }`);
    for (let r1 = 1; r1 < R; r1++) L.push(`    v${r1} = ntt_table_mul(v${r1}, (jp + ${r1 * R - 1}u) * ntt_ns() + k, tq);`);
  }
  if (tw === 'split') {
    // With NTT_FLAG_FOLDED_SCALE the table also carries an lde's scale (src/kernels/ntt/tables.ts SplitScale):
    // row 0 multiplies too.
    L.push(`    let folded = (ntt_flags() & NTT_FLAG_FOLDED_SCALE) != 0u;`);
    L.push(...splitPrologue(T, '    '));
    for (let r1 = 0; r1 < R; r1++) {
      L.push(`    ${r1 === 0 ? 'if (jp != 0u || folded) ' : ''}${splitMul(`v${r1}`, row(r1))}`);
    }
  }
  L.push(`    {`);
  L.push(...butterflies(R, 'none', '      '));
  L.push(`    }`);
  for (let s1 = 0; s1 < R; s1++) L.push(`    ntt_tile2[ntt_tile2_word(jp * ${R}u + ${s1}u, ${logR}u) + lane] = v${reverseBits(s1, logR)};`);
  L.push(`  }`);
  L.push(`  workgroupBarrier();`);
  L.push(`  if (live) {`);
  for (let r2 = 0; r2 < R; r2++) L.push(`    v${r2} = ntt_tile2[ntt_tile2_word(jp + ${r2 * R}u, ${logR}u) + lane];`);
  L.push(...innerTwiddles(R, 'v', '    '));
  L.push(`    {`);
  L.push(...butterflies(R, 'none', '      '));
  L.push(`    }`);
  L.push(`  }`);
  L.push(`  // A first pass that is not the last writes rows j·T + s: one contiguous block per workgroup,`);
  L.push(`  // copied out of the tile (as the staged register pass does) instead of runs of R·4 bytes.`);
  L.push(`  if (ntt_ns() == 1u && (ntt_flags() & NTT_FLAG_LAST) == 0u) {`);
  L.push(`    workgroupBarrier(); // every thread has read its second-half inputs`);
  L.push(`    if (live) {`);
  for (let s2 = 0; s2 < R; s2++) L.push(`      ntt_tile2[ntt_tile2_out(jp + ${s2 * R}u, lane)] = v${reverseBits(s2, logR)};`);
  L.push(`    }`);
  L.push(`    workgroupBarrier();`);
  L.push(`    if (live) {`);
  L.push(`      for (var i = 0u; i < ${R}u; i++) {`);
  L.push(`        let x = lid + i * NTT_TL * ${R}u; // word x of the block: group x / (T·W), row s, column`);
  L.push(`        let jl = x / (${T}u * NTT_W);`);
  L.push(`        let s = (x / NTT_W) & ${T - 1}u;`);
  L.push(`        dst[g0 * ${T}u * NTT_W + x] = ntt_tile2[ntt_tile2_out(s, jl * NTT_W + x % NTT_W)];`);
  L.push(`      }`);
  L.push(`    }`);
  L.push(`  } else if (live) {`);
  L.push(`    let base = (j - k) * ${T}u + k;`);
  for (let s2 = 0; s2 < R; s2++) L.push(`    ntt_store(base, jp + ${s2 * R}u, col, v${reverseBits(s2, logR)});`);
  L.push(`  }`);
  L.push(`}`);
  return L.join('\n');
}
