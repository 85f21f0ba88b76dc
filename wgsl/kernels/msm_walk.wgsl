// msm_walk.wgsl: MSM stage 3: the stream-walker bucket accumulator (each thread walks WALK_S slices of the sorted entry stream with one shared field inversion per step) and the fix-up of buckets split across slices.
// requires: bn254_g1, bn254_fq13

struct MsmParams { n: u32, w0: u32, nwin: u32, nb: u32, wthreads: u32, p0: u32, p1: u32, p2: u32 }

@group(0) @binding(0) var<storage, read> bases: array<u32>;          // 16 words per point: x, y (Montgomery)
@group(0) @binding(1) var<storage, read> offsets: array<u32>;        // nb + 1 bucket starts
@group(0) @binding(2) var<storage, read> entries: array<u32>;        // point | sign << 31
@group(0) @binding(3) var<storage, read_write> bsum: array<u32>;     // 24 words per bucket: projective X, Y, Z
@group(0) @binding(4) var<storage, read_write> partials: array<u32>; // 16 words per slice: its leading piece, affine, zeros = identity
@group(0) @binding(5) var<uniform> prm: MsmParams;

fn nslots() -> u32 { return prm.wthreads * WALK_S; }

// The walker's multiply: 8x32 Montgomery, or with WALK_MUL13 = 1 the same product on 13-bit limbs
// (fq_mul13, 2.3x the 8x32 rate in isolation on SwiftShader); a pipeline constant, so the branch folds.
fn wmul(a: Fq, b: Fq) -> Fq {
  if (WALK_MUL13 == 1u) { return fq_mul13(a, b); }
  return fq_mul(a, b);
}

fn load_fq(buf_off: u32) -> Fq {
  return Fq(bases[buf_off], bases[buf_off + 1u], bases[buf_off + 2u], bases[buf_off + 3u],
            bases[buf_off + 4u], bases[buf_off + 5u], bases[buf_off + 6u], bases[buf_off + 7u]);
}

fn entry_x(e: u32) -> Fq { return load_fq(16u * (e & 0x7fffffffu)); }
fn entry_y(e: u32) -> Fq {
  let y = load_fq(16u * (e & 0x7fffffffu) + 8u);
  if ((e >> 31u) == 1u) { return fq_neg(y); }
  return y;
}

fn store_bsum(b: u32, p: G1P) {
  for (var k = 0u; k < 8u; k++) {
    bsum[24u * b + k] = p.x[k]; bsum[24u * b + 8u + k] = p.y[k]; bsum[24u * b + 16u + k] = p.z[k];
  }
}

fn load_partial(i: u32) -> G1P {
  var x: Fq; var y: Fq;
  for (var k = 0u; k < 8u; k++) { x[k] = partials[16u * i + k]; y[k] = partials[16u * i + 8u + k]; }
  if (fq_is_zero(x) && fq_is_zero(y)) { return g1_identity(); }
  return g1_from_affine(x, y);
}

// Every slice has the same length L; all kernels of one batch derive it from the entry total.
fn slice_len() -> u32 {
  let total = offsets[prm.nb];
  return max(1u, (total + nslots() - 1u) / nslots());
}

// The bucket b with offsets[b] <= p < offsets[b + 1].
fn find_bucket(p: u32) -> u32 {
  var lo = 0u; var hi = prm.nb - 1u;
  while (lo < hi) {
    let mid = (lo + hi + 1u) >> 1u;
    if (offsets[mid] <= p) { lo = mid; } else { hi = mid - 1u; }
  }
  return lo;
}

// A finished run of bucket b in slice g. A bucket inside one slice is final; the piece of a bucket
// that crosses slice boundaries and began in this slice also goes to bsum (its first piece, the
// fix-up adds the rest to it); a piece of a bucket that began before this slice is the slice's
// leading piece, partials[g] (identity pieces written as zeros). One partial per slice, not two:
// at 2^20 the partials are the part of the 100 MB budget that caps the walker's thread count.
fn retire(b: u32, g: u32, L: u32, has: bool, x: Fq, y: Fq) {
  if (offsets[b] >= g * L) {
    if (has) { store_bsum(b, g1_from_affine(x, y)); } // bsum is cleared per batch: identity otherwise
    return;
  }
  for (var k = 0u; k < 8u; k++) {
    partials[16u * g + k] = select(0u, x[k], has);
    partials[16u * g + 8u + k] = select(0u, y[k], has);
  }
}

fn load_bsum(b: u32) -> G1P {
  var p: G1P;
  for (var k = 0u; k < 8u; k++) { p.x[k] = bsum[24u * b + k]; p.y[k] = bsum[24u * b + 8u + k]; p.z[k] = bsum[24u * b + 16u + k]; }
  return g1_norm(p);
}

