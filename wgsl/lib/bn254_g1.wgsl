// bn254_g1.wgsl: BN254 G1 (y^2 = x^3 + 3) in homogeneous projective coordinates with the complete formulas of Renes-Costello-Batina 2015 (a = 0), plus the affine-add helpers of the MSM walker.
// requires: bn254_fq, bn254_fq13

// (X : Y : Z) with x = X/Z, y = Y/Z; the identity is (0 : 1 : 0). All-zero words (a cleared
// buffer) are read as the identity by g1_norm, so buffers need no identity fill.
struct G1P { x: Fq, y: Fq, z: Fq }

fn g1_identity() -> G1P { return G1P(fq_zero(), fq_one(), fq_zero()); }

fn g1_norm(p: G1P) -> G1P {
  if (fq_is_zero(p.z)) { return g1_identity(); }
  return p;
}

fn g1_from_affine(x: Fq, y: Fq) -> G1P { return G1P(x, y, fq_one()); }

// 3·b·t = 9t as 8t + t: three doublings and one add instead of a Montgomery multiply.
fn g1_mul_b3(t: Fq) -> Fq {
  let t8 = fq_double(fq_double(fq_double(t)));
  return fq_add(t8, t);
}

// RCB 2015 Algorithm 7 (complete addition, a = 0): 12M + 2·(mul by 9), no exceptional cases,
// so P + P, P + (-P) and the identity need no branches. The 12 products run as two rounds of 6
// independent ones in one loop, so the compiler emits one inlined multiply instead of 12 (each
// ~1000 instructions): kernels chaining projective additions on a few thousand threads waited on
// instruction fetch (H100 alternating A/B against the straight-line form: MSM 2^12 0.55x,
// 2^16 0.69x, 2^20 0.875x; fix-up 20.0 -> 12.7 ms, final levels 5.4 -> 2.9 ms at 2^20). The trip
// count is opaque to the compiler (canonical limbs never have bit 255 set), so it cannot unroll
// the loop back; the operands live in small arrays indexed by the loop counter. With one inlined
// multiply, SwiftShader's compiler takes the 13-bit form too (it crashed on 12 inlined unrolled
// multiplies, which is why CPU adapters used to run a rolled 8x32 multiply here).
//
// When q is affine (Z2 = 1: the walker's pieces in the fix-up, buckets finished inside one slice
// in the reduction) the product Z1·Z2 is Z1 and its loop turn is skipped: 11 multiplies, not 12
// (H100 A/B, fix-up only: 2^20 fix-up 16.1 -> 15.5 ms, 2^18 9.3 -> 8.7 at a low clock).
fn g1_add(p: G1P, q: G1P) -> G1P {
  let qaff = fq_eq(q.z, fq_one());
  var a = array<Fq, 6>(p.x, p.y, p.z, fq_add(p.x, p.y), fq_add(p.y, p.z), fq_add(p.x, p.z));
  var b = array<Fq, 6>(q.x, q.y, q.z, fq_add(q.x, q.y), fq_add(q.y, q.z), fq_add(q.x, q.z));
  var m: array<Fq, 6>;
  let n = 12u + (p.z[7] >> 31u);
  for (var k = 0u; k < n; k++) {
    if (k == 6u) {
      // Round 1 gave t0 = X1X2, t1 = Y1Y2, t2 = Z1Z2 and the three cross products.
      let t3 = fq_sub(m[3], fq_add(m[0], m[1]));
      let t4 = fq_sub(m[4], fq_add(m[1], m[2]));
      let y3 = g1_mul_b3(fq_sub(m[5], fq_add(m[0], m[2])));
      let t0 = fq_add(fq_add(m[0], m[0]), m[0]);
      let t2 = g1_mul_b3(m[2]);
      let z3 = fq_add(m[1], t2);
      let t1 = fq_sub(m[1], t2);
      a = array<Fq, 6>(t4, t3, y3, t1, t0, z3);
      b = array<Fq, 6>(y3, t1, t0, z3, t3, t4);
    }
    if (k == 2u && qaff) { m[2] = p.z; continue; }
    m[k % 6u] = fq_mul13(a[k % 6u], b[k % 6u]);
  }
  // X3 = t3·t1 - t4·y3, Y3 = t1·z3 + y3·t0, Z3 = z3·t4 + t0·t3 (RCB's last lines).
  return G1P(fq_sub(m[1], m[0]), fq_add(m[3], m[2]), fq_add(m[5], m[4]));
}

