// msm_split.wgsl: MSM scalars as the caller packed them (32 bytes each, little- or big-endian) into the sort's half-planes, with the range check (< r) and the scalars of identity points zeroed.
// requires:

// One thread per pair of scalars (2t, 2t + 1): for each half h in [hlo, hhi], the word of half-plane
// slot h % planes that holds both (bits [16h, 16h + 16) of scalar 2t low, of 2t + 1 high), the
// layout msm_sort.wgsl reads. Its CPU twin is encodeScalars (src/api/msm-encode.ts). The caller's
// bytes arrive as they are (one copy on the host), so this pass is where they become planes: it
// reads each scalar once per call, 32 bytes, and writes the halves the batch needs.
// i0: the run's first scalar within its chain of parts (run.ts), so bad[0] holds the chain's index.
struct SplitParams { n: u32, hlo: u32, hhi: u32, planes: u32, be: u32, base0: u32, i0: u32 } // src/kernels/msm/params.ts SPLIT_PARAMS

@group(0) @binding(0) var<storage, read> packed: array<u32>;          // MSM_SCALAR_WORDS per scalar, as the caller's bytes
@group(0) @binding(1) var<storage, read> bases: array<u32>;           // G1_AFFINE_WORDS per point; all zero = identity
@group(0) @binding(2) var<storage, read_write> halves: array<u32>;    // slots of ceil(n / 2) words
@group(0) @binding(3) var<storage, read_write> bad: array<atomic<u32>>; // [0]: smallest index of a scalar >= r
@group(0) @binding(4) var<uniform> prm: SplitParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * SPLIT_WG; }

fn bswap(w: u32) -> u32 {
  return (w << 24u) | ((w & 0xff00u) << 8u) | ((w >> 8u) & 0xff00u) | (w >> 24u);
}

// Scalar i's limbs, least significant first (big-endian bytes: limb j is word 7 - j byte-swapped);
// zeros past n. A scalar >= r is reported (the job fails with NON_CANONICAL).
fn scalar_limbs(i: u32) -> array<u32, 8> {
  var k: array<u32, 8>;
  if (i >= prm.n) { return k; }
  for (var j = 0u; j < MSM_SCALAR_WORDS; j++) {
    if (prm.be == 1u) { k[j] = bswap(packed[MSM_SCALAR_WORDS * i + MSM_SCALAR_WORDS - 1u - j]); } else { k[j] = packed[MSM_SCALAR_WORDS * i + j]; }
  }
  let r = FR_R_LIMBS;
  var ge = true; // equal so far counts as >= r
  for (var j = 7i; j >= 0i; j--) {
    if (k[j] != r[j]) { ge = k[j] > r[j]; break; }
  }
  if (ge) { atomicMin(&bad[0], prm.i0 + i); }
  // An identity point's scalar is zeroed: (0, 0) is no affine point the walker can add.
  var any = 0u;
  let o = G1_AFFINE_WORDS * (prm.base0 + i);
  for (var w = 0u; w < G1_AFFINE_WORDS; w++) { any |= bases[o + w]; }
  if (any == 0u) { return array<u32, 8>(); }
  return k;
}

fn half_of(k: array<u32, 8>, h: u32) -> u32 { return (k[h >> 1u] >> ((h & 1u) << 4u)) & 0xffffu; }

@compute @workgroup_size(SPLIT_WG)
fn msm_split(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  let words = (prm.n + 1u) >> 1u;
  if (t >= words) { return; }
  let a = scalar_limbs(2u * t);
  let b = scalar_limbs(2u * t + 1u);
  for (var h = prm.hlo; h <= prm.hhi; h++) {
    halves[(h % prm.planes) * words + t] = half_of(a, h) | (half_of(b, h) << 16u);
  }
}
