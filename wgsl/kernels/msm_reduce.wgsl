// msm_reduce.wgsl: MSM stage 4: bucket reduction, sum_b (b + 1)·B_b per window, as (W, S) pairs reduced level by level so every level is many short threads (src/ref/msm.ts reduceWindowLevels).
// requires: bn254_g1

// A window's bucket sums are reduced through lists of pairs (W_k, S̃_k), k < K, that stand for
//   G = sum_k W_k + sum_k k·S̃_k.
// msm_reduce_seg makes the first list from the buckets (segments of RED_SEG buckets, S̃ = RED_SEG
// times the segment's sum); each msm_reduce_level merges groups of 2^g pairs into one until one
// pair is left, whose W is G. A serial running sum over all buckets of a window would be one
// thread doing 2·M dependent projective additions: at 8x32 limbs that thread, not the
// arithmetic, set the time (H100, 2^20: 1.6 s of 2.0 s).

struct MsmParams { n: u32, w0: u32, nwin: u32, nb: u32, wthreads: u32, p0: u32, p1: u32, p2: u32 }

@group(0) @binding(0) var<storage, read> src: array<u32>;        // buckets (24 words) or pairs (48)
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;  // pairs: W then S, 24 words each
@group(0) @binding(2) var<uniform> prm: MsmParams;

// K = MSM_M / RED_SEG segments per window.
const RED_K: u32 = MSM_M / RED_SEG;

fn ld(off: u32) -> G1P {
  var p: G1P;
  for (var k = 0u; k < 8u; k++) { p.x[k] = src[off + k]; p.y[k] = src[off + 8u + k]; p.z[k] = src[off + 16u + k]; }
  return g1_norm(p);
}

fn st(off: u32, p: G1P) {
  for (var k = 0u; k < 8u; k++) { dst[off + k] = p.x[k]; dst[off + 8u + k] = p.y[k]; dst[off + 16u + k] = p.z[k]; }
}

// One thread per (window in batch, segment): W_k = sum_i (i + 1)·B_{k·SEG + i} and
// S̃_k = SEG · sum_i B_{k·SEG + i}, by a running sum from the top bucket down. Pair t = jj·K + k
// lands at dst[p2 + t]: p2 = w0·K puts it in the list of all T windows kept across batches,
// p2 = 0 in scratch for one msm_reduce_level pass to merge.
@compute @workgroup_size(RED_WG)
fn msm_reduce_seg(@builtin(global_invocation_id) gid: vec3u) {
  let t = gid.x;
  if (t >= prm.nwin * RED_K) { return; }
  let jj = t / RED_K; let k = t - jj * RED_K;
  let first = jj * MSM_M + k * RED_SEG;
  var run = g1_identity();
  var acc = g1_identity();
  for (var i = 0u; i < RED_SEG; i++) {
    run = g1_add(run, ld(24u * (first + RED_SEG - 1u - i)));
    acc = g1_add(acc, run);
  }
  for (var s = 1u; s < RED_SEG; s <<= 1u) { run = g1_double(run); }
  let o = 48u * (prm.p2 + t);
  st(o, acc);
  st(o + 24u, run);
}

// One thread per (window, group q of G = 2^g pairs), p0 = pairs per window K_in, p1 = g, the
// result to dst[p2 + t]: with
// k = qG + j,   W'_q = sum_j W_k + sum_j j·S̃_k,   S̃'_q = G · sum_j S̃_k,
// since sum_k W_k + sum_k k·S̃_k = sum_q W'_q + sum_q q·S̃'_q (src/ref/msm.ts reduceLevel).
@compute @workgroup_size(RED_WG)
fn msm_reduce_level(@builtin(global_invocation_id) gid: vec3u) {
  let kin = prm.p0; let g = prm.p1;
  let kout = kin >> g;
  let t = gid.x;
  if (t >= prm.nwin * kout) { return; }
  let first = 48u * (t << g); // window j's pairs are contiguous, so (j, q) -> j·K_in + q·G = t·G
  var wsum = g1_identity();
  var run = g1_identity();
  var acc = g1_identity();
  for (var i = 0u; i < (1u << g); i++) {
    let j = (1u << g) - 1u - i;
    let off = first + 48u * j;
    wsum = g1_add(wsum, ld(off));
    run = g1_add(run, ld(off + 24u));
    if (j >= 1u) { acc = g1_add(acc, run); }
  }
  for (var d = 0u; d < g; d++) { run = g1_double(run); }
  st(48u * (prm.p2 + t), g1_add(wsum, acc));
  st(48u * (prm.p2 + t) + 24u, run);
}
