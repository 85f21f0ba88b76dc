// fr_ntt.wgsl: one radix-2^k pass of the BN254 Fr NTT (Stockham, natural order in and out) through workgroup memory, with the inverse scale, the coset shift and the twiddles fused.
// requires: bn254_fr13

// Host: src/kernels/qap/ntt-plan.ts (the passes) and src/kernels/qap/ntt.ts (recording). A transform
// of N = 2^n points runs as passes of radix R = 2^k (k summed over the passes is n); pass p has done
// sub-transforms of size Ns = R_1·...·R_{p-1} (the Stockham formulation of Govindaraju et al., SC'08):
//   for j < N/R:  v[r] = x[j + r·N/R] · ω_{Ns·R}^(r·(j mod Ns)),   v = DFT_R(v),
//                 y[(j / Ns)·Ns·R + (j mod Ns) + f·Ns] = v[f]
// A workgroup takes J = TILE/R consecutive j (one tile of TILE elements), loads it word by word (8
// consecutive threads read one 32-byte element, so even J = 1 moves whole 32-byte sectors), runs the
// R-point DFTs as k in-place radix-2 DIF stages in workgroup memory (bit-reversed result, undone by
// the store's indexing) and stores word by word: runs of J elements when Ns ≥ J, else one run of TILE.
// Roots: `tw` holds ω_{2T}^i for i < T (T = 2^t_log ≥ N, Montgomery form); ω_{2T}^(T + i) = −ω_{2T}^i,
// so one table serves every root order up to 2T, both directions and the coset shift ω_{2N}.
// Values stay in whatever form they came (normal or Montgomery): every constant is in Montgomery
// form, and a Montgomery product with one keeps the other operand's form.
struct FrNttParams {
  n_log: u32,
  r_log: u32,
  ns_log: u32,
  t_log: u32,
  inverse: u32,  // 1: roots ω^-1
  pre: u32,      // on load, first pass only: 0 nothing, 1 times `scale`, 2 times ω_{2N}^(input index)
  post: u32,     // on store, last pass only: 0 nothing, 1 times ω_{2N}^(output index)
  _pad: u32,
  scale_lo: vec4u,
  scale_hi: vec4u,
}

@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read> tw: array<u32>;
@group(0) @binding(3) var<uniform> prm: FrNttParams;

// Limb-major tile (limb l of element e at l·TILE + swizzled e): a butterfly stage reads one limb of
// consecutive elements per instruction, conflict-free; the XOR with 4·l spreads the word-by-word
// loads (4 elements x 8 limbs per 32 threads) over all 32 banks instead of 4.
var<workgroup> tile: array<u32, FR_TILE_WORDS>;

const TILE: u32 = 1u << FR_TILE_LOG;

fn tile_at(e: u32, l: u32) -> u32 { return l * TILE + (e ^ ((l << 2u) & (TILE - 1u))); }

fn tile_get(e: u32) -> Fr {
  return Fr(tile[tile_at(e, 0u)], tile[tile_at(e, 1u)], tile[tile_at(e, 2u)], tile[tile_at(e, 3u)],
            tile[tile_at(e, 4u)], tile[tile_at(e, 5u)], tile[tile_at(e, 6u)], tile[tile_at(e, 7u)]);
}

fn tile_set(e: u32, v: Fr) {
  tile[tile_at(e, 0u)] = v[0]; tile[tile_at(e, 1u)] = v[1]; tile[tile_at(e, 2u)] = v[2]; tile[tile_at(e, 3u)] = v[3];
  tile[tile_at(e, 4u)] = v[4]; tile[tile_at(e, 5u)] = v[5]; tile[tile_at(e, 6u)] = v[6]; tile[tile_at(e, 7u)] = v[7];
}

// The pass's product: unrolled, or with the plan constant FR_QUICK = 1 its rows in a loop (a fraction
// of the compile, for the pipelines a first proof waits on: src/kernels/qap/pipelines.ts).
fn ntt_mul(a: Fr, b: Fr) -> Fr {
  if (FR_QUICK == 1u) { return fr_mul_rows(a, b); }
  return fr_mul13(a, b);
}

// ω_{2T}^x for x < 2T.
fn root_at(x: u32) -> Fr {
  let t = 1u << prm.t_log;
  let i = 8u * (x & (t - 1u));
  let v = Fr(tw[i], tw[i + 1u], tw[i + 2u], tw[i + 3u], tw[i + 4u], tw[i + 5u], tw[i + 6u], tw[i + 7u]);
  if (x >= t) { return fr_neg(v); }
  return v;
}

// ω_M^(±e), M = 2^m ≤ 2T, e < M: the exponent on ω_{2T} is e·2T/M (negated mod 2T for the inverse).
fn root_pow(m: u32, e: u32) -> Fr {
  let two_t = 2u << prm.t_log;
  var x = e << (prm.t_log + 1u - m);
  if (prm.inverse != 0u) { x = (two_t - x) & (two_t - 1u); }
  return root_at(x);
}

// ω_{2N}^i, i < N: the coset shift's i-th power.
fn coset_pow(i: u32) -> Fr { return root_at(i << (prm.t_log - prm.n_log)); }

