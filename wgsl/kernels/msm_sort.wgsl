// msm_sort.wgsl: MSM stages 1-2: carry-free signed window digits and the counting sort of (point, sign) entries into bucket order (count, 3-pass scan, scatter).
// requires:

// A batch covers windows [w0, w0 + nwin): the first `wide` windows of a scalar have c bits, the ones
// above them c - 1 (src/params/msm-layout.ts windowStart); its flat bucket b = jj·m + |d| - 1 (jj =
// window within the batch, m = 2^(c-1) buckets a window), nb = nwin·m buckets. c, wide and m come
// from the uniform (one pipeline serves every window size). counts has nb + 1 words (the last stays 0 so
// the exclusive scan leaves the entry total in offsets[nb]).
// planes: scalar half-planes resident (16: all; fewer: a ring, half h in slot h % planes; see
// src/kernels/msm/sort.ts, which splits each before the first batch that reads it). A slot holds
// bits [16h, 16h + 16) of every scalar, two scalars a word (scalar i in the low half if i is even).
struct SortParams { n: u32, w0: u32, nwin: u32, nb: u32, planes: u32, c: u32, m: u32, wide: u32 } // src/kernels/msm/params.ts SORT_PARAMS

@group(0) @binding(0) var<storage, read> scalars: array<u32>;       // half-plane slots of ceil(n / 2) words
@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> bsums: array<u32>;
@group(0) @binding(4) var<storage, read_write> entries: array<u32>; // point | sign << 31
@group(0) @binding(5) var<uniform> prm: SortParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * SORT_WG; }

// Bits [16h, 16h + 16) of scalar i.
fn scalar_half(i: u32, h: u32) -> u32 {
  let word = scalars[(h % prm.planes) * ((prm.n + 1u) >> 1u) + (i >> 1u)];
  return (word >> ((i & 1u) << 4u)) & 0xffffu;
}

// Bits [start, start + len) of scalar i (len <= 17 and start mod 16 <= 15: at most two halves).
fn scalar_bits(i: u32, start: u32, len: u32) -> u32 {
  let h = start >> 4u; let sh = start & 15u;
  var v = scalar_half(i, h) >> sh;
  if (sh + len > 16u && h + 1u < SCALAR_HALVES) { v |= scalar_half(i, h + 1u) << (16u - sh); }
  return v & ((1u << len) - 1u);
}

// Signed digit of window j in [-2^(c-1), 2^(c-1)] (src/ref/msm.ts signedDigit): the window's
// b bits (c, or c - 1 above the wide windows) plus the look-back bit, minus 2^b if the window's
// top bit is set. No carry chain, so every (point, window) is independent.
fn digit(i: u32, j: u32) -> i32 {
  let c = prm.c;
  let lo = j * c - select(0u, j - prm.wide, j > prm.wide);
  let b = select(c - 1u, c, j < prm.wide);
  var w: u32; var look: u32;
  if (j == 0u) { w = scalar_bits(i, 0u, b); look = 0u; }
  else { let v = scalar_bits(i, lo - 1u, b + 1u); look = v & 1u; w = v >> 1u; }
  let top = w >> (b - 1u);
  return i32(w + look) - i32(top << b);
}

@compute @workgroup_size(SORT_WG)
fn msm_count(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  if (t >= prm.n * prm.nwin) { return; }
  let jj = t / prm.n; let i = t - jj * prm.n;
  let d = digit(i, prm.w0 + jj);
  if (d != 0i) { atomicAdd(&counts[jj * prm.m + u32(abs(d)) - 1u], 1u); }
}

var<workgroup> sh_scan: array<u32, SORT_WG>;

// Inclusive Hillis-Steele scan of one value per thread across the workgroup.
fn wg_scan(lid: u32, v: u32) -> u32 {
  sh_scan[lid] = v;
  workgroupBarrier();
  for (var d = 1u; d < SORT_WG; d <<= 1u) {
    var x = 0u;
    if (lid >= d) { x = sh_scan[lid - d]; }
    workgroupBarrier();
    sh_scan[lid] += x;
    workgroupBarrier();
  }
  return sh_scan[lid];
}

// Pass 1: each workgroup scans 2·SORT_WG counts (exclusive, into offsets) and writes its total.
@compute @workgroup_size(SORT_WG)
fn msm_scan_blocks(@builtin(local_invocation_id) lid3: vec3u, @builtin(workgroup_id) wid: vec3u) {
  let lid = lid3.x;
  let base = wid.x * 2u * SORT_WG + 2u * lid;
  let len = prm.nb + 1u;
  var a0 = 0u; var a1 = 0u;
  if (base < len) { a0 = atomicLoad(&counts[base]); }
  if (base + 1u < len) { a1 = atomicLoad(&counts[base + 1u]); }
  let incl = wg_scan(lid, a0 + a1);
  let excl = incl - a0 - a1;
  if (base < len) { offsets[base] = excl; }
  if (base + 1u < len) { offsets[base + 1u] = excl + a0; }
  if (lid == SORT_WG - 1u) { bsums[wid.x] = incl; }
}

// Pass 2: one workgroup scans the block totals (each thread a contiguous run of them).
@compute @workgroup_size(SORT_WG)
fn msm_scan_totals(@builtin(local_invocation_id) lid3: vec3u) {
  let lid = lid3.x;
  let nblocks = (prm.nb + 1u + 2u * SORT_WG - 1u) / (2u * SORT_WG);
  let per = (nblocks + SORT_WG - 1u) / SORT_WG;
  let lo = min(lid * per, nblocks); let hi = min(lo + per, nblocks);
  var s = 0u;
  for (var b = lo; b < hi; b++) { s += bsums[b]; }
  var run = wg_scan(lid, s) - s;
  for (var b = lo; b < hi; b++) { let v = bsums[b]; bsums[b] = run; run += v; }
}

// Pass 3: add block offsets; the counts become the scatter cursors.
@compute @workgroup_size(SORT_WG)
fn msm_scan_add(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  if (t >= prm.nb + 1u) { return; }
  let v = offsets[t] + bsums[t / (2u * SORT_WG)];
  offsets[t] = v;
  atomicStore(&counts[t], v);
}

@compute @workgroup_size(SORT_WG)
fn msm_scatter(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  if (t >= prm.n * prm.nwin) { return; }
  let jj = t / prm.n; let i = t - jj * prm.n;
  let d = digit(i, prm.w0 + jj);
  if (d == 0i) { return; }
  let pos = atomicAdd(&counts[jj * prm.m + u32(abs(d)) - 1u], 1u);
  entries[pos] = i | select(0u, 0x80000000u, d < 0i);
}
