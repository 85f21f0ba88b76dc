// fr_twiddles.wgsl: fill the Fr NTT's root table ω_{2T}^i (i < T, Montgomery form) from two short host tables, one product per entry.
// requires: bn254_fr13

// Host: src/kernels/qap/tables.ts. seeds = lo[0 .. 2^L) ++ hi[0 .. T/2^L): lo[i] = ω^i, hi[i] = ω^(i·2^L),
// so ω^i = lo[i mod 2^L]·hi[i >> L]. The host computes ~2·sqrt(T) powers in bigints (2^21 points:
// ~3 K) instead of T (2 M, seconds of bigint work); a Montgomery product of two Montgomery forms is
// the product's Montgomery form, exactly what a host table would hold. The product's rows run in a
// loop (fr_mul_rows): the table is made once per size, and a first proof waits on this compile.
struct FrTwParams {
  count: u32,
  lo_log: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<storage, read> seeds: array<u32>;
@group(0) @binding(1) var<storage, read_write> tw_out: array<u32>;
@group(0) @binding(2) var<uniform> tp: FrTwParams;

fn seed_at(k: u32) -> Fr {
  let i = 8u * k;
  return Fr(seeds[i], seeds[i + 1u], seeds[i + 2u], seeds[i + 3u], seeds[i + 4u], seeds[i + 5u], seeds[i + 6u], seeds[i + 7u]);
}

@compute @workgroup_size(FR_TW_WG)
fn fr_twiddles(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * FR_TW_WG;
  if (i >= tp.count) { return; }
  let v = fr_mul_rows(seed_at(i & ((1u << tp.lo_log) - 1u)), seed_at((1u << tp.lo_log) + (i >> tp.lo_log)));
  for (var l = 0u; l < 8u; l++) { tw_out[8u * i + l] = v[l]; }
}