@compute @workgroup_size(WALK_WG)
fn msm_walk(@builtin(global_invocation_id) gid: vec3u) {
  let t = gid.x;
  if (t >= prm.wthreads) { return; }
  let total = offsets[prm.nb];
  let L = slice_len();
  var ax: array<Fq, WALK_S>;      // running affine sum per slot
  var ay: array<Fq, WALK_S>;
  var pref: array<Fq, WALK_S>;    // prefix products of the denominators
  var pos: array<u32, WALK_S>;
  var endp: array<u32, WALK_S>;
  var cur: array<u32, WALK_S>;    // bucket of the current run
  var has: array<bool, WALK_S>;   // run has a nonzero sum
  var mode: array<u32, WALK_S>;   // this step: 0 nothing to add, 1 add, 2 double
  for (var s = 0u; s < WALK_S; s++) {
    let g = t * WALK_S + s;
    pos[s] = min(g * L, total);
    endp[s] = min(pos[s] + L, total);
    has[s] = false;
    if (pos[s] < endp[s]) { cur[s] = find_bucket(pos[s]); }
  }
  loop {
    // Phase 1: classify each slot's next entry; multiply up the denominators.
    var prod = fq_one();
    var any = false;
    var live = false;
    for (var s = 0u; s < WALK_S; s++) {
      mode[s] = 0u;
      if (pos[s] < endp[s]) {
        live = true;
        let p = pos[s];
        if (p >= offsets[cur[s] + 1u]) {
          retire(cur[s], t * WALK_S + s, L, has[s], ax[s], ay[s]);
          var b = cur[s] + 1u;
          while (offsets[b + 1u] <= p) { b++; }
          cur[s] = b;
          has[s] = false;
        }
        let e = entries[p];
        let px = entry_x(e);
        if (!has[s]) {
          ax[s] = px; ay[s] = entry_y(e); has[s] = true; pos[s] = p + 1u;
        } else if (!fq_eq(px, ax[s])) {
          mode[s] = 1u; prod = wmul(prod, fq_sub(px, ax[s]));
        } else if (fq_eq(entry_y(e), ay[s])) {
          mode[s] = 2u; prod = wmul(prod, fq_double(ay[s]));
        } else {
          has[s] = false; pos[s] = p + 1u; // P + (-P)
        }
        if (mode[s] != 0u) { any = true; }
      }
      pref[s] = prod;
    }
    if (!live) { break; }
    if (!any) { continue; }
    // Phase 2: one inversion, then peel it back slot by slot and do the affine additions.
    var inv = fq_inv(prod);
    for (var k = 0u; k < WALK_S; k++) {
      let s = WALK_S - 1u - k;
      if (mode[s] == 0u) { continue; }
      let e = entries[pos[s]];
      let px = entry_x(e); let py = entry_y(e);
      var den: Fq; var num: Fq;
      if (mode[s] == 1u) { den = fq_sub(px, ax[s]); num = fq_sub(py, ay[s]); }
      else { den = fq_double(ay[s]); let x2 = wmul(ax[s], ax[s]); num = fq_add(fq_double(x2), x2); }
      var inv_s = inv;
      if (s > 0u) { inv_s = wmul(inv, pref[s - 1u]); }
      inv = wmul(inv, den);
      let lambda = wmul(num, inv_s);
      let x3 = fq_sub(fq_sub(wmul(lambda, lambda), ax[s]), px);
      ay[s] = fq_sub(wmul(lambda, fq_sub(ax[s], x3)), ay[s]);
      ax[s] = x3;
      pos[s] += 1u;
    }
  }
  for (var s = 0u; s < WALK_S; s++) {
    let g = t * WALK_S + s;
    if (min(g * L, total) < min(g * L + L, total)) { retire(cur[s], g, L, has[s], ax[s], ay[s]); }
  }
}

// Buckets whose entries cross slice boundaries: the piece that began in the first slice (in bsum)
// plus the leading pieces of every later slice it reaches (complete projective additions).
@compute @workgroup_size(WALK_WG)
fn msm_fixup(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let b = gid.x + gid.y * nwg.x * WALK_WG;
  if (b >= prm.nb) { return; }
  let bs = offsets[b]; let be = offsets[b + 1u];
  if (be == bs) { return; }
  let L = slice_len();
  let glo = bs / L; let ghi = (be - 1u) / L;
  if (glo == ghi) { return; }
  var acc = load_bsum(b);
  for (var g = glo + 1u; g <= ghi; g++) { acc = g1_add(acc, load_partial(g)); }
  store_bsum(b, acc);
}
