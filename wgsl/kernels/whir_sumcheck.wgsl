// whir_sumcheck.wgsl: the WHIR prover's sumcheck tables on the GPU: round messages, binds (fused with the next message), eq/select constraint weights, multilinear evaluation.
// requires: babybear_ext4

// Host: src/kernels/whir-sumcheck.ts (plan, passes), src/whir/gpu-engine.ts (the SumcheckEngine).
// Every value is in Montgomery form (the host converts small tables; ws_from_monty converts the
// large ones for readback), except the base-field evaluations before the first bind: canonical,
// packed four to a vec4u, word k at [k >> 2][k & 3], converted as ws_base reads them. Extension
// tables hold one element per vec4u. Index bits are MSB-first (x_0 is the top bit) and a bind fixes the last
// variable, so it pairs neighbours (2j, 2j+1), as src/whir/multilinear.ts.
//
// Reductions (round messages, evaluations) run as a grid-stride loop over a fixed number of
// workgroups, each writing two partial sums to ws_parts[2·wg], [2·wg + 1]; ws_reduce (one
// workgroup) then sums those into ws_parts[0], [1]. Field sums are exact, so the order is free.
//
// Claim tables (ws_tabs, words) split an index b = h·2^L + l, L = ws.lo_bits: eq(p, b) =
// eq(p_hi, h)·eq(p_lo, l) and x^b = (x^(2^L))^h · x^l, so each weight costs one product of two
// table entries per claim instead of m factors. The eq tables (2^(m-L) + 2^L entries a claim) are
// built here from the claims' points (ws_eq_tabs); the select powers by the host.
struct WsParams {
  r: vec4u,          // the bind's challenge
  n: u32,            // items: pairs (round), outputs (bind), elements (claims, eval), vec4s (monty), partial pairs (reduce)
  lo_bits: u32,      // L of the claim tables
  n_eq: u32,         // eq tables: 4·(2^(m-L) + 2^L) words each from word 0, hi (coeff folded in) then lo
  n_sel: u32,        // select claims
  eq_stride: u32,    // words per eq claim
  sel_coeff: u32,    // word offset of the select coefficients (one element each)
  sel_base: u32,     // word offset of the select power tables: per claim (x^(2^L))^h then x^l, base field
  sel_stride: u32,   // words per select claim: 2^(m-L) + 2^L
  vars: u32,         // m, the claims' variables (ws_eq_tabs)
}

@group(0) @binding(0) var<uniform> ws: WsParams;
@group(0) @binding(1) var<storage, read> ws_e_in: array<vec4u>;
@group(0) @binding(2) var<storage, read> ws_w_in: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> ws_e_out: array<vec4u>;
@group(0) @binding(4) var<storage, read_write> ws_w_out: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> ws_parts: array<vec4u>;
@group(0) @binding(6) var<storage, read> ws_tabs: array<vec4u>;

var<workgroup> ws_red0: array<vec4u, WS_WG>;
var<workgroup> ws_red1: array<vec4u, WS_WG>;

fn ws_scale(a: vec4u, s: u32) -> vec4u {
  return vec4u(bb_mul(a.x, s), bb_mul(a.y, s), bb_mul(a.z, s), bb_mul(a.w, s));
}

// Base evaluation k, canonical in the buffer (the commit's own table, shared, never written),
// in Montgomery form here.
fn ws_base(k: u32) -> u32 {
  return bb_to_monty(ws_e_in[k >> 2u][k & 3u]);
}

fn ws_tab_word(k: u32) -> u32 {
  return ws_tabs[k >> 2u][k & 3u];
}

// Workgroup tree sum of (a, b); thread 0 gets the totals. Called in uniform control flow.
fn ws_wg_sum(lid: u32, a: vec4u, b: vec4u) -> array<vec4u, 2> {
  ws_red0[lid] = a;
  ws_red1[lid] = b;
  workgroupBarrier();
  for (var s = WS_WG / 2u; s > 0u; s = s >> 1u) {
    if (lid < s) {
      ws_red0[lid] = ext4_add(ws_red0[lid], ws_red0[lid + s]);
      ws_red1[lid] = ext4_add(ws_red1[lid], ws_red1[lid + s]);
    }
    workgroupBarrier();
  }
  return array<vec4u, 2>(ws_red0[0], ws_red1[0]);
}

fn ws_store_parts(lid: u32, wg: u32, a: vec4u, b: vec4u) {
  let t = ws_wg_sum(lid, a, b);
  if (lid == 0u) {
    ws_parts[2u * wg] = t[0];
    ws_parts[2u * wg + 1u] = t[1];
  }
}

// ws_e_out[i] = canonical(ws_e_in[i]) for i < n: a table read back.
@compute @workgroup_size(WS_WG)
fn ws_from_monty(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  for (var i = gid.x; i < ws.n; i += nwg.x * WS_WG) {
    let v = ws_e_in[i];
    ws_e_out[i] = vec4u(bb_from_monty(v.x), bb_from_monty(v.y), bb_from_monty(v.z), bb_from_monty(v.w));
  }
}

