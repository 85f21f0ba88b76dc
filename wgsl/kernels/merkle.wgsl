// merkle.wgsl: Plonky3 MerkleTreeMmcs on the GPU: sponge-hash rows into leaf digests (coalesced row loads staged through workgroup memory) and fold MK_LOG tree levels per dispatch.
// requires: poseidon2_s16

// One dispatch = a workgroup-local subtree (host: src/kernels/merkle.ts): MK_WG = 2^MK_LOG
// threads each take one input node (a matrix row hashed with PaddingFreeSponge<Perm16,16,8,8>, or
// a digest of the level below), then fold up to MK_LOG levels with TruncatedPermutation<Perm16,2,8,16>
// through `mk_sh`, writing every level it makes so openings can read siblings later. 2^24 leaves
// take 3 dispatches (8 + 8 + 8 levels) in one submission.
// Digests are stored canonical: level 0 in `leaves`, level l >= 1 in `up` at word
// 8 (n - (n >> (l - 1))) for n leaves (levels back to back, root last).
// Leaf rows are staged 8 columns at a time for the workgroup's MK_WG rows: consecutive threads
// load consecutive words (a warp reads 4 runs of 8 words = 32 B sectors) instead of each thread
// reading its own row at a stride of `width` words. The permutation is p2s16_permute (state never
// indexed: registers by construction; cheap internal diagonal, 564 Montgomery multiplies).

struct MkParams {
  n: u32,      // leaves (a power of two)
  width: u32,  // row width for mk_leaves (1..4096)
  level: u32,  // level of this dispatch's input nodes (0 for mk_leaves)
  levels: u32, // levels to fold in this dispatch (<= MK_LOG, and 2^levels <= input nodes)
  group0: u32, // mk_leaves: the first workgroup (subtree) of this dispatch (rows hashed as their upload chunk lands)
  group_end: u32, // mk_leaves: one past its last workgroup
}

@group(0) @binding(0) var<uniform> p2_rc: array<vec4u, P2_RC_VEC4>;
@group(0) @binding(1) var<uniform> mp: MkParams;
@group(0) @binding(2) var<storage, read> rows: array<u32>;
@group(0) @binding(3) var<storage, read_write> leaves: array<u32>;
@group(0) @binding(4) var<storage, read_write> up: array<u32>;

// Two uses, separated by barriers: the row tile (row r, column c at r * 9 + c: the odd stride 9
// puts a warp's 32 reads of one column in 32 distinct banks) and then the digests, word-major
// (word j of node t at j * MK_WG + t). 9 * 256 words = 9 KiB of the 16 KiB WebGPU minimum.
var<workgroup> mk_sh: array<u32, 9u * MK_WG>;

fn up_offset(level: u32) -> u32 {
  return 8u * (mp.n - (mp.n >> (level - 1u)));
}

fn mk_digest(t: u32) -> P2S16 {
  return P2S16(
    mk_sh[2u * t], mk_sh[MK_WG + 2u * t], mk_sh[2u * MK_WG + 2u * t], mk_sh[3u * MK_WG + 2u * t],
    mk_sh[4u * MK_WG + 2u * t], mk_sh[5u * MK_WG + 2u * t], mk_sh[6u * MK_WG + 2u * t], mk_sh[7u * MK_WG + 2u * t],
    mk_sh[2u * t + 1u], mk_sh[MK_WG + 2u * t + 1u], mk_sh[2u * MK_WG + 2u * t + 1u], mk_sh[3u * MK_WG + 2u * t + 1u],
    mk_sh[4u * MK_WG + 2u * t + 1u], mk_sh[5u * MK_WG + 2u * t + 1u], mk_sh[6u * MK_WG + 2u * t + 1u], mk_sh[7u * MK_WG + 2u * t + 1u],
  );
}

// Node t's digest (lanes 0..7 of s, Montgomery form) into mk_sh, word-major.
fn mk_put(t: u32, s: P2S16) {
  mk_sh[t] = s.v0; mk_sh[MK_WG + t] = s.v1; mk_sh[2u * MK_WG + t] = s.v2; mk_sh[3u * MK_WG + t] = s.v3;
  mk_sh[4u * MK_WG + t] = s.v4; mk_sh[5u * MK_WG + t] = s.v5; mk_sh[6u * MK_WG + t] = s.v6; mk_sh[7u * MK_WG + t] = s.v7;
}

fn mk_store_up(o: u32, s: P2S16) {
  up[o] = bb_from_monty(s.v0); up[o + 1u] = bb_from_monty(s.v1); up[o + 2u] = bb_from_monty(s.v2); up[o + 3u] = bb_from_monty(s.v3);
  up[o + 4u] = bb_from_monty(s.v4); up[o + 5u] = bb_from_monty(s.v5); up[o + 6u] = bb_from_monty(s.v6); up[o + 7u] = bb_from_monty(s.v7);
}

// Level k >= 1 of a workgroup's fold: the node thread t makes there, whether it makes one, and
// keeping a made node (in mk_sh for the next level, in `up`). mk_fold and mk_leaves share them.
fn mk_fold_node(t: u32, group: u32, k: u32) -> u32 {
  return group * (MK_WG >> k) + t;
}