// g1_add for kernels that must compile fast and run briefly (msm_quick: a first call waits on its
// compile): RCB's Algorithm 7 as a program of 39 steps over 15 slots, run by one loop with one
// site each of the multiply (fq_mul_rows: its rows in a loop too), the addition and the
// subtraction. The straight-line additions of g1_add's second round took more of the H100 host
// driver's compile than its multiply did (bench/RESULTS.md cold). Same products as g1_add, so the
// same (X : Y : Z). Each step is kind | dst << 4 | s1 << 8 | s2 << 12 (hex digits s2 s1 dst kind;
// kind 0 s1·s2, 1 s1 + s2, 2 s1 - s2). Slots: 0-2 X1 Y1 Z1, 3-5 X2 Y2 Z2, 6-a t0..t4, b-d X3 Y3 Z3,
// e a scratch for the multiplications by b3 = 9 (9t = 8t + t: three doublings and an addition).
const G1_SMALL_STEPS = array<u32, 39>(
  0x3060u, 0x4170u, 0x5280u, 0x1091u, 0x43a1u, 0xa990u, 0x76a1u, 0xa992u, // t0 t1 t2, t3 = X1Y2 + X2Y1
  0x21a1u, 0x54b1u, 0xbaa0u, 0x87b1u, 0xbaa2u,                           // t4 = Y1Z2 + Y2Z1
  0x20b1u, 0x53c1u, 0xcbb0u, 0x86c1u, 0xcbc2u,                           // Y3 = X1Z2 + X2Z1
  0x66b1u, 0x6b61u,                                                      // t0 = 3 t0
  0x88e1u, 0xeee1u, 0xeee1u, 0x8e81u, 0x87d1u, 0x8772u,                  // t2 = b3 t2, Z3 = t1 + t2, t1 = t1 - t2
  0xcce1u, 0xeee1u, 0xeee1u, 0xcec1u,                                    // Y3 = b3 Y3
  0xcab0u, 0x7980u, 0xb8b2u, 0x6cc0u, 0xd770u, 0xc7c1u, 0x9660u, 0xadd0u, 0x6dd1u, // X3, Y3, Z3
);

fn g1_add_small(p: G1P, q: G1P) -> G1P {
  var v: array<Fq, 15>;
  v[0] = p.x; v[1] = p.y; v[2] = p.z; v[3] = q.x; v[4] = q.y; v[5] = q.z;
  let n = 39u + (p.z[7] >> 31u); // 39: canonical limbs; a count the compiler cannot see
  for (var i = 0u; i < n; i++) {
    let step = G1_SMALL_STEPS[i];
    let x = v[(step >> 8u) & 15u];
    let y = v[step >> 12u];
    var r: Fq;
    switch (step & 15u) {
      case 0u: { r = fq_mul_rows(x, y); }
      case 1u: { r = fq_add(x, y); }
      default: { r = fq_sub(x, y); }
    }
    v[(step >> 4u) & 15u] = r;
  }
  return G1P(v[11], v[12], v[13]);
}

fn g1_double(p: G1P) -> G1P { return g1_add(p, p); }

// y^2 == x^3 + b for an affine point in Montgomery form (the identity is checked by the caller).
fn g1_on_curve(x: Fq, y: Fq) -> bool {
  let b = FQ_B_LIMBS;
  let rhs = fq_add(fq_mul(fq_square(x), x), Fq(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]));
  return fq_eq(fq_square(y), rhs);
}
