// grind.wgsl: proof-of-work search for DuplexChallenger<BabyBear, Perm16, 16, 8>::grind: one p2s16 permutation per candidate witness, smallest hit by atomicMin.
// requires: poseidon2_s16

// Candidate w decides check_witness(bits, w) through lane 7 of Perm16(base with base[slot] = w)
// (plonky3.md §6; the host, src/kernels/grind.ts, builds `base` from the challenger's sponge
// state and pending inputs).
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
  let s = p2s16_permute(P2S16(
    select(gp.base[0u].x, wm, gp.slot == 0u),
    select(gp.base[0u].y, wm, gp.slot == 1u),
    select(gp.base[0u].z, wm, gp.slot == 2u),
    select(gp.base[0u].w, wm, gp.slot == 3u),
    select(gp.base[1u].x, wm, gp.slot == 4u),
    select(gp.base[1u].y, wm, gp.slot == 5u),
    select(gp.base[1u].z, wm, gp.slot == 6u),
    select(gp.base[1u].w, wm, gp.slot == 7u),
    select(gp.base[2u].x, wm, gp.slot == 8u),
    select(gp.base[2u].y, wm, gp.slot == 9u),
    select(gp.base[2u].z, wm, gp.slot == 10u),
    select(gp.base[2u].w, wm, gp.slot == 11u),
    select(gp.base[3u].x, wm, gp.slot == 12u),
    select(gp.base[3u].y, wm, gp.slot == 13u),
    select(gp.base[3u].z, wm, gp.slot == 14u),
    select(gp.base[3u].w, wm, gp.slot == 15u),
  ));
  if ((bb_from_monty(s.v7) & gp.mask) == 0u) { atomicMin(&found, w); }
}
