// ntt_twist.wgsl: multiply each value of a row-major block by base^e, e a function of its row and column: the twiddles between the two halves of a four-step NTT and the coset powers of a long lde.
// requires: babybear

// Host: src/kernels/ntt-twist.ts. A transform too long for one storage binding runs as a
// four-step NTT in blocks (src/kernels/ntt-long.ts); between its column transforms and its row
// transforms each value (k1, i2) is multiplied by ω^(k1·i2) ("product" exponents), and an lde's
// coefficients j by shift^j ("linear": e = row·row_stride + column). The block holds columns
// col0.. of the whole matrix, so exponents use the whole matrix's column index.
// base^e = lo[e mod 2^L] · hi[e >> L], L = TWIST_LO_BITS, both in Montgomery form in `tw_pow` (lo
// first, then the hi entries up to e < 2^27, the largest BabyBear two-adic size): the host binds
// the NTT's scale table of base (ntt-plan.ts scaleTable, L = NTT_TW_LO_BITS).
struct TwistParams {
  rows: u32,
  cols: u32,       // columns in this block
  col0: u32,       // the block's first column in the whole matrix
  product: u32,    // 1: e = row·column; 0: e = row·row_stride + column
  row_stride: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<storage, read_write> tw_m: array<u32>;
@group(0) @binding(1) var<storage, read> tw_pow: array<u32>;
@group(0) @binding(2) var<uniform> tw_p: TwistParams;

@compute @workgroup_size(TWIST_WG)
fn ntt_twist(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * TWIST_WG;
  if (i >= tw_p.rows * tw_p.cols) { return; }
  let r = i / tw_p.cols;
  let c = tw_p.col0 + i % tw_p.cols;
  // Both exponents stay below 2^27 (row·column < n1·n2; a coefficient index < height), so no wrap.
  let e = select(r * tw_p.row_stride + c, r * c, tw_p.product != 0u);
  let w = bb_mul(tw_pow[e & ((1u << TWIST_LO_BITS) - 1u)], tw_pow[(1u << TWIST_LO_BITS) + (e >> TWIST_LO_BITS)]);
  tw_m[i] = bb_mul(tw_m[i], w);
}
