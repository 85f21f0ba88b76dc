// field_bench.wgsl: Montgomery-multiply throughput, the same dependent chain shape as the roofline probe's (ROOFLINE_PROBE, bench/node-gpu.ts) so the two rates compare.
// requires: babybear

// Output: s[i] = x ^ y after BENCH_ITERS rounds of (x = x*y, y = y*x); the host recomputes a
// sample of threads with src/ref montMul before trusting the timing.
@group(0) @binding(0) var<storage, read_write> s: array<u32>;

@compute @workgroup_size(FIELD_WG)
fn field_bench(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * FIELD_WG;
  if (i >= arrayLength(&s)) { return; }
  var x = (i * 2654435761u) % BB_P;
  var y = (x ^ 0x9e3779b9u) % BB_P;
  for (var k = 0u; k < BENCH_ITERS; k++) {
    x = bb_mul(x, y);
    y = bb_mul(y, x);
  }
  s[i] = x ^ y;
}
