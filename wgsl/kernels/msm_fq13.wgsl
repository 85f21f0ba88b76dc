// msm_fq13.wgsl: check and throughput entry points of the BN254 Fq arithmetic (test/gpu only): bn254_fq's 8 x 32 (multiply, add, subtract, inversion) and the 20 x 13-bit layout (bn254_fq13) that issue 5 asks to measure against it; bindings as msm_prep's first three (bench/support/msm-kernel-checks.ts PAIR_B).
// requires: bn254_fq13, bn254_inv

struct CheckParams { n: u32, iters: u32 } // test/gpu/msm-kernel-checks.ts CHECK_PARAMS

@group(0) @binding(0) var<storage, read_write> pts: array<u32>;       // 8-word canonical values in and out
@group(0) @binding(1) var<storage, read_write> bad: array<atomic<u32>>; // unused here (as msm_prep's flags)
@group(0) @binding(2) var<uniform> prm: CheckParams;

fn ldp(off: u32) -> Fq {
  return Fq(pts[off], pts[off + 1u], pts[off + 2u], pts[off + 3u], pts[off + 4u], pts[off + 5u], pts[off + 6u], pts[off + 7u]);
}
fn stp(off: u32, v: Fq) { for (var k = 0u; k < FQ_WORDS; k++) { pts[off + k] = v[k]; } }

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * PREP_WG; }

// Start values (x, y) of thread i of the bench jobs, canonical (not Montgomery): the same as
// fq_bench below and the bigint replay in test/gpu/fq-layout-check.ts benchRef.
fn bench_start(i: u32) -> array<Fq, 2> {
  return array<Fq, 2>(Fq(i, 1u, 2u, 3u, 4u, 5u, 6u, 7u), Fq(i ^ 0x9e3779b9u, 7u, 6u, 5u, 4u, 3u, 2u, 1u));
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
  let s = bench_start(i);
  var x = fq_to_mont(s[0]);
  var y = fq_to_mont(s[1]);
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

// Per pair (a, b) of canonical values (32 words per pair, inputs in the first 16), writes:
// a·b and a·a through the 13-bit domain; a through the layout and Montgomery round trip; and
// a·b by fq_mul13 on 8x32 Montgomery values (the multiply every MSM kernel runs on GPUs).
@compute @workgroup_size(PREP_WG)
fn fq13_check(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  let a32 = ldp(32u * i); let b32 = ldp(32u * i + 8u);
  let a = fq13_to_mont(fq13_from_fq(a32)); let b = fq13_to_mont(fq13_from_fq(b32));
  let ab = fq13_to_fq(fq13_from_mont(fq13_mul(a, b)));
  let aa = fq13_to_fq(fq13_from_mont(fq13_square(a)));
  let rt = fq13_to_fq(fq13_from_mont(a));
  let mixed = fq_from_mont(fq_mul13(fq_to_mont(a32), fq_to_mont(b32)));
  stp(32u * i, ab); stp(32u * i + 8u, aa); stp(32u * i + 16u, rt); stp(32u * i + 24u, mixed);
}

// Throughput, the same job as fq_bench (same start values, same canonical sequence,
// so both layouts must write identical words): prm.iters rounds of (x = x·y, y = y·x).
@compute @workgroup_size(PREP_WG)
fn fq13_bench(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  let s = bench_start(i);
  var x = fq13_to_mont(fq13_from_fq(s[0]));
  var y = fq13_to_mont(fq13_from_fq(s[1]));
  for (var k = 0u; k < prm.iters; k++) { x = fq13_mul(x, y); y = fq13_mul(y, x); }
  stp(8u * i, fq13_to_fq(fq13_from_mont(x)));
}

// Throughput of fq_mul13 (8 x 32 state, 13-bit multiply): the same job and words as fq_bench.
@compute @workgroup_size(PREP_WG)
fn fq_mixed_bench(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  let s = bench_start(i);
  var x = fq_to_mont(s[0]);
  var y = fq_to_mont(s[1]);
  for (var k = 0u; k < prm.iters; k++) { x = fq_mul13(x, y); y = fq_mul13(y, x); }
  stp(8u * i, fq_from_mont(x));
}

// The same job with 32 multiply call sites per loop turn instead of 2 (unrolled 16x in the
// source, so the compiler inlines 32 copies, ~0.5 MB of machine code): whether a kernel's inlined
// code size costs throughput, as the MSM walker and the projective passes inline many multiplies.
@compute @workgroup_size(PREP_WG)
fn fq_mixed_bench_wide(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= prm.n) { return; }
  let s = bench_start(i);
  var x = fq_to_mont(s[0]);
  var y = fq_to_mont(s[1]);
  for (var k = 0u; k < prm.iters; k += 16u) {
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
    x = fq_mul13(x, y); y = fq_mul13(y, x);
  }
  stp(8u * i, fq_from_mont(x));
}
