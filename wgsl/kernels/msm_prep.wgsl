// msm_prep.wgsl: MSM bases to Montgomery form with the range and on-curve checks.
// requires: bn254_g1

// be (msm_to_mont): the points arrive as the caller packed them, x then y as 32-byte big-endian
// numbers read as LE words (limb k of x is word 7 - k byte-swapped), so the host copies them as they are.
// muls: msm_to_mont's products through its one multiply site (TO_MONT_MULS = 5).
// base0: the first point of this dispatch's n (bases are converted a piece at a time as they land).
// proj: pts hold projective X, Y with each point's Z in zs (from point zbase on): x = X/Z, y = Y/Z.
// mont: pts hold LE limbs in Montgomery form already (a snarkjs zkey's sections): the first two
// products multiply by R (Montgomery's one) instead of R², leaving them as they are.
struct PrepParams { n: u32, be: u32, muls: u32, base0: u32, proj: u32, zbase: u32, mont: u32 } // src/kernels/msm/params.ts PREP_PARAMS

@group(0) @binding(0) var<storage, read_write> pts: array<u32>;       // G1_AFFINE_WORDS per point, LE limbs (or BE bytes) in, Montgomery out
@group(0) @binding(1) var<storage, read_write> bad: array<atomic<u32>>; // [0] = smallest index (in pts) not on the curve; msm_to_mont: [1] = smallest with a coordinate >= p
@group(0) @binding(2) var<uniform> prm: PrepParams;
@group(0) @binding(3) var<storage, read> zs: array<u32>;              // proj: FQ_WORDS per point (LE limbs), point zbase first

fn ldp(off: u32) -> Fq {
  return Fq(pts[off], pts[off + 1u], pts[off + 2u], pts[off + 3u], pts[off + 4u], pts[off + 5u], pts[off + 6u], pts[off + 7u]);
}
fn stp(off: u32, v: Fq) { for (var k = 0u; k < FQ_WORDS; k++) { pts[off + k] = v[k]; } }

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * PREP_WG; }

fn bswap(w: u32) -> u32 { return (w << 24u) | ((w & 0xff00u) << 8u) | ((w >> 8u) & 0xff00u) | (w >> 24u); }

// Coordinate at `off` as LE limbs: as stored, or from big-endian bytes.
fn ld_coord(off: u32) -> Fq {
  if (prm.be == 0u) { return ldp(off); }
  var v: Fq;
  for (var k = 0u; k < FQ_WORDS; k++) { v[k] = bswap(pts[off + FQ_WORDS - 1u - k]); }
  return v;
}

fn below_p(a: Fq) -> bool { var d: Fq; return fq_sub_raw(a, fq_p(), &d) == 1u; }

// x = X/Z, y = Y/Z of point i's projective words (Z from zs) as plain LE limbs; Z = 1 as is. Its
// products go through one multiply site in one loop (each site is compiled anew): step 0 takes Z
// to Montgomery form (Z·R), steps 1-508 raise that to p - 2 by square-and-multiply from bit 253
// (odd steps multiply when the bit is set) for Z^-1·R, and steps 509 and 510 multiply X and Y by
// it (Montgomery products of plain X, Y with Z^-1·R are plain X/Z, Y/Z). 511 steps for a count
// the compiler cannot see.
fn from_projective(i: u32, xp: ptr<function, Fq>, yp: ptr<function, Fq>) {
  let o = FQ_WORDS * (i - prm.zbase);
  let z = Fq(zs[o], zs[o + 1u], zs[o + 2u], zs[o + 3u], zs[o + 4u], zs[o + 5u], zs[o + 6u], zs[o + 7u]);
  if (fq_eq(z, Fq(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u))) { return; }
  let p = FQ_P_LIMBS;
  let r2 = FQ_R2_LIMBS;
  var zm: Fq;
  var acc = fq_one();
  let steps = 511u + (z[7] >> 31u);
  for (var s = 0u; s < steps; s++) {
    var a = acc; var b = acc;
    if (s == 0u) {
      a = z; b = Fq(r2[0], r2[1], r2[2], r2[3], r2[4], r2[5], r2[6], r2[7]);
    } else if (s < 509u) {
      let bit = 253u - (s - 1u) / 2u;
      let word = select(p[bit >> 5u], p[0] - 2u, bit < 32u); // p is odd: p - 2 differs only in limb 0
      if ((s & 1u) == 0u) { // odd step of the exponentiation: multiply when the bit is set
        if (((word >> (bit & 31u)) & 1u) == 0u) { continue; }
        b = zm;
      }
    } else if (s == 509u) { a = *xp; } else { a = *yp; }
    let r = fq_mul_rows(a, b);
    if (s == 0u) { zm = r; } else if (s < 509u) { acc = r; } else if (s == 509u) { *xp = r; } else { *yp = r; }
  }
}

// (0, 0) is the identity (it is not on the curve, so the encoding is unambiguous) and stays zero.
// The five products (x·R², y·R², then y², x², x²·x of the curve check) go through one multiply
// site in a loop of prm.muls (= 5) trips the compiler cannot unroll, and that multiply keeps its
// rows in a loop too (fq_mul_rows): the driver compiles straight-line multiplies slowly (~0.3-0.4 s
// each on the H100's host), and this kernel's five were 2.5 s of a first MSM call (bench/RESULTS.md
// "cold"); it runs once per set of bases, so the loops cost next to nothing.
@compute @workgroup_size(PREP_WG)
fn msm_to_mont(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  if (t >= prm.n) { return; }
  let i = prm.base0 + t;
  var x = ld_coord(G1_AFFINE_WORDS * i); var y = ld_coord(G1_AFFINE_WORDS * i + FQ_WORDS);
  if (fq_is_zero(x) && fq_is_zero(y)) { return; }
  if (!below_p(x) || !below_p(y)) { atomicMin(&bad[1], i); return; }
  if (prm.proj == 1u) { from_projective(i, &x, &y); }
  let r2 = FQ_R2_LIMBS;
  var r2f = Fq(r2[0], r2[1], r2[2], r2[3], r2[4], r2[5], r2[6], r2[7]);
  if (prm.mont == 1u) { r2f = fq_one(); }
  var xm: Fq; var ym: Fq; var yy: Fq; var xx: Fq; var xxx: Fq;
  for (var k = 0u; k < prm.muls; k++) {
    var a = x; var b = r2f;
    switch (k) {
      case 0u: { }
      case 1u: { a = y; }
      case 2u: { a = ym; b = ym; }
      case 3u: { a = xm; b = xm; }
      default: { a = xx; b = xm; }
    }
    let r = fq_mul_rows(a, b);
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
  stp(G1_AFFINE_WORDS * i, xm); stp(G1_AFFINE_WORDS * i + FQ_WORDS, ym);
}
