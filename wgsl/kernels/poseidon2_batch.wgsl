// poseidon2_batch.wgsl: one thread per Poseidon2 permutation over a batch of canonical states, in place (prover.poseidon2).
// requires: poseidon2

@group(0) @binding(0) var<uniform> p2_rc: array<vec4u, P2_RC_VEC4>;
// k states of P2_WIDTH canonical values, back to back; permuted in place.
@group(0) @binding(1) var<storage, read_write> states: array<u32>;

@compute @workgroup_size(P2_WG)
fn p2_batch(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * P2_WG;
  if (i >= arrayLength(&states) / P2_WIDTH) { return; }
  let o = i * P2_WIDTH;
  var s: p2_state;
  for (var j = 0u; j < P2_WIDTH; j++) { s[j] = bb_to_monty(states[o + j]); }
  p2_permute(&s);
  for (var j = 0u; j < P2_WIDTH; j++) { states[o + j] = bb_from_monty(s[j]); }
}
