// msm_walk.wgsl: MSM stage 3: the stream-walker bucket accumulator (each thread walks WALK_S slices of the sorted entry stream; one field inversion per step shared by the thread's slots in msm_walk, by the whole workgroup in msm_walk_wg; a thread's slots merge the pieces of buckets that cross them) and the fix-up of buckets split across walker threads; both can carry the previous batch's bucket reduction as riders.
// requires: bn254_g1, bn254_fq13, bn254_inv, msm_red, msm_walk_slots

// nb buckets, wthreads walker threads, m buckets per window (riders' red_seg), base0: the run's
// first point in bases; bofs: the batch's first bucket in bsum (a ring of two batches with
// riders). Riders: workgroups from rgroup0 on run rthreads threads of an earlier batch's
// reduction instead (rkind 1: red_seg over the buckets from bsum bucket rin; 2: red_level with
// groups of 2^rg pairs of red_in), output pairs from rout on in red_out; rlseg: red_seg's segment
// length, log2; rkeep: add to the output pairs' old values (msm_red.wgsl keep). The walker and the fix-up leave most of the GPU's issue slots
// idle at 2^20 (16384 walker threads, one window per batch), and so does the reduction (short
// chains of projective additions on a few thousand threads): beside them it costs a fraction of
// its time alone.
// src/kernels/msm/params.ts WALK_PARAMS.
struct WalkParams {
  nb: u32, wthreads: u32, m: u32, base0: u32,
  bofs: u32, rgroup0: u32, rthreads: u32, rkind: u32, rin: u32, rg: u32, rout: u32, rlseg: u32,
  rkeep: u32,
}

@group(0) @binding(0) var<storage, read> bases: array<u32>;          // G1_AFFINE_WORDS per point: x, y (Montgomery)
@group(0) @binding(1) var<storage, read> offsets: array<u32>;        // nb + 1 bucket starts
@group(0) @binding(2) var<storage, read> entries: array<u32>;        // point | sign << 31
@group(0) @binding(3) var<storage, read_write> bsum: array<u32>;     // G1_PROJ_WORDS per bucket: projective X, Y, Z
@group(0) @binding(4) var<storage, read_write> partials: array<u32>; // G1_AFFINE_WORDS per walker thread: its leading piece, affine, zeros = identity
@group(0) @binding(5) var<uniform> prm: WalkParams;
@group(0) @binding(6) var<storage, read> red_in: array<u32>;         // riders: input pairs (rkind 2)
@group(0) @binding(7) var<storage, read_write> red_out: array<u32>;  // riders: output pairs

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

fn store_bsum(b: u32, p: G1P) {
  let o = G1_PROJ_WORDS * (prm.bofs + b);
  for (var k = 0u; k < FQ_WORDS; k++) { bsum[o + k] = p.x[k]; bsum[o + FQ_WORDS + k] = p.y[k]; bsum[o + 2u * FQ_WORDS + k] = p.z[k]; }
}

