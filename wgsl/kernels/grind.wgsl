// grind.wgsl: proof-of-work search for DuplexChallenger<BabyBear, Perm16, 16, 8>::grind: one Perm16 per candidate witness, smallest hit by atomicMin.
// requires: poseidon2

// Candidate w decides check_witness(bits, w) through lane 7 of Perm16(base with base[slot] = w)
// (plonky3.md §6; the host builds `base` from the challenger's sponge state and pending inputs).
struct GrindParams {
  base: array<vec4u, 4>, // Montgomery form
  slot: u32,             // lane that takes w (= pending inputs, 0..7)
  mask: u32,             // 2^bits - 1
  start: u32,            // first candidate of this dispatch
  count: u32,            // candidates in this dispatch (start + count <= p)
}

@group(0) @binding(0) var<uniform> p2_rc: array<vec4u, P2_RC_VEC4>;
@group(0) @binding(1) var<uniform> gp: GrindParams;
// Smallest valid witness found so far; 0xffffffff = none. The host resets it per search.
@group(0) @binding(2) var<storage, read_write> found: atomic<u32>;

@compute @workgroup_size(GR_WG)
fn grind_search(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * GR_WG;
  if (i >= gp.count) { return; }
  let w = gp.start + i;
  // A smaller witness is already known: this one cannot be the answer (keeps "smallest" exact
  // while letting threads scheduled after a hit skip their permutation).
  if (atomicLoad(&found) < w) { return; }
  let wm = bb_to_monty(w);
  var s: p2_state;
  for (var j = 0u; j < P2_WIDTH; j++) {
    let b = gp.base[j >> 2u][j & 3u];
    s[j] = select(b, wm, j == gp.slot);
  }
  p2_permute(&s);
  if ((bb_from_monty(s[7]) & gp.mask) == 0u) { atomicMin(&found, w); }
}
