// ntt_tile.wgsl: one radix-T Stockham pass of a batched BabyBear DFT with the T-point DFTs in workgroup memory (T up to NTT_TILE_WORDS / lanes); natural order in and out.
// requires: babybear

// Plan and index maths: src/kernels/ntt-tile-plan.ts (run on the CPU by
// test/unit/ntt-tile-plan.test.ts). One workgroup owns cj = 2^log_cj consecutive Stockham groups
// j0..j0+cj and all NTT_W columns: L = cj·NTT_W lanes × T points in tile[r·L + lane].
//   1. load:  tile[r·L + lane] = src[(j0·W + lane) + r·(n/T)·W]   (T runs of L contiguous words),
//             times ω_{Ns·T}^(k·r), k = j mod Ns (the Stockham pre-twiddle); rows ≥ in_rows read 0;
//   2. log T radix-2 DIF stages in place (barrier between stages): V[s] ends at r = bitrev(s);
//   3. store: output-local row q -> (c, s) as in the plan, dest = (j − k)·T + k + s·Ns, so the
//             stores are runs of ≥ L contiguous words; the last pass maps / scales / bit-reverses
//             exactly as ntt_stockham.gen.wgsl's ntt_store does.
// Data stay canonical: table entries are in Montgomery form, so bb_mul(x, t·2^32) = x·t.

struct NttTileParams {
  n: u32,        // rows of this transform
  ns: u32,       // product of earlier radices
  in_rows: u32,  // rows of src that hold data; later rows read as zero (zero padding)
  tw_shift: u32, // ω_{Ns·T} = ω_{2^27}^(2^tw_shift)
  flags: u32,
  log_n: u32,
  log_t: u32,    // T = 2^log_t, the radix of this pass
  log_cj: u32,   // groups per workgroup
  pad0: u32,
  pad1: u32,
  pad2: u32,
  pad3: u32,
}

@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read> tw: array<u32>;
@group(0) @binding(3) var<storage, read> sc: array<u32>;
@group(0) @binding(4) var<uniform> prm: NttTileParams;
@group(0) @binding(5) var<storage, read> troots: array<u32>;

var<workgroup> tile: array<u32, NTT_TILE_WORDS>;

// x^e for x = ω_{2^27}, e < 2^27: lo and hi tables (2^14 + 2^13 words), one multiply.
fn nt_root_pow(e: u32) -> u32 {
  return bb_mul(tw[NTT_TW_LO + (e & ((1u << NTT_LO_BITS) - 1u))], tw[NTT_TW_HI + (e >> NTT_LO_BITS)]);
}

// c·g^d from the scale table: lo[d mod 2^14] · hi[d >> 14].
fn nt_scale(d: u32) -> u32 {
  return bb_mul(sc[d & ((1u << NTT_LO_BITS) - 1u)], sc[(1u << NTT_LO_BITS) + (d >> NTT_LO_BITS)]);
}

// Reverse the low `bits` bits of x (bits may be 0: shifting a u32 by 32 is not allowed).
fn nt_bitrev(x: u32, bits: u32) -> u32 {
  if (bits == 0u) { return 0u; }
  return reverseBits(x) >> (32u - bits);
}

@compute @workgroup_size(NTT_TILE_WG)
fn ntt_tile_pass(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u,
                 @builtin(num_workgroups) nwg: vec3u) {
  let tile_id = wid.x + wid.y * nwg.x;
  let log_t = prm.log_t;
  let tn = 1u << log_t;
  let cj = 1u << prm.log_cj;
  let lanes = cj * NTT_W;
  let total = lanes * tn;
  let j0 = tile_id * cj;
  let m = prm.n >> log_t;
  if (j0 >= m) { return; } // uniform per workgroup: no barrier is skipped by part of a group

  // 1. coalesced load, pre-twiddle
  for (var i = lid; i < total; i += NTT_TILE_WG) {
    let r = i / lanes;
    let lane = i - r * lanes;
    let c = lane / NTT_W;
    let j = j0 + c;
    let row = j + r * m;
    var v = 0u;
    if (row < prm.in_rows) { v = src[j0 * NTT_W + lane + r * m * NTT_W]; }
    let k = j & (prm.ns - 1u);
    if (k != 0u && r != 0u) { v = bb_mul(v, nt_root_pow((k * r) << prm.tw_shift)); }
    tile[i] = v;
  }
  workgroupBarrier();

  // 2. radix-2 DIF stages, half-size h = tn/2 .. 1: (a, b) -> (a + b, (a − b)·ω_{2h}^i)
  for (var lh = log_t; lh > 0u; lh--) {
    let log_h = lh - 1u;
    let h = 1u << log_h;
    for (var b = lid; b < total / 2u; b += NTT_TILE_WG) {
      let p = b / lanes;
      let lane = b - p * lanes;
      let i = p & (h - 1u);
      let r0 = ((p >> log_h) << lh) | i;
      let a0 = r0 * lanes + lane;
      let a1 = a0 + h * lanes;
      let x = tile[a0];
      let y = tile[a1];
      tile[a0] = bb_add(x, y);
      var d = bb_sub(x, y);
      if (i != 0u) { d = bb_mul(d, troots[i << (NTT_TILE_ROOT_LOG - 1u - log_h)]); }
      tile[a1] = d;
    }
    workgroupBarrier();
  }

  // 3. store in destination order (runs of ≥ lanes contiguous words)
  let nc = min(prm.ns, cj);
  for (var i = lid; i < total; i += NTT_TILE_WG) {
    let q = i / NTT_W;
    let col = i - q * NTT_W;
    let k_lo = q & (nc - 1u);
    let s = (q / nc) & (tn - 1u);
    let c = (q / (nc * tn)) * nc + k_lo;
    let j = j0 + c;
    let k = j & (prm.ns - 1u);
    var dest = (j - k) * tn + k + s * prm.ns;
    var val = tile[nt_bitrev(s, log_t) * lanes + c * NTT_W + col];
    if ((prm.flags & NTT_FLAG_LAST) != 0u) {
      if ((prm.flags & NTT_FLAG_INVERSE) != 0u) { dest = (prm.n - dest) & (prm.n - 1u); }
      if ((prm.flags & NTT_FLAG_SCALE) != 0u) { val = bb_mul(val, nt_scale(dest)); }
      if ((prm.flags & NTT_FLAG_BITREV) != 0u) { dest = nt_bitrev(dest, prm.log_n); }
    }
    dst[dest * NTT_W + col] = val;
  }
}