fn load_partial(i: u32) -> G1P {
  var x: Fq; var y: Fq;
  for (var k = 0u; k < FQ_WORDS; k++) { x[k] = partials[G1_AFFINE_WORDS * i + k]; y[k] = partials[G1_AFFINE_WORDS * i + FQ_WORDS + k]; }
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

// Slot s's open run is finished (it met a new bucket, or its slice and every merge into it are
// done). A run that began in the slot's slice goes to bsum: a bucket inside the slice is final; a
// bucket that continues past the slice has absorbed the leading pieces of the thread's later slots
// by then (walk_merge), so this is its first piece and the fix-up adds the pieces of later
// threads. A run that began before the slice is the slot's leading piece: an earlier slot of its
// chain absorbs it in the merge rounds (same bucket), and slot 0's goes to partials[t] for the
// fix-up (identity written as zeros). Partials per thread, not per slice: at 2^20 they are part of the
// 100 MB budget, and the fix-up adds one piece per thread a bucket crosses, not one per slice.
fn retire(w: ptr<function, Walk>, s: u32) {
  let b = (*w).cur[s];
  let has = (*w).has[s];
  if (offsets[b] >= ((*w).t * WALK_S + s) * (*w).L) {
    if (has) { store_bsum(b, g1_from_affine((*w).ax[s], (*w).ay[s])); } // bsum is cleared per batch: identity otherwise
    return;
  }
  if (s > 0u) {
    (*w).lx[s] = (*w).ax[s]; (*w).ly[s] = (*w).ay[s]; (*w).lhas[s] = has; (*w).lead[s] = LEAD_READY;
    return;
  }
  for (var k = 0u; k < FQ_WORDS; k++) {
    partials[G1_AFFINE_WORDS * (*w).t + k] = select(0u, (*w).ax[s][k], has);
    partials[G1_AFFINE_WORDS * (*w).t + FQ_WORDS + k] = select(0u, (*w).ay[s][k], has);
  }
}

// Bucket b of bsum, counted from bsum's start (not from prm.bofs).
fn load_bsum_at(b: u32) -> G1P {
  var p: G1P;
  let o = G1_PROJ_WORDS * b;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = bsum[o + k]; p.y[k] = bsum[o + FQ_WORDS + k]; p.z[k] = bsum[o + 2u * FQ_WORDS + k]; }
  return g1_norm(p);
}

fn load_bsum(b: u32) -> G1P { return load_bsum_at(prm.bofs + b); }

// msm_red's accessors for the riders: the previous batch's buckets (the other half of the ring).
fn red_bucket(b: u32) -> G1P { return load_bsum_at(prm.rin + b); }

fn red_pair(i: u32) -> G1P {
  var p: G1P;
  let o = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = red_in[o + k]; p.y[k] = red_in[o + FQ_WORDS + k]; p.z[k] = red_in[o + 2u * FQ_WORDS + k]; }
  return g1_norm(p);
}

fn red_old(i: u32) -> G1P {
  var p: G1P;
  let o = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { p.x[k] = red_out[o + k]; p.y[k] = red_out[o + FQ_WORDS + k]; p.z[k] = red_out[o + 2u * FQ_WORDS + k]; }
  return g1_norm(p);
}

fn red_put(i: u32, p: G1P) {
  let o = G1_PROJ_WORDS * i;
  for (var k = 0u; k < FQ_WORDS; k++) { red_out[o + k] = p.x[k]; red_out[o + FQ_WORDS + k] = p.y[k]; red_out[o + 2u * FQ_WORDS + k] = p.z[k]; }
}

// Rider thread t (workgroups from rgroup0 on, in the dispatch's own workgroup size; the test is
// workgroup-uniform, so the walker's barriers stay in uniform control flow): its part of the
// previous batch's reduction step. Only pipelines with the plan constant WALK_RIDERS = 1 contain
// it: the projective formulas it pulls into the walker triple a CPU adapter's compile time.
fn ride(t: u32) {
  if (t >= prm.rthreads) { return; }
  if (prm.rkind == 1u) { red_seg(t, prm.rout, prm.m, prm.rlseg, prm.rkeep); } else { red_level(t, prm.rg, prm.rout, prm.rkeep); }
}

// Entry q's point, loaded ahead (msm_walk_slots.wgsl keep_ahead): the entry, then its point.
fn load_ahead(q: u32) -> Ahead {
  let e = entries[q];
  let o = G1_AFFINE_WORDS * (prm.base0 + (e & 0x7fffffffu));
  return Ahead(load_fq(o), load_fq(o + FQ_WORDS), (e >> 31u) == 1u);
}

// One inversion per thread and step, shared by its WALK_S slots.
@compute @workgroup_size(WALK_WG)
fn msm_walk(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= prm.wthreads) { return; }
  var w: Walk;
  walk_start(&w, gid.x);
  loop {
    let st = walk_classify(&w);
    if (!st.live) { break; }
    if (!st.any) { continue; }
    walk_add(&w, fq_inv(st.prod));
  }
}

