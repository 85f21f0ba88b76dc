// bn254_g2.wgsl: BN254 G2 (the twist y^2 = x^3 + b', b' = 3/(9 + u)) in homogeneous projective coordinates with the complete formulas of Renes-Costello-Batina 2015 (a = 0), as bn254_g1.wgsl does for G1.
// requires: bn254_fq2

// (X : Y : Z) with x = X/Z, y = Y/Z; the identity is (0 : 1 : 0). All-zero words (a cleared
// buffer) are read as the identity by g2_norm, so bucket buffers need only a clear.
struct G2P { x: Fq2, y: Fq2, z: Fq2 }

fn g2_identity() -> G2P { return G2P(fq2_zero(), fq2_one(), fq2_zero()); }

fn g2_norm(p: G2P) -> G2P {
  if (fq2_is_zero(p.z)) { return g2_identity(); }
  return p;
}

// 3·b' in Montgomery form (src/params/bn254-g2.ts).
fn g2_b3() -> Fq2 { return fq2_const(FQ2_B3_C0_LIMBS, FQ2_B3_C1_LIMBS); }

// RCB 2015 Algorithm 7 (complete addition, a = 0): 12 Fq2 products and 2 by b3, no exceptional
// cases, so P + P (the doubling every reduction level needs), P + (-P) and the identity need no
// branches. All 14 products run in one loop over one fq2_mul site, so a kernel inlines one Fq2
// multiply (one Fq multiply: bn254_fq2.wgsl) per g2_add site instead of 14 (42 Fq multiplies of
// straight-line code would be ~40 K instructions a site). Steps 0-5: X1X2, Y1Y2, Z1Z2 and the
// three cross products; 6-7: b3·Z1Z2 and b3·(X1Z2 + X2Z1); 8-13: RCB's last six products.
fn g2_add(p: G2P, q: G2P) -> G2P {
  var a = array<Fq2, 6>(p.x, p.y, p.z, fq2_add(p.x, p.y), fq2_add(p.y, p.z), fq2_add(p.x, p.z));
  var b = array<Fq2, 6>(q.x, q.y, q.z, fq2_add(q.x, q.y), fq2_add(q.y, q.z), fq2_add(q.x, q.z));
  var m: array<Fq2, 6>;
  var t0: Fq2; var t1: Fq2; var t3: Fq2; var t4: Fq2;
  let n = 14u + (p.z.c0[7] >> 31u); // 14: canonical limbs; a count the compiler cannot see
  for (var k = 0u; k < n; k++) {
    if (k == 6u) {
      t3 = fq2_sub(m[3], fq2_add(m[0], m[1]));  // X1Y2 + X2Y1
      t4 = fq2_sub(m[4], fq2_add(m[1], m[2]));  // Y1Z2 + Y2Z1
      let y3 = fq2_sub(m[5], fq2_add(m[0], m[2])); // X1Z2 + X2Z1
      t0 = fq2_add(fq2_add(m[0], m[0]), m[0]);  // 3·X1X2
      t1 = m[1];
      a[0] = g2_b3(); b[0] = m[2];
      a[1] = g2_b3(); b[1] = y3;
    }
    if (k == 8u) {
      let t2 = m[0]; let y3 = m[1];             // b3·Z1Z2, b3·(X1Z2 + X2Z1)
      let z3 = fq2_add(t1, t2);
      let t1b = fq2_sub(t1, t2);
      a = array<Fq2, 6>(t4, t3, y3, t1b, t0, z3);
      b = array<Fq2, 6>(y3, t1b, t0, z3, t3, t4);
    }
    var i = k;
    if (k >= 8u) { i = k - 8u; } else if (k >= 6u) { i = k - 6u; }
    m[i] = fq2_mul(a[i], b[i]);
  }
  // X3 = t3·t1 - t4·y3, Y3 = t1·z3 + y3·t0, Z3 = z3·t4 + t0·t3 (RCB's last lines).
  return G2P(fq2_sub(m[1], m[0]), fq2_add(m[3], m[2]), fq2_add(m[5], m[4]));
}

fn g2_double(p: G2P) -> G2P { return g2_add(p, p); }

// y^2 == x^3 + b' for an affine point in Montgomery form (the identity is checked by the caller).
fn g2_on_curve(x: Fq2, y: Fq2) -> bool {
  let rhs = fq2_add(fq2_mul(fq2_square(x), x), fq2_const(FQ2_B_C0_LIMBS, FQ2_B_C1_LIMBS));
  return fq2_eq(fq2_square(y), rhs);
}
