// msm_reduce.wgsl: MSM stage 4: bucket reduction, sum_b (b + 1)·B_b per window, as (W, S) pairs reduced level by level so every level is many short threads (wgsl/lib/msm_red.wgsl; src/ref/msm.ts reduceWindowLevels).
// requires: msm_red

// These entries run the reduction steps on their own; with riders (src/kernels/msm.ts) the same
// steps ride along inside the next batch's walk and fix-up dispatches instead.
struct MsmParams { n: u32, w0: u32, nwin: u32, nb: u32, wthreads: u32, p0: u32, p1: u32, p2: u32 }

@group(0) @binding(0) var<storage, read> src: array<u32>;        // buckets or pairs, 24 words a point
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;  // pairs: W then S, 24 words each
@group(0) @binding(2) var<uniform> prm: MsmParams;

fn red_load(i: u32) -> G1P {
  var p: G1P;
  let off = 24u * i;
  for (var k = 0u; k < 8u; k++) { p.x[k] = src[off + k]; p.y[k] = src[off + 8u + k]; p.z[k] = src[off + 16u + k]; }
  return g1_norm(p);
}

fn red_bucket(b: u32) -> G1P { return red_load(b); }
fn red_pair(i: u32) -> G1P { return red_load(i); }

fn red_put(i: u32, p: G1P) {
  let off = 24u * i;
  for (var k = 0u; k < 8u; k++) { dst[off + k] = p.x[k]; dst[off + 8u + k] = p.y[k]; dst[off + 16u + k] = p.z[k]; }
}

// One thread per (window in batch, segment); p2 = w0·K puts the pairs in the list of all T windows
// kept across batches, p2 = 0 in scratch for one msm_reduce_level pass to merge.
@compute @workgroup_size(RED_WG)
fn msm_reduce_seg(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= prm.nwin * RED_K) { return; }
  red_seg(gid.x, prm.p2);
}

// One thread per (window, group of 2^p1 pairs); p0 = pairs per window in, result to pair p2 + t.
@compute @workgroup_size(RED_WG)
fn msm_reduce_level(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= prm.nwin * (prm.p0 >> prm.p1)) { return; }
  red_level(gid.x, prm.p1, prm.p2);
}