// msm_walk_wg's product tree over the workgroup's per-thread products: leaf of thread l at
// WALK_WG + l, node i = node 2i · node 2i + 1, root at 1; 2·WALK_WG Fq = 8 KiB at WALK_WG = 128,
// 32 KiB at 512 (src/kernels/msm/plan.ts walkTreeBytes counts these and the flags).
// wg_flags ORs each thread's WalkStep flags (1 live, 2 any) up the same tree.
var<workgroup> wg_tree: array<Fq, 2u * WALK_WG>;
var<workgroup> wg_flags: array<u32, 2u * WALK_WG>;

// msm_walk with one inversion per workgroup and step instead of one per thread: WALK_WG·WALK_S
// additions share it, so S can be small (more threads under the same partials memory; defaults
// per n in src/kernels/msm/plan.ts defaultSlots). Montgomery's trick on a tree: up-sweep products, thread 0 inverts the root,
// down-sweep turns each node into its inverse (a child's = its parent's · its sibling's product).
// Every thread takes part in every level (barriers need workgroup-uniform control flow): threads
// past prm.wthreads and finished ones are idle slots with leaf one, and the loop ends only when
// the root's flags say no slot of the workgroup is live.
@compute @workgroup_size(WALK_WG)
fn msm_walk_wg(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32,
               @builtin(workgroup_id) wid: vec3u) {
  if (WALK_RIDERS == 1u && wid.x >= prm.rgroup0) { ride((wid.x - prm.rgroup0) * WALK_WG + lid); return; }
  var w: Walk;
  walk_start(&w, gid.x);
  loop {
    let st = walk_classify(&w);
    wg_tree[WALK_WG + lid] = st.prod;
    wg_flags[WALK_WG + lid] = select(0u, 1u, st.live) | select(0u, 2u, st.any);
    workgroupBarrier();
    for (var h = WALK_WG / 2u; h > 0u; h >>= 1u) {
      if (lid < h) {
        let i = h + lid;
        let f = wg_flags[2u * i] | wg_flags[2u * i + 1u];
        wg_flags[i] = f;
        // No slot below adds: every leaf below is one (the last step of a batch, merge rounds).
        if ((f & 2u) != 0u) { wg_tree[i] = wmul(wg_tree[2u * i], wg_tree[2u * i + 1u]); } else { wg_tree[i] = fq_one(); }
      }
      workgroupBarrier();
    }
    let flags = workgroupUniformLoad(&wg_flags[1]);
    if ((flags & 1u) == 0u) { break; }
    if ((flags & 2u) == 0u) { continue; } // only run starts and cancellations: no inversion
    if (lid == 0u) { wg_tree[1] = fq_inv(wg_tree[1]); }
    workgroupBarrier();
    // Down: each node becomes its inverse, child c = parent · sibling (the parent already is),
    // one multiply per thread and level, all reads before the writes.
    for (var h = 1u; h < WALK_WG; h <<= 1u) {
      let c = 2u * h + lid;
      var v: Fq;
      if (lid < 2u * h) { v = wmul(wg_tree[c >> 1u], wg_tree[c ^ 1u]); }
      workgroupBarrier();
      if (lid < 2u * h) { wg_tree[c] = v; }
      workgroupBarrier();
    }
    walk_add(&w, wg_tree[WALK_WG + lid]);
  }
}

// Buckets whose entries cross walker threads: the piece that began in the first thread (in bsum,
// with the rest of that thread's slices already merged in) plus the leading piece of every later
// thread it reaches, partials[t] (complete projective additions).
@compute @workgroup_size(FIX_WG)
fn msm_fixup(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = wid.x + wid.y * nwg.x;
  if (WALK_RIDERS == 1u && lin >= prm.rgroup0) { ride((lin - prm.rgroup0) * FIX_WG + lid); return; }
  let b = gid.x + gid.y * nwg.x * FIX_WG;
  if (b >= prm.nb) { return; }
  let bs = offsets[b]; let be = offsets[b + 1u];
  if (be == bs) { return; }
  let span = slice_len() * WALK_S; // entries per walker thread
  let tlo = bs / span; let thi = (be - 1u) / span;
  if (tlo == thi) { return; }
  var acc = load_bsum(b);
  for (var t = tlo + 1u; t <= thi; t++) { acc = g1_add(acc, load_partial(t)); }
  store_bsum(b, acc);
}
