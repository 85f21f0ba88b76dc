// msm_prep.wgsl: MSM bases to Montgomery form with the on-curve check, and BN254 Fq check/bench entry points (GPU vs bigint in test/gpu/msm-check.ts).
// requires: bn254_g1, bn254_inv

// be (msm_to_mont): the points arrive as the caller packed them, x then y as 32-byte big-endian
// numbers read as LE words (limb k of x is word 7 - k byte-swapped), so the host copies them as they are.
// iters: msm_to_mont's multiplies (TO_MONT_MULS = 5), the bench entries' repetitions.
struct PrepParams { n: u32, iters: u32, be: u32, pad1: u32 }

@group(0) @binding(0) var<storage, read_write> pts: array<u32>;       // 16 words per point, LE limbs (or BE bytes) in, Montgomery out
@group(0) @binding(1) var<storage, read_write> bad: array<atomic<u32>>; // [0] = smallest index not on the curve; msm_to_mont: [1] = smallest with a coordinate >= p
@group(0) @binding(2) var<uniform> prm: PrepParams;

fn ldp(off: u32) -> Fq {
  return Fq(pts[off], pts[off + 1u], pts[off + 2u], pts[off + 3u], pts[off + 4u], pts[off + 5u], pts[off + 6u], pts[off + 7u]);
}
fn stp(off: u32, v: Fq) { for (var k = 0u; k < 8u; k++) { pts[off + k] = v[k]; } }

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * PREP_WG; }

fn bswap(w: u32) -> u32 { return (w << 24u) | ((w & 0xff00u) << 8u) | ((w >> 8u) & 0xff00u) | (w >> 24u); }

// Coordinate at `off` as LE limbs: as stored, or from big-endian bytes.
fn ld_coord(off: u32) -> Fq {
  if (prm.be == 0u) { return ldp(off); }
  var v: Fq;
  for (var k = 0u; k < 8u; k++) { v[k] = bswap(pts[off + 7u - k]); }
  return v;
}

fn below_p(a: Fq) -> bool { var d: Fq; return fq_sub_raw(a, fq_p(), &d) == 1u; }

// (0, 0) is the identity (it is not on the curve, so the encoding is unambiguous) and stays zero.
// The five products (x·R², y·R², then y², x², x²·x of the curve check) go through one fq_mul site
// in a loop of prm.iters (= 5) trips the compiler cannot unroll: the driver compiles straight-line
// fq_muls slowly (~0.4 s each on the H100's host), and this kernel's five were 2.5 s of a first
// MSM call (bench/RESULTS.md "cold"); it runs once per set of bases, so the loop costs nothing.
@compute @workgroup_size(PREP_WG)
fn msm_to_mont(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  let x = ld_coord(16u * i); let y = ld_coord(16u * i + 8u);
  if (fq_is_zero(x) && fq_is_zero(y)) { return; }
  if (!below_p(x) || !below_p(y)) { atomicMin(&bad[1], i); return; }
  let r2 = FQ_R2_LIMBS;
  let r2f = Fq(r2[0], r2[1], r2[2], r2[3], r2[4], r2[5], r2[6], r2[7]);
  var xm: Fq; var ym: Fq; var yy: Fq; var xx: Fq; var xxx: Fq;
  for (var k = 0u; k < prm.iters; k++) {
    var a = x; var b = r2f;
    switch (k) {
      case 0u: { }
      case 1u: { a = y; }
      case 2u: { a = ym; b = ym; }
      case 3u: { a = xm; b = xm; }
      default: { a = xx; b = xm; }
    }
    let r = fq_mul(a, b);
    switch (k) {
      case 0u: { xm = r; }
      case 1u: { ym = r; }
      case 2u: { yy = r; }
      case 3u: { xx = r; }
      default: { xxx = r; }
    }
  }
  let bc = FQ_B_LIMBS;
  if (!fq_eq(yy, fq_add(xxx, Fq(bc[0], bc[1], bc[2], bc[3], bc[4], bc[5], bc[6], bc[7])))) { atomicMin(&bad[0], i); }
  stp(16u * i, xm); stp(16u * i + 8u, ym);
}

// Check entry: pts holds pairs (a, b) of canonical values; writes a·b, a+b, a-b, a^-1 over them
// (16 words in, 32 words out per pair: the buffer is sized for the outputs).
@compute @workgroup_size(PREP_WG)
fn fq_check(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  let a = fq_to_mont(ldp(32u * i)); let b = fq_to_mont(ldp(32u * i + 8u));
  let m = fq_from_mont(fq_mul(a, b)); let s = fq_from_mont(fq_add(a, b));
  let d = fq_from_mont(fq_sub(a, b)); let v = fq_from_mont(fq_inv(a));
  stp(32u * i, m); stp(32u * i + 8u, s); stp(32u * i + 16u, d); stp(32u * i + 24u, v);
}

// Throughput: prm.iters rounds of (x = x·y, y = y·x) per thread, x ^ y folded into 8 words.
@compute @workgroup_size(PREP_WG)
fn fq_bench(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  var x = fq_to_mont(Fq(i, 1u, 2u, 3u, 4u, 5u, 6u, 7u));
  var y = fq_to_mont(Fq(i ^ 0x9e3779b9u, 7u, 6u, 5u, 4u, 3u, 2u, 1u));
  for (var k = 0u; k < prm.iters; k++) { x = fq_mul(x, y); y = fq_mul(y, x); }
  let r = fq_from_mont(x);
  stp(8u * i, r);
}

// Inversion latency: prm.iters dependent inversions per thread (x = 1/x + 1, so no two are
// alike); launched with a few threads, its time per inversion is what one walker step waits for.
@compute @workgroup_size(PREP_WG)
fn fq_inv_bench(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  var x = fq_to_mont(Fq(i + 2u, 1u, 2u, 3u, 4u, 5u, 6u, 7u));
  for (var k = 0u; k < prm.iters; k++) {
    x = fq_inv(x);
    x = fq_add(x, fq_one());
  }
  stp(8u * i, fq_from_mont(x));
}
