// msm_red.wgsl: the bucket reduction's two thread bodies (a segment's running sum into a (W, S̃) pair; a group of pairs merged into one), shared by msm_reduce's own entries and the riders that msm_walk's entries carry.
// requires: bn254_g1

// A window's bucket sums B_b are reduced through lists of pairs (W_k, S̃_k), k < K, that stand for
//   G = sum_k W_k + sum_k k·S̃_k.
// red_seg makes the first list from the buckets (segments of SEG buckets, S̃ = SEG times the
// segment's sum); red_level merges groups of 2^g pairs into one until one pair is left, whose
// W is G (src/ref/msm.ts reduceWindowLevels). A serial running sum over all buckets of a window
// would be one thread doing 2·M dependent projective additions.
//
// The including kernel defines where the points live:
//   red_bucket(b) -> G1P      bucket sum b of the batch (b = window in batch · m + bucket, m buckets a window)
//   red_pair(i) -> G1P        point i of the input pair list (pair k is points 2k, 2k + 1)
//   red_put(i, p)             point i of the output pair list
//   red_old(i) -> G1P         point i of the output pair list as it was (keep = 1 adds it)
//
// keep = 1: the output pairs already hold an earlier part's pairs of the same windows (a split
// job's parts share one kept list, src/kernels/msm/schedule.ts) and the new pair is added to the
// old one: the pairs are linear in the buckets, so the list ends up as the whole vector's.

// m (buckets per window) and the segment length 2^lseg come from the caller's uniform, not the
// source: one pipeline serves every window size and segment length (a first call's self-check, at
// 32 points, segments of 1, shares the call's pipelines); m / 2^lseg is a shift.

// Each body below calls g1_add at one site, in a loop whose trip count the compiler cannot see:
// the riders put both bodies into the walker and fix-up pipelines, and every inlined call site
// of g1_add is another copy of its multiply. H100 A/B against the straight-line bodies (3 and 5
// call sites): MSM 2^20 0.896, 2^18 0.907, 2^12 0.924, 2^22 0.977 (bench/RESULTS.md).

// Thread t of nwin·K, K = m / SEG, SEG = 2^lseg (window jj = t / K, segment k): W_k = sum_i (i + 1)·B_{k·SEG + i} and
// S̃_k = SEG · sum_i B_{k·SEG + i}, by a running sum from the top bucket down; pair out0 + t.
// Steps 2i: run += B (bucket i from the top), 2i + 1: acc += run; then lseg doublings of run;
// with keep, acc += old W, run += old S̃.
fn red_seg(t: u32, out0: u32, m: u32, lseg: u32, keep: u32) {
  let seg = 1u << lseg;
  let segs = m >> lseg;
  let jj = t / segs; let k = t - jj * segs;
  let top = jj * m + k * seg + seg - 1u;
  var run = red_bucket(top);
  var acc = run;
  // run = acc = the top bucket: steps 0 and 1 done; z < p < 2^254 keeps the bound opaque.
  let kept = 2u * seg + lseg + (run.z[7] >> 31u);
  let steps = kept + 2u * keep;
  for (var i = 2u; i < steps; i++) {
    var x = run; var y = run; // past 2·SEG: a doubling
    if (i < 2u * seg) {
      if ((i & 1u) == 0u) { y = red_bucket(top - (i >> 1u)); } else { x = acc; }
    } else if (i == kept) { x = acc; y = red_old(2u * (out0 + t)); }
    else if (i > kept) { y = red_old(2u * (out0 + t) + 1u); }
    let r = g1_add(x, y);
    if ((i < 2u * seg && (i & 1u) == 1u) || i == kept) { acc = r; } else { run = r; }
  }
  red_put(2u * (out0 + t), acc);
  red_put(2u * (out0 + t) + 1u, run);
}

// Thread t = (window, group q of G = 2^g pairs), pairs of a window contiguous in the input, so
// the group starts at pair t·G; result to pair out0 + t. With k = qG + j:
//   W'_q = sum_j W_k + sum_j j·S̃_k,   S̃'_q = G · sum_j S̃_k,
// since sum_k W_k + sum_k k·S̃_k = sum_q W'_q + sum_q q·S̃'_q (src/ref/msm.ts reduceLevel).
// Steps 3i, 3i + 1, 3i + 2 for j = G - 1 - i: wsum += W_k, run += S̃_k, acc += run (j >= 1);
// then g doublings of run; last wsum += acc; with keep, wsum += old W, run += old S̃.
fn red_level(t: u32, g: u32, out0: u32, keep: u32) {
  let G = 1u << g;
  let first = t << g;
  // j = G - 1 starts the three sums (steps 0-2) instead of adding to identities: 3 of the 15
  // additions at G = 4; H100 A/B MSM 2^10 0.870, 2^12 0.910, 2^16 0.919, 2^20 0.977.
  var wsum = red_pair(2u * (first + G - 1u));
  var run = red_pair(2u * (first + G - 1u) + 1u);
  var acc = g1_identity();
  if (G > 1u) { acc = run; }
  let last = 3u * G + g;
  let steps = last + 1u + 2u * keep;
  for (var i = 3u; i < steps; i++) {
    var x = run; var y = run; var dst = 1u; // 0 wsum, 1 run, 2 acc
    if (i < 3u * G) {
      let j = G - 1u - i / 3u; let op = i % 3u;
      if (op == 0u) { x = wsum; y = red_pair(2u * (first + j)); dst = 0u; }
      else if (op == 1u) { y = red_pair(2u * (first + j) + 1u); }
      else if (j == 0u) { continue; }
      else { x = acc; dst = 2u; }
    } else if (i == last) { x = wsum; y = acc; dst = 0u; }
    else if (i == last + 1u) { x = wsum; y = red_old(2u * (out0 + t)); dst = 0u; }
    else if (i > last) { y = red_old(2u * (out0 + t) + 1u); }
    let r = g1_add(x, y);
    if (dst == 0u) { wsum = r; } else if (dst == 1u) { run = r; } else { acc = r; }
  }
  red_put(2u * (out0 + t), wsum);
  red_put(2u * (out0 + t) + 1u, run);
}

