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

// g2_add for the quick MSM a first proof runs on while the bucket kernels compile (g2msm_quick):
// the same algorithm as a program of 33 Fq2 steps over 15 slots, run as Fq steps by one loop with
// one site each of the multiply (fq_mul_rows), the addition and the subtraction, as G1's
// g1_add_small (bn254_g1.wgsl) does. Same products, so the same (X : Y : Z). A step is kind |
// dst << 4 | s1 << 8 | s2 << 12 (kind 0 s1·s2, 1 s1 + s2, 2 s1 - s2); slots 0-2 X1 Y1 Z1, 3-5 X2
// Y2 Z2, 6-a t0..t4, b-d X3 Y3 Z3, e b3.
const G2_SMALL_STEPS = array<u32, 33>(
  0x3060u, 0x4170u, 0x5280u, 0x1091u, 0x43a1u, 0xa990u, 0x76a1u, 0xa992u, // t0 t1 t2, t3 = X1Y2 + X2Y1
  0x21a1u, 0x54b1u, 0xbaa0u, 0x87b1u, 0xbaa2u,                           // t4 = Y1Z2 + Y2Z1
  0x20b1u, 0x53c1u, 0xcbb0u, 0x86c1u, 0xcbc2u,                           // Y3 = X1Z2 + X2Z1
  0x66b1u, 0x6b61u,                                                      // t0 = 3 t0
  0x8e80u, 0x87d1u, 0x8772u, 0xcec0u,                                    // t2 = b3 t2, Z3 = t1 + t2, t1 = t1 - t2, Y3 = b3 Y3
  0xcab0u, 0x7980u, 0xb8b2u, 0x6cc0u, 0xd770u, 0xc7c1u, 0x9660u, 0xadd0u, 0x6dd1u, // X3, Y3, Z3
);

// An Fq2 product d = x·y as Fq steps (Karatsuba, as fq2_mul): op | dst << 2 | a << 6 | b << 10 over
// operands 0 x.c0, 1 x.c1, 2 y.c0, 3 y.c1, 4-7 scratch T0-T3, 8 d.c0, 9 d.c1 (op as a step's kind).
// T0 = x0 + x1, T1 = y0 + y1, T2 = x0·y0, T3 = x1·y1, T0 = T0·T1, d0 = T2 - T3, T0 = T0 - T2, d1 = T0 - T3.
const G2_MUL_MICRO = array<u32, 8>(0x0411u, 0x0c95u, 0x0818u, 0x0c5cu, 0x1510u, 0x1da2u, 0x1912u, 0x1d26u);

fn g2_add_small(p: G2P, q: G2P) -> G2P {
  var v: array<Fq, 34>; // Fq2 slot s in v[2s] (c0) and v[2s + 1] (c1); v[30 .. 33] the scratch
  v[0] = p.x.c0; v[1] = p.x.c1; v[2] = p.y.c0; v[3] = p.y.c1; v[4] = p.z.c0; v[5] = p.z.c1;
  v[6] = q.x.c0; v[7] = q.x.c1; v[8] = q.y.c0; v[9] = q.y.c1; v[10] = q.z.c0; v[11] = q.z.c1;
  let b3 = g2_b3();
  v[28] = b3.c0; v[29] = b3.c1;
  let n = 33u + (p.z.c0[7] >> 31u); // 33: canonical limbs; a count the compiler cannot see
  for (var i = 0u; i < n; i++) {
    let step = G2_SMALL_STEPS[i];
    let kind = step & 15u;
    // An operand's Fq: v[at[o >> 1] + (o & 1)] (x, y, T0-T1, T2-T3, d).
    var at = array<u32, 5>(2u * ((step >> 8u) & 15u), 2u * (step >> 12u), 30u, 32u, 2u * ((step >> 4u) & 15u));
    for (var j = 0u; j < select(2u, 8u, kind == 0u); j++) {
      // A sum or difference is two Fq steps: d0 = x0 op y0, d1 = x1 op y1.
      var u = kind | ((8u + j) << 2u) | (j << 6u) | ((2u + j) << 10u);
      if (kind == 0u) { u = G2_MUL_MICRO[j]; }
      let a = (u >> 6u) & 15u; let b = u >> 10u; let d = (u >> 2u) & 15u;
      let x = v[at[a >> 1u] + (a & 1u)];
      let y = v[at[b >> 1u] + (b & 1u)];
      var r: Fq;
      switch (u & 3u) {
        case 0u: { r = fq_mul_rows(x, y); }
        case 1u: { r = fq_add(x, y); }
        default: { r = fq_sub(x, y); }
      }
      v[at[d >> 1u] + (d & 1u)] = r;
    }
  }
  return G2P(Fq2(v[22], v[23]), Fq2(v[24], v[25]), Fq2(v[26], v[27]));
}

fn g2_double(p: G2P) -> G2P { return g2_add(p, p); }

// y^2 == x^3 + b' for an affine point in Montgomery form with canonical coordinates (the identity is
// checked by the caller). Its three products go through one fq2_mul_rows site: it runs once per key.
fn g2_on_curve(x: Fq2, y: Fq2) -> bool {
  var a = x; var b = x; var x3: Fq2; var y2: Fq2;
  let n = 3u + (x.c0[7] >> 31u); // 3: canonical limbs; a count the compiler cannot see
  for (var k = 0u; k < n; k++) {
    let r = fq2_mul_rows(a, b);
    if (k == 0u) { a = r; } else if (k == 1u) { x3 = r; a = y; b = y; } else { y2 = r; }
  }
  return fq2_eq(y2, fq2_add(x3, fq2_const(FQ2_B_C0_LIMBS, FQ2_B_C1_LIMBS)));
}
