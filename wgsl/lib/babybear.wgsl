// babybear.wgsl: BabyBear p = 2^31 - 2^27 + 1 in Montgomery form (x*2^32 mod p, Plonky3's MontyField31); every value in [0, p).
// requires: u32x

// a + b < 2^32 because both are < 2^31. min() picks the reduced value in 3 instructions instead
// of 4 (add, compare, select, subtract): below p, s - p wraps to above s; from p on it is s - p < s.
fn bb_add(a: u32, b: u32) -> u32 {
  let s = a + b;
  return min(s, s - BB_P);
}

// The same trick: a ≥ b leaves d < p < d + p; a < b wraps d to ≥ 2^32 - p, and d + p wraps back below p.
fn bb_sub(a: u32, b: u32) -> u32 {
  let d = a - b;
  return min(d, d + BB_P);
}

fn bb_neg(a: u32) -> u32 {
  return select(BB_P - a, 0u, a == 0u);
}

fn bb_double(a: u32) -> u32 {
  return bb_add(a, a);
}

// High 32 bits of t*p using p = 2^S1 - 2^S2 + 1: t*p = (t << S1) - (t << S2) + t as 64-bit
// (hi, lo) pairs. Shifts, adds and two compares replace a 4-multiply emulated mulhi.
fn bb_mulhi_p(t: u32) -> u32 {
  let lo_a = t << BB_SHIFT_HI; let hi_a = t >> (32u - BB_SHIFT_HI);
  let lo_b = t << BB_SHIFT_LO; let hi_b = t >> (32u - BB_SHIFT_LO);
  let lo_d = lo_a - lo_b;
  let hi_d = hi_a - hi_b - select(0u, 1u, lo_a < lo_b);
  let lo_e = lo_d + t;
  return hi_d + select(0u, 1u, lo_e < lo_d);
}

// Montgomery product a*b/2^32 mod p (Plonky3 monty_reduce): t = lo(a*b)*MU, so lo(t*p) = lo(a*b)
// and a*b - t*p = (hi(a*b) - hi(t*p)) * 2^32 exactly; add p back on borrow. Inputs and output in [0, p).
fn bb_mul(a: u32, b: u32) -> u32 {
  let hi = u32x_mulhi31(a, b);
  let t = (a * b) * BB_MU;
  let u = bb_mulhi_p(t);
  return bb_sub(hi, u); // hi, u < p: hi - u in (-p, p)
}

// x·w mod p by Shoup's method, for a multiplier w known ahead with wq = floor(w·2^31 / p)
// (bbShoupQuotient): q = floor(x·wq / 2^31) is floor(x·w / p) or one less, so x·w − q·p, taken
// mod 2^32, is the exact value in [0, 2p). One emulated mulhi and no Montgomery reduction.
// Works on canonical x and plain w (not Montgomery form). x < p.
fn bb_mul_shoup(x: u32, w: u32, wq: u32) -> u32 {
  let q = (u32x_mulhi31(x, wq) << 1u) | ((x * wq) >> 31u);
  let r = x * w - q * BB_P;
  return min(r, r - BB_P);
}

fn bb_square(a: u32) -> u32 {
  return bb_mul(a, a);
}

// x^7, the Poseidon2 S-box, in 4 multiplies.
fn bb_pow7(x: u32) -> u32 {
  let x3 = bb_mul(bb_square(x), x);
  return bb_mul(bb_square(x3), x);
}

fn bb_to_monty(x: u32) -> u32 {
  return bb_mul(x, BB_R2);
}

fn bb_from_monty(x: u32) -> u32 {
  return bb_mul(x, 1u);
}

// x^(p-2) by square-and-multiply over the 31 bits of p-2; returns 0 for 0 (callers check).
fn bb_inv(x: u32) -> u32 {
  var r = BB_ONE;
  var b = x;
  var e = BB_P - 2u;
  loop {
    if ((e & 1u) != 0u) { r = bb_mul(r, b); }
    e = e >> 1u;
    if (e == 0u) { break; }
    b = bb_square(b);
  }
  return r;
}