// [h(0), h(∞)] partials over n pairs of base evaluations: Σ e[2j]·w[2j], Σ (e[2j+1]-e[2j])·(w[2j+1]-w[2j]).
@compute @workgroup_size(WS_WG)
fn ws_round_base(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u,
    @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  var c0 = vec4u(0u);
  var ci = vec4u(0u);
  for (var j = gid.x; j < ws.n; j += nwg.x * WS_WG) {
    let e0 = ws_base(2u * j);
    let e1 = ws_base(2u * j + 1u);
    let w0 = ws_w_in[2u * j];
    c0 = ext4_add(c0, ws_scale(w0, e0));
    ci = ext4_add(ci, ws_scale(ext4_sub(ws_w_in[2u * j + 1u], w0), bb_sub(e1, e0)));
  }
  ws_store_parts(lid.x, wid.x, c0, ci);
}

// The same over extension evaluations.
@compute @workgroup_size(WS_WG)
fn ws_round_ext(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u,
    @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  var c0 = vec4u(0u);
  var ci = vec4u(0u);
  for (var j = gid.x; j < ws.n; j += nwg.x * WS_WG) {
    let e0 = ws_e_in[2u * j];
    let w0 = ws_w_in[2u * j];
    c0 = ext4_add(c0, ext4_mul(e0, w0));
    ci = ext4_add(ci, ext4_mul(ext4_sub(ws_e_in[2u * j + 1u], e0), ext4_sub(ws_w_in[2u * j + 1u], w0)));
  }
  ws_store_parts(lid.x, wid.x, c0, ci);
}

fn ws_lerp(a: vec4u, b: vec4u) -> vec4u {
  return ext4_add(a, ext4_mul(ext4_sub(b, a), ws.r));
}

fn ws_lerp_base(a: u32, b: u32) -> vec4u {
  let d = ws_scale(ws.r, bb_sub(b, a));
  return vec4u(bb_add(d.x, a), d.y, d.z, d.w);
}

// The next round's message terms of output pair (o0, o1) of both tables.
fn ws_message_terms(e0: vec4u, e1: vec4u, w0: vec4u, w1: vec4u) -> array<vec4u, 2> {
  return array<vec4u, 2>(ext4_mul(e0, w0), ext4_mul(ext4_sub(e1, e0), ext4_sub(w1, w0)));
}

// Bind the last variable to r over base evaluations (n outputs, n = 1 or even): out[j] =
// in[2j] + r·(in[2j+1] - in[2j]) in both tables, each thread two neighbouring outputs, whose
// next-round message terms it adds to the partials (fold, then measure: the next roundMessage
// needs only ws_reduce). With n = 1 there is no next round and the partials are not meaningful.
@compute @workgroup_size(WS_WG)
fn ws_bind_base(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u,
    @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  var c0 = vec4u(0u);
  var ci = vec4u(0u);
  for (var q = gid.x; 2u * q < ws.n; q += nwg.x * WS_WG) {
    let o = 2u * q;
    let e0 = ws_lerp_base(ws_base(2u * o), ws_base(2u * o + 1u));
    let w0 = ws_lerp(ws_w_in[2u * o], ws_w_in[2u * o + 1u]);
    ws_e_out[o] = e0;
    ws_w_out[o] = w0;
    if (o + 1u < ws.n) {
      let e1 = ws_lerp_base(ws_base(2u * o + 2u), ws_base(2u * o + 3u));
      let w1 = ws_lerp(ws_w_in[2u * o + 2u], ws_w_in[2u * o + 3u]);
      ws_e_out[o + 1u] = e1;
      ws_w_out[o + 1u] = w1;
      let t = ws_message_terms(e0, e1, w0, w1);
      c0 = ext4_add(c0, t[0]);
      ci = ext4_add(ci, t[1]);
    }
  }
  ws_store_parts(lid.x, wid.x, c0, ci);
}

@compute @workgroup_size(WS_WG)
fn ws_bind_ext(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u,
    @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  var c0 = vec4u(0u);
  var ci = vec4u(0u);
  for (var q = gid.x; 2u * q < ws.n; q += nwg.x * WS_WG) {
    let o = 2u * q;
    let e0 = ws_lerp(ws_e_in[2u * o], ws_e_in[2u * o + 1u]);
    let w0 = ws_lerp(ws_w_in[2u * o], ws_w_in[2u * o + 1u]);
    ws_e_out[o] = e0;
    ws_w_out[o] = w0;
    if (o + 1u < ws.n) {
      let e1 = ws_lerp(ws_e_in[2u * o + 2u], ws_e_in[2u * o + 3u]);
      let w1 = ws_lerp(ws_w_in[2u * o + 2u], ws_w_in[2u * o + 3u]);
      ws_e_out[o + 1u] = e1;
      ws_w_out[o + 1u] = w1;
      let t = ws_message_terms(e0, e1, w0, w1);
      c0 = ext4_add(c0, t[0]);
      ci = ext4_add(ci, t[1]);
    }
  }
  ws_store_parts(lid.x, wid.x, c0, ci);
}

