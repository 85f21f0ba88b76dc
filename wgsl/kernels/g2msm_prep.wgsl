// g2msm_prep.wgsl: the G2 MSM's check of its bases as a snarkjs zkey stores them (Montgomery form): every coordinate below q, every point on the twist or the identity (all zero).
// requires: bn254_g2

// flags[0]: the smallest index of a point off the curve; flags[1]: of a point with a coordinate
// >= q (such a point is not checked on the curve). The host fills both with G2_NO_KEY first.
struct PrepParams { n: u32, base0: u32 } // src/kernels/g2msm/layout.ts PREP_PARAMS

@group(0) @binding(0) var<storage, read> bases: array<u32>;         // G2_AFFINE_WORDS per point
@group(0) @binding(1) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> prm: PrepParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * G2_PREP_WG; }

fn base_fq(o: u32) -> Fq {
  return Fq(bases[o], bases[o + 1u], bases[o + 2u], bases[o + 3u], bases[o + 4u], bases[o + 5u], bases[o + 6u], bases[o + 7u]);
}

@compute @workgroup_size(G2_PREP_WG)
fn g2msm_check(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  if (t >= prm.n) { return; }
  let i = prm.base0 + t;
  let o = G2_AFFINE_WORDS * i;
  var c: array<Fq, 4>;
  var big = false;
  for (var k = 0u; k < 4u; k++) {
    c[k] = base_fq(o + FQ_WORDS * k);
    var d: Fq;
    big = big || fq_sub_raw(c[k], fq_p(), &d) == 0u; // no borrow: c >= q
  }
  if (big) { atomicMin(&flags[1], i); return; }
  let x = Fq2(c[0], c[1]);
  let y = Fq2(c[2], c[3]);
  if (fq2_is_zero(x) && fq2_is_zero(y)) { return; }
  if (!g2_on_curve(x, y)) { atomicMin(&flags[0], i); }
}
