// g2msm_quick.wgsl: a G2 MSM in one pipeline that compiles in a fraction of the bucket kernels' time, for a key's first proofs while those compile: msm_quick.wgsl's scheme (Straus' shared doubling over a few points a thread, lanes taking slices of the scalars' bits, then passes that sum groups) with g2_add_small.
// requires: bn254_g2

// The bucket method's nine pipelines (split, G1's counting sort, accumulation, two reduction
// kernels) took ~3.5 s of the H200 host driver's compile threads, which a first proof waited on.
// This kernel has one call site of g2_add_small (a program of Fq steps with one multiply, one
// addition and one subtraction site) in one loop whose trip count the compiler cannot see. It
// runs far slower per point than the bucket method (no buckets: ~2 additions a scalar bit set).
// mode 0: group g takes points [g·per, g·per + per) and lane c computes sum_i k_ic·P_i, k_ic =
//   bits [c·bits, c·bits + bits) of k_i (scalars < r: the host checked them), by Straus' shared
//   doubling: for each bit from the top, one doubling of the sum, then P_i added where the bit of
//   k_i is set. An identity point (all-zero words) adds the identity.
// mode 1: lane c of group g sums lane c of input groups [g·per, g·per + per) of pin (n groups).
// Either way the thread writes its sum to pout[g·chunks + c]; the host adds lane c's sums times 2^(c·bits).
struct G2QuickParams { n: u32, per: u32, mode: u32, chunks: u32, bits: u32 } // src/kernels/g2msm/layout.ts QUICK_PARAMS

@group(0) @binding(0) var<storage, read> bases: array<u32>;      // G2_AFFINE_WORDS per point, Montgomery; all zero = identity
@group(0) @binding(1) var<storage, read> packed: array<u32>;     // 8 words per scalar, little-endian, < r
@group(0) @binding(2) var<storage, read> pin: array<u32>;        // mode 1: G2_PROJ_WORDS per point
@group(0) @binding(3) var<storage, read_write> pout: array<u32>; // G2_PROJ_WORDS per thread
@group(0) @binding(4) var<uniform> prm: G2QuickParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * G2_QUICK_WG; }

fn point_word(from_pin: bool, at: u32) -> u32 {
  if (from_pin) { return pin[at]; }
  return bases[at];
}

// Point i of bases (affine, a zkey's words) or of pin (projective): one loader for both.
fn load_point(from_pin: bool, i: u32) -> G2P {
  let o = select(G2_AFFINE_WORDS, G2_PROJ_WORDS, from_pin) * i;
  var c: array<Fq, 6>;
  for (var k = 0u; k < select(4u, 6u, from_pin); k++) {
    for (var l = 0u; l < FQ_WORDS; l++) { c[k][l] = point_word(from_pin, o + FQ_WORDS * k + l); }
  }
  if (from_pin) { return g2_norm(G2P(Fq2(c[0], c[1]), Fq2(c[2], c[3]), Fq2(c[4], c[5]))); }
  // Affine: Z = 1, or the identity for all-zero words.
  if (fq_is_zero(c[0]) && fq_is_zero(c[1]) && fq_is_zero(c[2]) && fq_is_zero(c[3])) { return g2_identity(); }
  return G2P(Fq2(c[0], c[1]), Fq2(c[2], c[3]), fq2_one());
}

fn scalar_bit(i: u32, bit: u32) -> bool { return ((packed[8u * i + (bit >> 5u)] >> (bit & 31u)) & 1u) == 1u; }

@compute @workgroup_size(G2_QUICK_WG)
fn g2msm_quick(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  let c = t % prm.chunks;
  let lo = (t / prm.chunks) * prm.per;
  if (lo >= prm.n) { return; }
  let cnt = min(prm.per, prm.n - lo);
  var acc = g2_identity();
  // Mode 0 walks (bit, j) from the lane's top bit, j = 0 (the doubling) to j = cnt (the last
  // point); mode 1 walks j = 1 .. cnt over pin. One g2_add_small a step, at one call site.
  let stop = c * prm.bits;
  var bit = stop + prm.bits - 1u; var j = 0u;
  if (prm.mode == 1u) { j = 1u; }
  loop {
    var q = acc;
    var add = false;
    if (prm.mode == 1u) {
      q = load_point(true, (lo + j - 1u) * prm.chunks + c);
      add = true;
    } else if (j == 0u) {
      add = !fq2_is_zero(acc.z); // doubling the identity: nothing to do
    } else {
      let i = lo + j - 1u;
      add = scalar_bit(i, bit);
      if (add) { q = load_point(false, i); }
    }
    if (add) { acc = g2_add_small(acc, q); }
    j += 1u;
    if (j > cnt) {
      if (prm.mode == 1u || bit == stop) { break; }
      bit -= 1u;
      j = 0u;
    }
  }
  let o = G2_PROJ_WORDS * t;
  for (var k = 0u; k < FQ_WORDS; k++) {
    pout[o + k] = acc.x.c0[k]; pout[o + FQ_WORDS + k] = acc.x.c1[k];
    pout[o + 2u * FQ_WORDS + k] = acc.y.c0[k]; pout[o + 3u * FQ_WORDS + k] = acc.y.c1[k];
    pout[o + 4u * FQ_WORDS + k] = acc.z.c0[k]; pout[o + 5u * FQ_WORDS + k] = acc.z.c1[k];
  }
}
