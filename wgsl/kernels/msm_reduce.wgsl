// msm_reduce.wgsl: MSM stage 4: bucket reduction, sum_b (b + 1)·B_b per window, as (W, S) pairs reduced level by level so every level is many short threads (wgsl/lib/msm_red.wgsl; src/ref/msm.ts reduceWindowLevels).
// requires: msm_red

// These entries run the reduction steps on their own; with riders (src/kernels/msm/walk.ts) the same
// steps ride along inside the next batch's walk and fix-up dispatches instead.
// nwin windows; m: buckets per window and lseg: log2 of the segment length (msm_reduce_seg); kin:
// pairs per window in, g: log2 of the group merged into one (msm_reduce_level); out: the first
// output pair; keep = 1: add the output pairs' old values (msm_red.wgsl).
// src/kernels/msm/params.ts REDUCE_PARAMS.
struct ReduceParams { nwin: u32, m: u32, kin: u32, g: u32, out: u32, lseg: u32, keep: u32 }

@group(0) @binding(0) var<storage, read> src: array<u32>;        // buckets or pairs, G1_PROJ_WORDS a point
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;  // pairs: W then S, G1_PROJ_WORDS each
@group(0) @binding(2) var<uniform> prm: ReduceParams;

fn red_load(i: u32) -> G1P {
  var p: G1P;
  let off = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = src[off + k]; p.y[k] = src[off + FQ_WORDS + k]; p.z[k] = src[off + 2u * FQ_WORDS + k]; }
  return g1_norm(p);
}

fn red_bucket(b: u32) -> G1P { return red_load(b); }
fn red_pair(i: u32) -> G1P { return red_load(i); }

fn red_old(i: u32) -> G1P {
  var p: G1P;
  let off = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = dst[off + k]; p.y[k] = dst[off + FQ_WORDS + k]; p.z[k] = dst[off + 2u * FQ_WORDS + k]; }
  return g1_norm(p);
}

fn red_put(i: u32, p: G1P) {
  let off = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { dst[off + k] = p.x[k]; dst[off + FQ_WORDS + k] = p.y[k]; dst[off + 2u * FQ_WORDS + k] = p.z[k]; }
}

// A level merges groups of pairs, so it has a fraction of its input's threads (2^20: 4096 for a
// batch's merging level, 16 for the last final level), each a chain of ~17 dependent projective
// additions: too few warps to fill the GPU, and the level takes the chain's time. Here a group's
// 2^g pairs sit on 2^g lanes instead (contiguous threads of one workgroup: RED_WG is a multiple
// of 2^g) and merge in 2g + 1 rounds of at most one addition a lane, exchanged through
// workgroup memory. With G = 2^g and lane j holding pair (W_j, S̃_j):
//   rounds 0..g-1  U_j = sum_{i >= j} S̃_i (suffix scan: lane j adds lane j + 2^r's)
//   round g        V_j = W_j + U_j for j >= 1, V_0 = W_0
//   rounds g+1..2g W' = sum_j V_j (tree into lane 0); meanwhile lane 1 doubles U_0 g times: S̃' = G·U_0
// which is red_level's W' = sum_j W_j + sum_j j·S̃_j, since sum_{j >= 1} U_j = sum_j j·S̃_j.
// With keep two more rounds add the output pair's old W (lane 0) and S̃ (lane min(1, G - 1)).
// Every round calls g1_add at one site (code size, see msm_red.wgsl).
var<workgroup> red_u: array<array<u32, G1_PROJ_WORDS>, RED_WG>;
var<workgroup> red_v: array<array<u32, G1_PROJ_WORDS>, RED_WG>;

fn tile_point(w: array<u32, G1_PROJ_WORDS>) -> G1P {
  var p: G1P;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = w[k]; p.y[k] = w[FQ_WORDS + k]; p.z[k] = w[2u * FQ_WORDS + k]; }
  return p;
}