// One workgroup: ws_parts[0], [1] = the sums of the n partial pairs (in place).
@compute @workgroup_size(WS_WG)
fn ws_reduce(@builtin(local_invocation_id) lid: vec3u) {
  var a = vec4u(0u);
  var b = vec4u(0u);
  for (var i = lid.x; i < ws.n; i += WS_WG) {
    a = ext4_add(a, ws_parts[2u * i]);
    b = ext4_add(b, ws_parts[2u * i + 1u]);
  }
  ws_store_parts(lid.x, 0u, a, b);
}

// weights[b] += Σ_i eqhi_i[h]·eqlo_i[l] + Σ_j coeff_j·(y_j^h · x_j^l), b = h·2^L + l < n.
@compute @workgroup_size(WS_WG)
fn ws_add_claims(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let lo_n = 1u << ws.lo_bits;
  let hi_n = ws.n >> ws.lo_bits;
  for (var b = gid.x; b < ws.n; b += nwg.x * WS_WG) {
    let h = b >> ws.lo_bits;
    let l = b & (lo_n - 1u);
    var acc = ws_w_out[b];
    for (var i = 0u; i < ws.n_eq; i++) {
      let base = (i * ws.eq_stride) >> 2u;
      acc = ext4_add(acc, ext4_mul(ws_tabs[base + h], ws_tabs[base + hi_n + l]));
    }
    for (var j = 0u; j < ws.n_sel; j++) {
      let t = ws.sel_base + j * ws.sel_stride;
      let s = bb_mul(ws_tab_word(t + h), ws_tab_word(t + hi_n + l));
      acc = ext4_add(acc, ws_scale(ws_tabs[(ws.sel_coeff >> 2u) + j], s));
    }
    ws_w_out[b] = acc;
  }
}

// The eq claims' tables (layout above) into ws_e_out, from ws_tabs holding per claim its
// coefficient then its m point coordinates (vec4s, x_0 first). Entry e < 2^(m-L) of claim i is
// coeff·Π_{v < m-L} f_v(bit m-L-1-v of e), entry 2^(m-L) + l is Π_{v < L} f_{m-L+v}(bit L-1-v of
// l), with f_v(1) = p_v and f_v(0) = 1 - p_v: eq's factors, MSB first. n = n_eq · (2^(m-L) + 2^L).
@compute @workgroup_size(WS_WG)
fn ws_eq_tabs(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let hi_bits = ws.vars - ws.lo_bits;
  let per = (1u << hi_bits) + (1u << ws.lo_bits);
  for (var t = gid.x; t < ws.n; t += nwg.x * WS_WG) {
    let claim = t / per;
    let e = t - claim * per;
    let spec = claim * (ws.vars + 1u);
    let hi = e < (1u << hi_bits);
    var acc = select(vec4u(BB_ONE, 0u, 0u, 0u), ws_tabs[spec], hi);
    let first = select(hi_bits, 0u, hi);
    let count = select(ws.lo_bits, hi_bits, hi);
    let idx = select(e - (1u << hi_bits), e, hi);
    for (var v = 0u; v < count; v++) {
      let p = ws_tabs[spec + 1u + first + v];
      let one_minus = vec4u(bb_sub(BB_ONE, p.x), bb_neg(p.y), bb_neg(p.z), bb_neg(p.w));
      acc = ext4_mul(acc, select(one_minus, p, ((idx >> (count - 1u - v)) & 1u) == 1u));
    }
    ws_e_out[claim * per + e] = acc;
  }
}

// Partials of Σ_b e[b]·eqhi[h]·eqlo[l] (eq table 0) over n base evaluations; the second sum is 0.
@compute @workgroup_size(WS_WG)
fn ws_eval_base(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u,
    @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let lo_n = 1u << ws.lo_bits;
  let hi_n = ws.n >> ws.lo_bits;
  var acc = vec4u(0u);
  for (var b = gid.x; b < ws.n; b += nwg.x * WS_WG) {
    let t = ws_scale(ws_tabs[hi_n + (b & (lo_n - 1u))], ws_base(b));
    acc = ext4_add(acc, ext4_mul(ws_tabs[b >> ws.lo_bits], t));
  }
  ws_store_parts(lid.x, wid.x, acc, vec4u(0u));
}

@compute @workgroup_size(WS_WG)
fn ws_eval_ext(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u,
    @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let lo_n = 1u << ws.lo_bits;
  let hi_n = ws.n >> ws.lo_bits;
  var acc = vec4u(0u);
  for (var b = gid.x; b < ws.n; b += nwg.x * WS_WG) {
    let t = ext4_mul(ws_tabs[hi_n + (b & (lo_n - 1u))], ws_e_in[b]);
    acc = ext4_add(acc, ext4_mul(ws_tabs[b >> ws.lo_bits], t));
  }
  ws_store_parts(lid.x, wid.x, acc, vec4u(0u));
}
