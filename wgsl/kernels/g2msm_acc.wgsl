// g2msm_acc.wgsl: G2 bucket accumulation that stays balanced however skewed the scalars are: every thread adds an equal run of the bucket-sorted entries, completes the buckets inside its run and hands the two at its ends to the next level.
// requires: bn254_g2

// The items of a level are sorted by key (the flat bucket jj·m + |d| - 1 of msm_sort's CSR), all
// items of one key adjacent. Thread t takes items [t·seg, t·seg + seg): a key that is neither the
// first nor the last of its run has all its items there, so its sum is final and goes straight to
// the buckets; the first and last keys may continue in the neighbours' runs, so their partial
// sums go to slots 2t and 2t + 1 of the next level's items (a run with one key writes (key,
// identity) as its second slot, keeping every key's items adjacent; a run past the end writes two
// empty slots, key G2_NO_KEY, which sort last). A level cuts K items to 2·ceil(K / seg), and the
// last level (one thread: fin = 1) finishes every key. Each key is finished exactly once: either
// inside one run, or passed on whole. 100 000 entries of one bucket (a witness's ones) cost
// 100 000 / seg threads of seg additions each, then a few short levels, not one long thread.
//
// mode 0: items are msm_sort's entries (point | sign << 31, keys from the offsets: K = offsets[nb]);
// mode 1: items are the previous level's slots (kin of them). threads: this level's thread count.
struct AccParams { mode: u32, kin: u32, seg: u32, nb: u32, fin: u32, threads: u32 } // src/kernels/g2msm/layout.ts ACC_PARAMS

@group(0) @binding(0) var<storage, read> bases: array<u32>;         // G2_AFFINE_WORDS per point
@group(0) @binding(1) var<storage, read> offsets: array<u32>;       // nb + 1: bucket b's entries are [offsets[b], offsets[b + 1])
@group(0) @binding(2) var<storage, read> entries: array<u32>;       // point | sign << 31
@group(0) @binding(3) var<storage, read> pin: array<u32>;           // G2_PART_WORDS per slot: key, X, Y, Z
@group(0) @binding(4) var<storage, read_write> pout: array<u32>;
@group(0) @binding(5) var<storage, read_write> buckets: array<u32>; // G2_PROJ_WORDS per bucket
@group(0) @binding(6) var<uniform> prm: AccParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * G2_ACC_WG; }

fn base_fq(o: u32) -> Fq {
  return Fq(bases[o], bases[o + 1u], bases[o + 2u], bases[o + 3u], bases[o + 4u], bases[o + 5u], bases[o + 6u], bases[o + 7u]);
}
fn pin_fq(o: u32) -> Fq {
  return Fq(pin[o], pin[o + 1u], pin[o + 2u], pin[o + 3u], pin[o + 4u], pin[o + 5u], pin[o + 6u], pin[o + 7u]);
}
fn pin_fq2(o: u32) -> Fq2 { return Fq2(pin_fq(o), pin_fq(o + FQ_WORDS)); }

// Entry e's point, affine with Z = 1 (negated for a negative digit); all-zero words: the identity.
fn entry_point(e: u32) -> G2P {
  let o = G2_AFFINE_WORDS * (e & 0x7fffffffu);
  let x = Fq2(base_fq(o), base_fq(o + FQ_WORDS));
  var y = Fq2(base_fq(o + 2u * FQ_WORDS), base_fq(o + 3u * FQ_WORDS));
  if (fq2_is_zero(x) && fq2_is_zero(y)) { return g2_identity(); }
  if ((e >> 31u) == 1u) { y = fq2_neg(y); }
  return G2P(x, y, fq2_one());
}

// mode 0: the bucket of the entries being walked (advanced by item_key, never backwards).
var<private> cur_b: u32;

fn item_key(j: u32) -> u32 {
  if (prm.mode == 1u) { return pin[G2_PART_WORDS * j]; }
  loop {
    if (offsets[cur_b + 1u] > j) { break; }
    cur_b++;
  }
  return cur_b;
}

fn item_point(j: u32) -> G2P {
  if (prm.mode == 0u) { return entry_point(entries[j]); }
  let o = G2_PART_WORDS * j + 1u;
  return g2_norm(G2P(pin_fq2(o), pin_fq2(o + G2_FQ2_WORDS), pin_fq2(o + 2u * G2_FQ2_WORDS)));
}

fn put_fq2(buf_o: u32, a: Fq2, to_bucket: bool) {
  for (var w = 0u; w < FQ_WORDS; w++) {
    if (to_bucket) { buckets[buf_o + w] = a.c0[w]; buckets[buf_o + FQ_WORDS + w] = a.c1[w]; }
    else { pout[buf_o + w] = a.c0[w]; pout[buf_o + FQ_WORDS + w] = a.c1[w]; }
  }
}

fn put_point(o: u32, p: G2P, to_bucket: bool) {
  put_fq2(o, p.x, to_bucket);
  put_fq2(o + G2_FQ2_WORDS, p.y, to_bucket);
  put_fq2(o + 2u * G2_FQ2_WORDS, p.z, to_bucket);
}

fn put_slot(s: u32, key: u32, p: G2P) {
  pout[G2_PART_WORDS * s] = key;
  put_point(G2_PART_WORDS * s + 1u, p, false);
}

// A finished key's sum into its bucket, or a partial one into slot s.
fn emit(key: u32, p: G2P, partial: bool, s: u32) {
  if (partial) { put_slot(s, key, p); } else { put_point(G2_PROJ_WORDS * key, p, true); }
}

@compute @workgroup_size(G2_ACC_WG)
fn g2msm_acc(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  if (t >= prm.threads) { return; }
  var k_items = prm.kin;
  if (prm.mode == 0u) { k_items = offsets[prm.nb]; }
  let s = t * prm.seg;
  if (s >= k_items) {
    put_slot(2u * t, G2_NO_KEY, g2_identity());
    put_slot(2u * t + 1u, G2_NO_KEY, g2_identity());
    return;
  }
  let e = min(s + prm.seg, k_items);
  if (prm.mode == 0u) {
    // The largest b with offsets[b] <= s (offsets[0] = 0): the bucket of entry s.
    var lo = 0u; var hi = prm.nb - 1u;
    while (lo < hi) {
      let mid = (lo + hi + 1u) >> 1u;
      if (offsets[mid] <= s) { lo = mid; } else { hi = mid - 1u; }
    }
    cur_b = lo;
  }
  let partial = prm.fin == 0u;
  var key = item_key(s);
  if (key == G2_NO_KEY) {
    put_slot(2u * t, G2_NO_KEY, g2_identity());
    put_slot(2u * t + 1u, G2_NO_KEY, g2_identity());
    return;
  }
  var acc = item_point(s);
  var first = true;
  // One g2_add site: a new key starts from its first point instead of from an addition.
  for (var j = s + 1u; j < e; j++) {
    let k = item_key(j);
    if (k != key) {
      emit(key, acc, partial && first, 2u * t);
      first = false;
      key = k;
      if (k == G2_NO_KEY) { break; }
      acc = item_point(j);
      continue;
    }
    acc = g2_add(acc, item_point(j));
  }
  if (key == G2_NO_KEY) {
    put_slot(2u * t + 1u, G2_NO_KEY, g2_identity());
  } else if (first) {
    emit(key, acc, partial, 2u * t);
    if (partial) { put_slot(2u * t + 1u, key, g2_identity()); }
  } else {
    emit(key, acc, partial, 2u * t + 1u);
  }
}
