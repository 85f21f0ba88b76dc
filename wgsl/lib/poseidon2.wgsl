// poseidon2.wgsl: Plonky3's Poseidon2 over BabyBear (x^7, 4+4 full rounds, P2_RP partial rounds) on a state in registers, Montgomery form.
// requires: babybear

// The kernel that links this module declares the round constants as
//   @group(0) @binding(0) var<uniform> p2_rc: array<vec4u, P2_RC_VEC4>;
// (a uniform, not preamble consts, so a caller's own constant set runs through the same
// pipeline; uniform loads with loop-constant indices are constant-bank operands on NVIDIA).
// Layout, Montgomery form, u32 index: [0, 4W) external-initial rounds, [4W, 4W+RP) internal,
// [4W+RP, 8W+RP) external-final, [8W+RP, 9W+RP) internal diagonal V (src/kernels/poseidon2.ts packs it).
// P2_WIDTH (16 or 24) and P2_RP (13 or 21) are plan constants.

alias p2_state = array<u32, P2_WIDTH>;

fn p2_const(i: u32) -> u32 {
  return p2_rc[i >> 2u][i & 3u];
}

// x <- M4 x on s[o..o+4], M4 = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] with Plonky3's 8-add chain (+2 doublings).
fn p2_m4(s: ptr<function, p2_state>, o: u32) {
  let x0 = (*s)[o]; let x1 = (*s)[o + 1u]; let x2 = (*s)[o + 2u]; let x3 = (*s)[o + 3u];
  let t01 = bb_add(x0, x1); let t23 = bb_add(x2, x3); let t0123 = bb_add(t01, t23);
  let t01123 = bb_add(t0123, x1); let t01233 = bb_add(t0123, x3);
  (*s)[o + 3u] = bb_add(t01233, bb_double(x0));
  (*s)[o + 1u] = bb_add(t01123, bb_double(x2));
  (*s)[o] = bb_add(t01123, t01);
  (*s)[o + 2u] = bb_add(t01233, t23);
}

// M_E = circ(2 M4, M4, ...): M4 per 4-chunk, then every lane adds the sum of its column over the chunks.
fn p2_external(s: ptr<function, p2_state>) {
  for (var o = 0u; o < P2_WIDTH; o += 4u) { p2_m4(s, o); }
  for (var i = 0u; i < 4u; i++) {
    var sum = (*s)[i];
    for (var o = 4u; o < P2_WIDTH; o += 4u) { sum = bb_add(sum, (*s)[o + i]); }
    for (var o = 0u; o < P2_WIDTH; o += 4u) { (*s)[o + i] = bb_add((*s)[o + i], sum); }
  }
}

// M_I = J + diag(V): s_i <- sum + V_i s_i (one Montgomery multiply per lane).
fn p2_internal(s: ptr<function, p2_state>) {
  var sum = (*s)[0];
  for (var i = 1u; i < P2_WIDTH; i++) { sum = bb_add(sum, (*s)[i]); }
  let d = 8u * P2_WIDTH + P2_RP;
  for (var i = 0u; i < P2_WIDTH; i++) { (*s)[i] = bb_add(sum, bb_mul(p2_const(d + i), (*s)[i])); }
}

fn p2_full_round(s: ptr<function, p2_state>, rc: u32) {
  for (var i = 0u; i < P2_WIDTH; i++) { (*s)[i] = bb_pow7(bb_add((*s)[i], p2_const(rc + i))); }
  p2_external(s);
}

// The permutation, in place. Montgomery multiplies: 8 W S-boxes x 4 + RP x (4 + W) diagonal
// = 772 at width 16 (bb_pow7 is 4 multiplies).
fn p2_permute(s: ptr<function, p2_state>) {
  p2_external(s);
  for (var r = 0u; r < 4u; r++) { p2_full_round(s, r * P2_WIDTH); }
  for (var r = 0u; r < P2_RP; r++) {
    (*s)[0] = bb_pow7(bb_add((*s)[0], p2_const(4u * P2_WIDTH + r)));
    p2_internal(s);
  }
  for (var r = 0u; r < 4u; r++) { p2_full_round(s, 4u * P2_WIDTH + P2_RP + r * P2_WIDTH); }
}
