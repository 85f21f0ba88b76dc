// merkle.wgsl: Plonky3 MerkleTreeMmcs on the GPU: sponge-hash rows into leaf digests and fold MK_LOG tree levels per dispatch in workgroup memory.
// requires: poseidon2

// One dispatch = a workgroup-local subtree: MK_WG = 2^MK_LOG threads each take one input node
// (a matrix row hashed with PaddingFreeSponge<Perm16,16,8,8>, or a digest of the level below),
// then fold up to MK_LOG levels with TruncatedPermutation<Perm16,2,8,16> through `mk_sh`,
// writing every level it makes so openings can read siblings later. 2^24 leaves take 3
// dispatches (8 + 8 + 8 levels) in one submission.
// Digests are stored canonical: level 0 in `leaves`, level l >= 1 in `up` at word
// 8 (n - (n >> (l - 1))) for n leaves (levels back to back, root last).

struct MkParams {
  n: u32,      // leaves (a power of two)
  width: u32,  // row width for mk_leaves (1..4096)
  level: u32,  // level of this dispatch's input nodes (0 for mk_leaves)
  levels: u32, // levels to fold in this dispatch (<= MK_LOG, and 2^levels <= input nodes)
}

@group(0) @binding(0) var<uniform> p2_rc: array<vec4u, P2_RC_VEC4>;
@group(0) @binding(1) var<uniform> mp: MkParams;
// Row-major matrix, n rows x width canonical values (mk_leaves reads it; mk_nodes ignores it).
@group(0) @binding(2) var<storage, read> rows: array<u32>;
@group(0) @binding(3) var<storage, read_write> leaves: array<u32>;
@group(0) @binding(4) var<storage, read_write> up: array<u32>;

// 8 digest words per node, word-major (mk_sh[j * MK_WG + t]) so a warp's accesses hit distinct banks.
var<workgroup> mk_sh: array<u32, 8u * MK_WG>;

fn up_offset(level: u32) -> u32 {
  return 8u * (mp.n - (mp.n >> (level - 1u)));
}

// Fold the workgroup's nodes (mk_sh, Montgomery form) up mp.levels levels. Every thread runs
// the loop (barriers need uniform control flow); thread t makes node t of the level if it exists.
fn mk_fold(t: u32, group: u32) {
  let count = mp.n >> mp.level; // input nodes at this dispatch's level
  for (var k = 1u; k <= MK_LOG; k++) {
    workgroupBarrier();
    let node = group * (MK_WG >> k) + t;
    let live = k <= mp.levels && t < (MK_WG >> k) && node < (count >> k);
    var s: p2_state;
    if (live) {
      for (var j = 0u; j < 8u; j++) {
        s[j] = mk_sh[j * MK_WG + 2u * t];
        s[8u + j] = mk_sh[j * MK_WG + 2u * t + 1u];
      }
      p2_permute(&s);
    }
    workgroupBarrier();
    if (live) {
      let o = up_offset(mp.level + k) + 8u * node;
      for (var j = 0u; j < 8u; j++) {
        mk_sh[j * MK_WG + t] = s[j];
        up[o + j] = bb_from_monty(s[j]);
      }
    }
  }
}

fn group_index(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.x + wid.y * nwg.x;
}

@compute @workgroup_size(MK_WG)
fn mk_leaves(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let group = group_index(wid, nwg);
  let i = group * MK_WG + t;
  if (i < mp.n) {
    // Sponge in overwrite mode: each chunk of <= 8 values replaces s[0..len]; the rest stays.
    var s: p2_state;
    for (var j = 0u; j < P2_WIDTH; j++) { s[j] = 0u; }
    let w = mp.width;
    let base = i * w;
    for (var o = 0u; o < w; o += 8u) {
      for (var j = 0u; j < 8u; j++) {
        if (o + j < w) { s[j] = bb_to_monty(rows[base + o + j]); }
      }
      p2_permute(&s);
    }
    for (var j = 0u; j < 8u; j++) {
      mk_sh[j * MK_WG + t] = s[j];
      leaves[8u * i + j] = bb_from_monty(s[j]);
    }
  }
  mk_fold(t, group);
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
