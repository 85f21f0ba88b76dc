// field_check.wgsl: one entry point per BabyBear / ext4 operation over canonical inputs, for GPU-vs-reference checks and prover.batchField.
// requires: babybear, babybear_ext4

// Inputs: a, b (canonical values; ext4 elements are 4 consecutive u32). Output: out (canonical).
// Values go through bb_to_monty / bb_from_monty so the conversions are checked too.
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

// Flat thread index over a 2-D grid (large batches exceed 65535 workgroups in x).
fn thread_index(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * FIELD_WG;
}

fn load(i: u32) -> u32 { return bb_to_monty(a[i]); }
fn load_b(i: u32) -> u32 { return bb_to_monty(b[i]); }
fn load4(i: u32) -> vec4u { return vec4u(load(4u * i), load(4u * i + 1u), load(4u * i + 2u), load(4u * i + 3u)); }
fn load4_b(i: u32) -> vec4u { return vec4u(load_b(4u * i), load_b(4u * i + 1u), load_b(4u * i + 2u), load_b(4u * i + 3u)); }
fn store(i: u32, v: u32) { out[i] = bb_from_monty(v); }
fn store4(i: u32, v: vec4u) {
  out[4u * i] = bb_from_monty(v.x); out[4u * i + 1u] = bb_from_monty(v.y);
  out[4u * i + 2u] = bb_from_monty(v.z); out[4u * i + 3u] = bb_from_monty(v.w);
}

@compute @workgroup_size(FIELD_WG)
fn field_add(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out)) { return; }
  store(i, bb_add(load(i), load_b(i)));
}

@compute @workgroup_size(FIELD_WG)
fn field_sub(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out)) { return; }
  store(i, bb_sub(load(i), load_b(i)));
}

@compute @workgroup_size(FIELD_WG)
fn field_mul(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out)) { return; }
  store(i, bb_mul(load(i), load_b(i)));
}

@compute @workgroup_size(FIELD_WG)
fn field_square(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out)) { return; }
  store(i, bb_square(load(i)));
}

@compute @workgroup_size(FIELD_WG)
fn field_pow7(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out)) { return; }
  store(i, bb_pow7(load(i)));
}

@compute @workgroup_size(FIELD_WG)
fn field_inv(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out)) { return; }
  store(i, bb_inv(load(i)));
}

@compute @workgroup_size(FIELD_WG)
fn ext4_mul_op(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out) / 4u) { return; }
  store4(i, ext4_mul(load4(i), load4_b(i)));
}

@compute @workgroup_size(FIELD_WG)
fn ext4_inv_op(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = thread_index(gid, nwg); if (i >= arrayLength(&out) / 4u) { return; }
  store4(i, ext4_inv(load4(i)));
}
