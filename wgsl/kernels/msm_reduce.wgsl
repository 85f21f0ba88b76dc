// msm_reduce.wgsl: MSM stage 4: bucket reduction by segmented running sums, sum_t t·B_t = sum_k W_k + SEG · sum_k k·S_k per window (src/ref/msm.ts reduceWindow).
// requires: bn254_g1

struct MsmParams { n: u32, w0: u32, nwin: u32, nb: u32, wthreads: u32, p0: u32, p1: u32, p2: u32 }

@group(0) @binding(0) var<storage, read> bsum: array<u32>;          // 24 words per bucket (projective)
@group(0) @binding(1) var<storage, read_write> segs: array<u32>;    // 48 words per (window, segment): W_k, S_k
@group(0) @binding(2) var<storage, read_write> wins: array<u32>;    // 24 words per window of the whole MSM
@group(0) @binding(3) var<uniform> prm: MsmParams;

// K = MSM_M / RED_SEG segments per window.
const RED_K: u32 = MSM_M / RED_SEG;

fn ld(buf_is_seg: bool, off: u32) -> G1P {
  var p: G1P;
  for (var k = 0u; k < 8u; k++) {
    if (buf_is_seg) { p.x[k] = segs[off + k]; p.y[k] = segs[off + 8u + k]; p.z[k] = segs[off + 16u + k]; }
    else { p.x[k] = bsum[off + k]; p.y[k] = bsum[off + 8u + k]; p.z[k] = bsum[off + 16u + k]; }
  }
  return g1_norm(p);
}

fn st_seg(off: u32, p: G1P) {
  for (var k = 0u; k < 8u; k++) { segs[off + k] = p.x[k]; segs[off + 8u + k] = p.y[k]; segs[off + 16u + k] = p.z[k]; }
}

// One thread per (window in batch, segment): W_k = sum_t (t - k·SEG)·B_t and S_k = sum_t B_t
// over the segment's buckets, by a running sum from the top bucket down.
@compute @workgroup_size(RED_WG)
fn msm_reduce_seg(@builtin(global_invocation_id) gid: vec3u) {
  let t = gid.x;
  if (t >= prm.nwin * RED_K) { return; }
  let jj = t / RED_K; let k = t - jj * RED_K;
  let first = jj * MSM_M + k * RED_SEG;
  var run = g1_identity();
  var acc = g1_identity();
  for (var i = 0u; i < RED_SEG; i++) {
    run = g1_add(run, ld(false, 24u * (first + RED_SEG - 1u - i)));
    acc = g1_add(acc, run);
  }
  st_seg(48u * t, acc);
  st_seg(48u * t + 24u, run);
}

// One thread per window: G_j = sum_k W_k + SEG · sum_{k>=1} k·S_k (running sum over k, then
// log2(SEG) doublings), written to wins[w0 + jj] for the Horner fold on the host.
@compute @workgroup_size(RED_WG)
fn msm_reduce_win(@builtin(global_invocation_id) gid: vec3u) {
  let jj = gid.x;
  if (jj >= prm.nwin) { return; }
  var wsum = g1_identity();
  var run = g1_identity();
  var acc = g1_identity();
  for (var i = 0u; i < RED_K; i++) {
    let k = RED_K - 1u - i;
    let off = 48u * (jj * RED_K + k);
    wsum = g1_add(wsum, ld(true, off));
    if (k >= 1u) { run = g1_add(run, ld(true, off + 24u)); acc = g1_add(acc, run); }
  }
  for (var d = 0u; d < RED_SEG_LOG; d++) { acc = g1_double(acc); }
  let r = g1_add(wsum, acc);
  let o = 24u * (prm.w0 + jj);
  for (var k = 0u; k < 8u; k++) { wins[o + k] = r.x[k]; wins[o + 8u + k] = r.y[k]; wins[o + 16u + k] = r.z[k]; }
}