fn mk_fold_live(t: u32, node: u32, k: u32) -> bool {
  return k <= mp.levels && t < (MK_WG >> k) && node < ((mp.n >> mp.level) >> k);
}

fn mk_fold_keep(t: u32, node: u32, k: u32, s: P2S16) {
  mk_put(t, s);
  mk_store_up(up_offset(mp.level + k) + 8u * node, s);
}

// Fold the workgroup's nodes (mk_sh, Montgomery form) up mp.levels levels, storing each new level in `up`.
fn mk_fold(t: u32, group: u32) {
  for (var k = 1u; k <= MK_LOG; k++) {
    workgroupBarrier();
    let node = mk_fold_node(t, group, k);
    let live = mk_fold_live(t, node, k);
    var s: P2S16;
    if (live) { s = p2s16_permute(mk_digest(t)); }
    workgroupBarrier();
    if (live) { mk_fold_keep(t, node, k, s); }
  }
}

fn group_index(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.x + wid.y * nwg.x;
}

// One loop and one permutation call site: steps 0 .. chunks - 1 absorb the row's 8-column chunks,
// the next MK_LOG steps fold levels as mk_fold does (with its helpers). The compiler inlines every
// call site of the permutation, so the sponge and the fold each with their own (as mk_nodes has
// mk_fold's) doubled this pipeline's compile (bench/RESULTS.md, cold: 2026-11-26, 58bc912, H100).
@compute @workgroup_size(MK_WG)
fn mk_leaves(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let group = mp.group0 + group_index(wid, nwg);
  if (group >= mp.group_end) { return; } // a 2D grid's spare workgroups (uniform: the whole group returns)
  let first = group * MK_WG;
  let i = first + t;
  let w = mp.width;
  let chunks = (w + 7u) >> 3u;
  // PaddingFreeSponge in overwrite mode: chunk o..o+8 replaces lanes 0..len, the rest stays.
  var s = P2S16(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  for (var step = 0u; step < chunks + MK_LOG; step++) {
    var live = true; // absorbing: every thread (rows past n permute stale values; their digests are never stored)
    var node = 0u;
    let k = step + 1u - chunks; // folding (step >= chunks): the level this step makes
    if (step < chunks) {
      let o = 8u * step;
      workgroupBarrier(); // the previous chunk's tile reads are done
      // Stage columns o..o+8 of rows first..first+MK_WG: flat f = k * MK_WG + t is row f / 8, column f % 8.
      for (var k = 0u; k < 8u; k++) {
        let f = k * MK_WG + t;
        let r = f >> 3u;
        let c = f & 7u;
        if (first + r < mp.n && o + c < w) { mk_sh[r * 9u + c] = bb_to_monty(rows[(first + r) * w + o + c]); }
      }
      workgroupBarrier();
      let len = min(w - o, 8u);
      let b = t * 9u;
      s.v0 = mk_sh[b];
      if (len > 1u) { s.v1 = mk_sh[b + 1u]; }
      if (len > 2u) { s.v2 = mk_sh[b + 2u]; }
      if (len > 3u) { s.v3 = mk_sh[b + 3u]; }
      if (len > 4u) { s.v4 = mk_sh[b + 4u]; }
      if (len > 5u) { s.v5 = mk_sh[b + 5u]; }
      if (len > 6u) { s.v6 = mk_sh[b + 6u]; }
      if (len > 7u) { s.v7 = mk_sh[b + 7u]; }
    } else {
      if (k == 1u) {
        workgroupBarrier(); // the last tile's reads are done before digests overwrite mk_sh
        if (i < mp.n) {
          mk_put(t, s);
          let o = 8u * i;
          leaves[o] = bb_from_monty(s.v0); leaves[o + 1u] = bb_from_monty(s.v1); leaves[o + 2u] = bb_from_monty(s.v2); leaves[o + 3u] = bb_from_monty(s.v3);
          leaves[o + 4u] = bb_from_monty(s.v4); leaves[o + 5u] = bb_from_monty(s.v5); leaves[o + 6u] = bb_from_monty(s.v6); leaves[o + 7u] = bb_from_monty(s.v7);
        }
      }
      workgroupBarrier();
      node = mk_fold_node(t, group, k);
      live = mk_fold_live(t, node, k);
      if (live) { s = mk_digest(t); }
    }
    if (live) { s = p2s16_permute(s); }
    if (step >= chunks) {
      workgroupBarrier();
      if (live) { mk_fold_keep(t, node, k, s); }
    }
  }
}

@compute @workgroup_size(MK_WG)
fn mk_nodes(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let group = group_index(wid, nwg);
  let i = group * MK_WG + t;
  if (i < (mp.n >> mp.level)) {
    let o = up_offset(mp.level) + 8u * i;
    for (var j = 0u; j < 8u; j++) { mk_sh[j * MK_WG + t] = bb_to_monty(up[o + j]); }
  }
  mk_fold(t, group);
}