fn tile_words(p: G1P) -> array<u32, G1_PROJ_WORDS> {
  var w: array<u32, G1_PROJ_WORDS>;
  for (var k = 0u; k < FQ_WORDS; k++) { w[k] = p.x[k]; w[FQ_WORDS + k] = p.y[k]; w[2u * FQ_WORDS + k] = p.z[k]; }
  return w;
}

struct RedPair { w: G1P, s: G1P }

// Lane l of the workgroup is lane j of its group. W' is .w on lane 0, S̃' is .s on lane
// min(1, G - 1) (with G = 1 no merging round adds: lane 0 keeps its pair); `out`: the output
// pair, read with keep where `live`.
fn red_merge_lanes(l: u32, j: u32, g: u32, w: G1P, s: G1P, keep: u32, out: u32, live: bool) -> RedPair {
  let G = 1u << g;
  let lane0 = l - j;
  let sl = min(1u, G - 1u);
  var u = s;
  var v = w;
  var t = s;
  red_u[l] = tile_words(u);
  workgroupBarrier();
  for (var r = 0u; r < 2u * g + 1u + 2u * keep; r++) {
    var x = u; var y = u; var op = 0u; // the sum goes to 1: u, 2: v, 3: t
    if (r < g) {
      let d = 1u << r;
      if (j + d < G) { y = tile_point(red_u[l + d]); op = 1u; }
    } else if (r == g) {
      if (j >= 1u) { x = v; op = 2u; }
    } else if (r == 2u * g + 1u) {
      if (live && j == 0u) { x = v; y = red_old(2u * out); op = 2u; }
    } else if (r == 2u * g + 2u) {
      if (live && j == sl) { x = t; y = red_old(2u * out + 1u); op = 3u; }
    } else {
      let d = 1u << (r - g - 1u);
      if ((j & (2u * d - 1u)) == 0u) { x = v; y = tile_point(red_v[l + d]); op = 2u; }
      else if (j == 1u) {
        if (r == g + 1u) { t = tile_point(red_u[lane0]); }
        x = t; y = t; op = 3u;
      }
    }
    workgroupBarrier(); // every lane has read its partner before any lane stores
    if (op != 0u) {
      let z = g1_add(x, y);
      if (op == 1u) { u = z; red_u[l] = tile_words(u); } else if (op == 2u) { v = z; red_v[l] = tile_words(v); } else { t = z; }
    } else if (r == g) {
      red_v[l] = tile_words(v);
    }
    workgroupBarrier();
  }
  return RedPair(v, t);
}

// Where a group's merged pair goes: pair `out` of the destination list.
fn red_put_merged(j: u32, g: u32, out: u32, r: RedPair) {
  if (j == 0u) { red_put(2u * out, r.w); }
  if (j == min(1u, (1u << g) - 1u)) { red_put(2u * out + 1u, r.s); }
}

// One thread per (window in batch, segment), red_seg's serial running sum: a batch's first pass
// has threads enough to fill the GPU (2^20: 16384), where lanes would only add work (each round
// runs whole warps, ~G·log2 G additions per group against 2G + log2 G; H100 2^20: no faster).
// out = w0·K puts the pairs in the list of all T windows kept across batches, out = 0 in scratch
// for one msm_reduce_level pass to merge.
@compute @workgroup_size(RED_WG)
fn msm_reduce_seg(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= prm.nwin * (prm.m >> prm.lseg)) { return; }
  red_seg(gid.x, prm.out, prm.m, prm.lseg, prm.keep);
}

// Lanes (window, group of 2^g pairs, pair j); kin pairs per window in, result to pair out + group.
@compute @workgroup_size(RED_WG)
fn msm_reduce_level(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) l: u32) {
  let grp = gid.x >> prm.g;
  let j = gid.x - (grp << prm.g);
  let live = grp < prm.nwin * (prm.kin >> prm.g);
  var w = g1_identity(); var s = g1_identity();
  if (live) { w = red_pair(2u * gid.x); s = red_pair(2u * gid.x + 1u); }
  let r = red_merge_lanes(l, j, prm.g, w, s, prm.keep, prm.out + grp, live);
  if (live) { red_put_merged(j, prm.g, prm.out + grp, r); }
}