@compute @workgroup_size(FR_NTT_WG)
fn fr_ntt_pass(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r_log = prm.r_log;
  let ns_log = prm.ns_log;
  // A transform smaller than the pipeline's tile fills part of it: one pipeline serves every size.
  let t_log = min(FR_TILE_LOG, prm.n_log);
  let tn = 1u << t_log;
  let j_log = t_log - r_log;
  let groups = 1u << (prm.n_log - t_log);
  let wg = wid.x + wid.y * nwg.x;
  if (wg >= groups) { return; }
  let j0 = wg << j_log;
  let in_stride = prm.n_log - r_log;  // log2(N/R)

  // Load: tile element e = r·J + jj holds x[j0 + jj + r·N/R].
  for (var w = t; w < 8u * tn; w += FR_NTT_WG) {
    let e = w >> 3u;
    let g = j0 + (e & ((1u << j_log) - 1u)) + ((e >> j_log) << in_stride);
    tile[tile_at(e, w & 7u)] = src[8u * g + (w & 7u)];
  }
  workgroupBarrier();

  // Twiddles between passes, or the first pass's scale / coset shift: one product per element at most.
  for (var e = t; e < tn; e += FR_NTT_WG) {
    let r = e >> j_log;
    let jj = e & ((1u << j_log) - 1u);
    if (ns_log != 0u) {
      let k = (j0 + jj) & ((1u << ns_log) - 1u);
      if (r * k != 0u) { tile_set(e, ntt_mul(tile_get(e), root_pow(ns_log + r_log, r * k))); }
    } else if (prm.pre == 1u) {
      let s = Fr(prm.scale_lo.x, prm.scale_lo.y, prm.scale_lo.z, prm.scale_lo.w, prm.scale_hi.x, prm.scale_hi.y, prm.scale_hi.z, prm.scale_hi.w);
      tile_set(e, ntt_mul(tile_get(e), s));
    } else if (prm.pre == 2u) {
      let g = j0 + jj + (r << in_stride);
      if (g != 0u) { tile_set(e, ntt_mul(tile_get(e), coset_pow(g))); }
    }
  }

  // R-point DFTs: radix-2 DIF stages of half-size h = R/2 .. 1, butterfly (a, b) -> (a + b, (a − b)·ω_{2h}^m).
  for (var s = 0u; s < r_log; s++) {
    workgroupBarrier();
    let h_log = r_log - 1u - s;
    let h = 1u << h_log;
    for (var b = t; b < tn / 2u; b += FR_NTT_WG) {
      let jj = b & ((1u << j_log) - 1u);
      let q = b >> j_log;
      let m = q & (h - 1u);
      let r = ((q >> h_log) << (h_log + 1u)) | m;
      let e0 = (r << j_log) | jj;
      let e1 = ((r + h) << j_log) | jj;
      let x = tile_get(e0);
      let y = tile_get(e1);
      tile_set(e0, fr_add(x, y));
      var d = fr_sub(x, y);
      if (m != 0u) { d = ntt_mul(d, root_pow(h_log + 1u, m)); }
      tile_set(e1, d);
    }
  }
  workgroupBarrier();

  // Output f of column jj sits at tile row bitrev(f) and goes to y[(j / Ns)·Ns·R + (j mod Ns) + f·Ns].
  let ns_ge_j = ns_log >= j_log;
  let base = select(j0 << r_log, ((j0 >> ns_log) << (ns_log + r_log)) + (j0 & ((1u << ns_log) - 1u)), ns_ge_j);
  if (prm.post == 1u) {
    for (var o = t; o < tn; o += FR_NTT_WG) {
      var f: u32; var jj: u32; var g: u32;
      if (ns_ge_j) {
        f = o >> j_log; jj = o & ((1u << j_log) - 1u); g = base + jj + (f << ns_log);
      } else {
        let rem = o & ((1u << (ns_log + r_log)) - 1u);
        f = rem >> ns_log; jj = ((o >> (ns_log + r_log)) << ns_log) | (rem & ((1u << ns_log) - 1u)); g = base + o;
      }
      let e = ((reverseBits(f) >> (32u - r_log)) << j_log) | jj;
      if (g != 0u) { tile_set(e, ntt_mul(tile_get(e), coset_pow(g))); }
    }
    workgroupBarrier();
  }
  for (var w = t; w < 8u * tn; w += FR_NTT_WG) {
    let o = w >> 3u;
    var f: u32; var jj: u32; var g: u32;
    if (ns_ge_j) {
      // Runs of J consecutive outputs per f.
      f = o >> j_log; jj = o & ((1u << j_log) - 1u); g = base + jj + (f << ns_log);
    } else {
      // The tile's outputs are one contiguous run of TILE elements from j0·R.
      let rem = o & ((1u << (ns_log + r_log)) - 1u);
      f = rem >> ns_log; jj = ((o >> (ns_log + r_log)) << ns_log) | (rem & ((1u << ns_log) - 1u)); g = base + o;
    }
    let e = ((reverseBits(f) >> (32u - r_log)) << j_log) | jj;
    dst[8u * g + (w & 7u)] = tile[tile_at(e, w & 7u)];
  }
}
