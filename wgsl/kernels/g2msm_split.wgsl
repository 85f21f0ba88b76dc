// g2msm_split.wgsl: G2 MSM scalars (8 little-endian words each, < r, checked by the host) into the 16-bit half-planes that msm_sort.wgsl reads, every half resident.
// requires:

// One thread per pair of scalars (2t, 2t + 1): half-plane h's word t holds bits [16h, 16h + 16)
// of scalar 2t low and of 2t + 1 high (msm_split.wgsl's layout with every slot resident, so
// msm_sort runs with planes = SCALAR_HALVES). Scalars past n read as zero.
struct SplitParams { n: u32 } // src/kernels/g2msm/layout.ts SPLIT_PARAMS

@group(0) @binding(0) var<storage, read> packed: array<u32>;        // MSM_SCALAR_WORDS per scalar
@group(0) @binding(1) var<storage, read_write> halves: array<u32>;  // SCALAR_HALVES planes of ceil(n / 2) words
@group(0) @binding(2) var<uniform> prm: SplitParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * G2_SPLIT_WG; }

fn half_of(i: u32, h: u32) -> u32 {
  if (i >= prm.n) { return 0u; }
  return (packed[MSM_SCALAR_WORDS * i + (h >> 1u)] >> ((h & 1u) << 4u)) & 0xffffu;
}

@compute @workgroup_size(G2_SPLIT_WG)
fn g2msm_split(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  let words = (prm.n + 1u) >> 1u;
  if (t >= words) { return; }
  for (var h = 0u; h < SCALAR_HALVES; h++) {
    halves[h * words + t] = half_of(2u * t, h) | (half_of(2u * t + 1u, h) << 16u);
  }
}
