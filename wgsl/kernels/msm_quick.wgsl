// msm_quick.wgsl: an MSM that compiles in a fraction of the walker's time, for a first call while the walker's pipelines compile: each thread sums k_i·P_i over a few points by one shared double-and-add, then passes sum those sums in groups.
// requires: bn254_g1

// The walker and its reduction take ~2 s to compile on the H100's host (msm_walk_wg alone
// 1.5-2.5 s); a page's first MSM waited for it. This kernel has one call site of g1_add_small
// (complete projective formulas: P + P, P + (-P) and the identity need no branch; its multiply's
// rows in a loop) in one loop whose trip count the compiler cannot see, so it compiles in a
// fraction of the walker's time. It runs far slower than the walker per point (no buckets), which
// a first call of up to QUICK_MAX_N points (src/kernels/msm/quick.ts) can afford.
//
// Threads come in `chunks` consecutive lanes per group; lane c takes scalar bits [c·bits, c·bits +
// bits), so a thread's chain of steps is `bits` doublings long, not 256: a run's time no longer
// has a floor of 256 doublings in one thread (a 32-point run took as long as 2^16 points).
// mode 0: group g takes points [g·per, g·per + per) of the run (points base0 + i of bases, scalar
//   i of packed) and lane c computes sum_i k_ic·P_i, k_ic = bits [c·bits, c·bits + bits) of k_i,
//   by Straus' shared doubling: for each bit from the top, one doubling of the sum, then P_i added
//   where the bit of k_i is set. A scalar >= r is reported in bad[0] (the smallest index); an
//   identity point (all-zero words) adds nothing.
// mode 1: lane c of group g sums lane c of input groups [g·per, g·per + per) of pin (n groups).
// Either way the thread writes its sum to pout[g·chunks + c]; the host adds lane c's sums times 2^(c·bits).
struct QuickParams { n: u32, base0: u32, be: u32, per: u32, mode: u32, chunks: u32, bits: u32 } // src/kernels/msm/params.ts QUICK_PARAMS

@group(0) @binding(0) var<storage, read> bases: array<u32>;             // G1_AFFINE_WORDS per point, Montgomery; all zero = identity
@group(0) @binding(1) var<storage, read> packed: array<u32>;            // MSM_SCALAR_WORDS per scalar, as the caller's bytes
@group(0) @binding(2) var<storage, read> pin: array<u32>;               // mode 1: G1_PROJ_WORDS per point
@group(0) @binding(3) var<storage, read_write> pout: array<u32>;        // G1_PROJ_WORDS per thread
@group(0) @binding(4) var<storage, read_write> bad: array<atomic<u32>>; // [0]: smallest index of a scalar >= r
@group(0) @binding(5) var<uniform> prm: QuickParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * QUICK_WG; }

fn bswap(w: u32) -> u32 { return (w << 24u) | ((w & 0xff00u) << 8u) | ((w >> 8u) & 0xff00u) | (w >> 24u); }

// Limb j (least significant first) of scalar i: big-endian bytes read word 7 - j byte-swapped.
fn limb(i: u32, j: u32) -> u32 {
  if (prm.be == 1u) { return bswap(packed[MSM_SCALAR_WORDS * i + MSM_SCALAR_WORDS - 1u - j]); }
  return packed[MSM_SCALAR_WORDS * i + j];
}

// Scalar i >= r is reported; false for it and for an identity point (neither adds anything).
fn usable(i: u32) -> bool {
  let r = FR_R_LIMBS;
  var ge = true; // equal so far counts as >= r
  for (var j = 7i; j >= 0i; j--) {
    let k = limb(i, u32(j));
    if (k != r[j]) { ge = k > r[j]; break; }
  }
  if (ge) { atomicMin(&bad[0], i); return false; }
  var any = 0u;
  let o = G1_AFFINE_WORDS * (prm.base0 + i);
  for (var w = 0u; w < G1_AFFINE_WORDS; w++) { any |= bases[o + w]; }
  return any != 0u;
}

fn base_point(i: u32) -> G1P {
  let o = G1_AFFINE_WORDS * (prm.base0 + i);
  var x: Fq; var y: Fq;
  for (var k = 0u; k < FQ_WORDS; k++) { x[k] = bases[o + k]; y[k] = bases[o + FQ_WORDS + k]; }
  return g1_from_affine(x, y);
}

fn in_point(i: u32) -> G1P {
  var p: G1P;
  let o = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = pin[o + k]; p.y[k] = pin[o + FQ_WORDS + k]; p.z[k] = pin[o + 2u * FQ_WORDS + k]; }
  return g1_norm(p);
}

@compute @workgroup_size(QUICK_WG)
fn msm_quick(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  let c = t % prm.chunks;
  let lo = (t / prm.chunks) * prm.per;
  if (lo >= prm.n) { return; }
  let cnt = min(prm.per, prm.n - lo);
  // Mode 0: the points' usability once (bit 0 of mask[j]); the range check reports every bad scalar's index.
  var ok = 0u;
  if (prm.mode == 0u) {
    for (var j = 0u; j < cnt; j++) { if (usable(lo + j)) { ok |= 1u << j; } }
  }
  var acc = g1_identity();
  // Mode 0 walks (bit, j) from the lane's top bit, j = 0 (the doubling) to j = cnt (the last
  // point); mode 1 walks j = 1 .. cnt over pin. One g1_add_small a step, at one call site.
  let stop = c * prm.bits;
  var bit = stop + prm.bits - 1u; var j = 0u;
  if (prm.mode == 1u) { j = 1u; }
  loop {
    var q: G1P;
    var add = false;
    if (prm.mode == 1u) {
      q = in_point((lo + j - 1u) * prm.chunks + c);
      add = true;
    } else if (j == 0u) {
      q = acc;
      add = !fq_is_zero(acc.z); // doubling the identity: nothing to do
    } else {
      let i = lo + j - 1u;
      add = ((ok >> (j - 1u)) & 1u) == 1u && ((limb(i, bit >> 5u) >> (bit & 31u)) & 1u) == 1u;
      if (add) { q = base_point(i); }
    }
    if (add) { acc = g1_add_small(acc, q); }
    j += 1u;
    if (j > cnt) {
      if (prm.mode == 1u || bit == stop) { break; }
      bit -= 1u;
      j = 0u;
    }
  }
  let o = G1_PROJ_WORDS * t;
  for (var k = 0u; k < FQ_WORDS; k++) { pout[o + k] = acc.x[k]; pout[o + FQ_WORDS + k] = acc.y[k]; pout[o + 2u * FQ_WORDS + k] = acc.z[k]; }
}
