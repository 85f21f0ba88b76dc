// fr_check.wgsl: BN254 Fr add, sub, mul (Montgomery, 32- and 13-bit limbs), to/from Montgomery on pairs of normal-form inputs, for the GPU-vs-bigint check (demo/modes/fr-check.ts).
// requires: bn254_fr13

// out[6i .. 6i + 6) = x + y, x − y, x·y·2^-256 (fr_mul), to_mont(x), from_mont(x), x·y·2^-256 (fr_mul13, the 13-bit-limb product the kernels use); 8 words each.
@group(0) @binding(0) var<storage, read> fx: array<u32>;
@group(0) @binding(1) var<storage, read> fy: array<u32>;
@group(0) @binding(2) var<storage, read_write> fout: array<u32>;

fn check_x(k: u32) -> Fr {
  let i = 8u * k;
  return Fr(fx[i], fx[i + 1u], fx[i + 2u], fx[i + 3u], fx[i + 4u], fx[i + 5u], fx[i + 6u], fx[i + 7u]);
}

fn check_y(k: u32) -> Fr {
  let i = 8u * k;
  return Fr(fy[i], fy[i + 1u], fy[i + 2u], fy[i + 3u], fy[i + 4u], fy[i + 5u], fy[i + 6u], fy[i + 7u]);
}

fn check_store(k: u32, v: Fr) {
  for (var l = 0u; l < 8u; l++) { fout[8u * k + l] = v[l]; }
}

@compute @workgroup_size(FR_CHECK_WG)
fn fr_check(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (8u * i >= arrayLength(&fx)) { return; }
  let x = check_x(i);
  let y = check_y(i);
  check_store(6u * i, fr_add(x, y));
  check_store(6u * i + 1u, fr_sub(x, y));
  check_store(6u * i + 2u, fr_mul(x, y));
  check_store(6u * i + 3u, fr_to_mont(x));
  check_store(6u * i + 4u, fr_from_mont(x));
  check_store(6u * i + 5u, fr_mul13(x, y));
}
