// bn254_fq2.wgsl: BN254 Fq2 = Fq[u]/(u^2 + 1) over bn254_fq's Montgomery Fq (c0 + c1·u), with a Karatsuba multiply that holds one Fq multiply site.
// requires: bn254_fq, bn254_fq13

struct Fq2 { c0: Fq, c1: Fq }

fn fq2_zero() -> Fq2 { return Fq2(fq_zero(), fq_zero()); }
fn fq2_one() -> Fq2 { return Fq2(fq_one(), fq_zero()); }
fn fq2_is_zero(a: Fq2) -> bool { return fq_is_zero(a.c0) && fq_is_zero(a.c1); }
fn fq2_eq(a: Fq2, b: Fq2) -> bool { return fq_eq(a.c0, b.c0) && fq_eq(a.c1, b.c1); }
fn fq2_add(a: Fq2, b: Fq2) -> Fq2 { return Fq2(fq_add(a.c0, b.c0), fq_add(a.c1, b.c1)); }
fn fq2_sub(a: Fq2, b: Fq2) -> Fq2 { return Fq2(fq_sub(a.c0, b.c0), fq_sub(a.c1, b.c1)); }
fn fq2_neg(a: Fq2) -> Fq2 { return Fq2(fq_neg(a.c0), fq_neg(a.c1)); }

// An Fq2 constant from two 8-limb arrays (the TS const block's FQ2_*_C0_LIMBS, _C1_LIMBS).
fn fq2_const(c0: array<u32, 8>, c1: array<u32, 8>) -> Fq2 {
  return Fq2(Fq(c0[0], c0[1], c0[2], c0[3], c0[4], c0[5], c0[6], c0[7]), Fq(c1[0], c1[1], c1[2], c1[3], c1[4], c1[5], c1[6], c1[7]));
}

// (a0 + a1·u)(b0 + b1·u) = (a0b0 - a1b1) + ((a0 + a1)(b0 + b1) - a0b0 - a1b1)·u: 3 Fq products
// (Karatsuba) instead of 4. They run in a loop over one call of fq_mul13, so a kernel inlines one
// Fq multiply (~1000 instructions) per fq2_mul site, not three: G1's note on SwiftShader (it
// crashed on 12 inlined unrolled multiplies) and on the H100's instruction fetch applies here
// three times over. The trip count comes from a limb's top bit (always 0 for canonical values),
// so the compiler cannot unroll the loop back.
fn fq2_mul(a: Fq2, b: Fq2) -> Fq2 {
  var x = array<Fq, 3>(a.c0, a.c1, fq_add(a.c0, a.c1));
  var y = array<Fq, 3>(b.c0, b.c1, fq_add(b.c0, b.c1));
  var v: array<Fq, 3>;
  let n = 3u + (a.c0[7] >> 31u);
  for (var k = 0u; k < n; k++) { v[k] = fq_mul13(x[k], y[k]); }
  return Fq2(fq_sub(v[0], v[1]), fq_sub(v[2], fq_add(v[0], v[1])));
}

// fq2_mul with fq_mul_rows (bn254_fq13.wgsl): a fraction of the compile, for kernels that run once
// per key and that a first proof waits on (g2msm_prep's check).
fn fq2_mul_rows(a: Fq2, b: Fq2) -> Fq2 {
  var x = array<Fq, 3>(a.c0, a.c1, fq_add(a.c0, a.c1));
  var y = array<Fq, 3>(b.c0, b.c1, fq_add(b.c0, b.c1));
  var v: array<Fq, 3>;
  let n = 3u + (a.c0[7] >> 31u);
  for (var k = 0u; k < n; k++) { v[k] = fq_mul_rows(x[k], y[k]); }
  return Fq2(fq_sub(v[0], v[1]), fq_sub(v[2], fq_add(v[0], v[1])));
}
