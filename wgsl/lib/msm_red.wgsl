// msm_red.wgsl: the bucket reduction's two thread bodies (a segment's running sum into a (W, S̃) pair; a group of pairs merged into one), shared by msm_reduce's own entries and the riders that msm_walk's entries carry.
// requires: bn254_g1

// A window's bucket sums B_b are reduced through lists of pairs (W_k, S̃_k), k < K, that stand for
//   G = sum_k W_k + sum_k k·S̃_k.
// red_seg makes the first list from the buckets (segments of RED_SEG buckets, S̃ = RED_SEG times
// the segment's sum); red_level merges groups of 2^g pairs into one until one pair is left, whose
// W is G (src/ref/msm.ts reduceWindowLevels). A serial running sum over all buckets of a window
// would be one thread doing 2·M dependent projective additions.
//
// The including kernel defines where the points live:
//   red_bucket(b) -> G1P      bucket sum b of the batch (b = window in batch · MSM_M + bucket)
//   red_pair(i) -> G1P        point i of the input pair list (pair k is points 2k, 2k + 1)
//   red_put(i, p)             point i of the output pair list

// K = MSM_M / RED_SEG segments per window.
const RED_K: u32 = MSM_M / RED_SEG;

// Thread t of nwin·RED_K (window jj = t / RED_K, segment k): W_k = sum_i (i + 1)·B_{k·SEG + i} and
// S̃_k = SEG · sum_i B_{k·SEG + i}, by a running sum from the top bucket down; pair out0 + t.
fn red_seg(t: u32, out0: u32) {
  let jj = t / RED_K; let k = t - jj * RED_K;
  let first = jj * MSM_M + k * RED_SEG;
  var run = g1_identity();
  var acc = g1_identity();
  for (var i = 0u; i < RED_SEG; i++) {
    run = g1_add(run, red_bucket(first + RED_SEG - 1u - i));
    acc = g1_add(acc, run);
  }
  for (var s = 1u; s < RED_SEG; s <<= 1u) { run = g1_double(run); }
  red_put(2u * (out0 + t), acc);
  red_put(2u * (out0 + t) + 1u, run);
}

// Thread t = (window, group q of G = 2^g pairs), pairs of a window contiguous in the input, so
// the group starts at pair t·G; result to pair out0 + t. With k = qG + j:
//   W'_q = sum_j W_k + sum_j j·S̃_k,   S̃'_q = G · sum_j S̃_k,
// since sum_k W_k + sum_k k·S̃_k = sum_q W'_q + sum_q q·S̃'_q (src/ref/msm.ts reduceLevel).
fn red_level(t: u32, g: u32, out0: u32) {
  let first = t << g;
  var wsum = g1_identity();
  var run = g1_identity();
  var acc = g1_identity();
  for (var i = 0u; i < (1u << g); i++) {
    let j = (1u << g) - 1u - i;
    wsum = g1_add(wsum, red_pair(2u * (first + j)));
    run = g1_add(run, red_pair(2u * (first + j) + 1u));
    if (j >= 1u) { acc = g1_add(acc, run); }
  }
  for (var d = 0u; d < g; d++) { run = g1_double(run); }
  red_put(2u * (out0 + t), g1_add(wsum, acc));
  red_put(2u * (out0 + t) + 1u, run);
}
