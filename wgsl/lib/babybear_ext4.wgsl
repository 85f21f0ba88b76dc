// babybear_ext4.wgsl: degree-4 extension F_p[X]/(X^4 - W), W = 11 (Plonky3 BinomialExtensionField<BabyBear, 4>); vec4 = (c0, c1, c2, c3), Montgomery limbs.
// requires: babybear

fn ext4_add(a: vec4u, b: vec4u) -> vec4u {
  return vec4u(bb_add(a.x, b.x), bb_add(a.y, b.y), bb_add(a.z, b.z), bb_add(a.w, b.w));
}

fn ext4_sub(a: vec4u, b: vec4u) -> vec4u {
  return vec4u(bb_sub(a.x, b.x), bb_sub(a.y, b.y), bb_sub(a.z, b.z), bb_sub(a.w, b.w));
}

// Multiplication by W = 11 through EXT4_W_MONTY: one multiply per wrapped-around coefficient sum.
fn ext4_mul_w(x: u32) -> u32 {
  return bb_mul(x, EXT4_W_MONTY);
}

// Schoolbook: c_k = sum_{i+j=k} a_i b_j + W * sum_{i+j=k+4} a_i b_j (16 + 3 multiplies).
fn ext4_mul(a: vec4u, b: vec4u) -> vec4u {
  let c0 = bb_add(bb_mul(a.x, b.x), ext4_mul_w(bb_add(bb_add(bb_mul(a.y, b.w), bb_mul(a.z, b.z)), bb_mul(a.w, b.y))));
  let c1 = bb_add(bb_add(bb_mul(a.x, b.y), bb_mul(a.y, b.x)), ext4_mul_w(bb_add(bb_mul(a.z, b.w), bb_mul(a.w, b.z))));
  let c2 = bb_add(bb_add(bb_add(bb_mul(a.x, b.z), bb_mul(a.y, b.y)), bb_mul(a.z, b.x)), ext4_mul_w(bb_mul(a.w, b.w)));
  let c3 = bb_add(bb_add(bb_mul(a.x, b.w), bb_mul(a.y, b.z)), bb_add(bb_mul(a.z, b.y), bb_mul(a.w, b.x)));
  return vec4u(c0, c1, c2, c3);
}

fn ext4_square(a: vec4u) -> vec4u {
  return ext4_mul(a, a);
}

// Inverse through the tower F_p[Y]/(Y^2 - W)[X]/(X^2 - Y): a = A + B X, a (A - B X) = A^2 - B^2 Y = N,
// N^-1 = (n0 - n1 Y)/(n0^2 - W n1^2): one base-field inversion. Returns 0 for 0 (callers check).
fn ext4_inv(a: vec4u) -> vec4u {
  let a2_0 = bb_add(bb_square(a.x), ext4_mul_w(bb_square(a.z)));
  let a2_1 = bb_double(bb_mul(a.x, a.z));
  let b2_0 = bb_add(bb_square(a.y), ext4_mul_w(bb_square(a.w)));
  let b2_1 = bb_double(bb_mul(a.y, a.w));
  let n0 = bb_sub(a2_0, ext4_mul_w(b2_1));
  let n1 = bb_sub(a2_1, b2_0);
  let d_inv = bb_inv(bb_sub(bb_square(n0), ext4_mul_w(bb_square(n1))));
  let m0 = bb_mul(n0, d_inv);
  let m1 = bb_mul(bb_neg(n1), d_inv);
  let am0 = bb_add(bb_mul(a.x, m0), ext4_mul_w(bb_mul(a.z, m1)));
  let am1 = bb_add(bb_mul(a.x, m1), bb_mul(a.z, m0));
  let bm0 = bb_add(bb_mul(a.y, m0), ext4_mul_w(bb_mul(a.w, m1)));
  let bm1 = bb_add(bb_mul(a.y, m1), bb_mul(a.w, m0));
  return vec4u(am0, bb_neg(bm0), am1, bb_neg(bm1));
}
