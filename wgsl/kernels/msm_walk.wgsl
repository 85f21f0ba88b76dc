// msm_walk.wgsl: MSM stage 3: the stream-walker bucket accumulator (each thread walks WALK_S slices of the sorted entry stream; one field inversion per step shared by the thread's slots in msm_walk, by the whole workgroup in msm_walk_wg; a thread's slots merge the pieces of buckets that cross them) and the fix-up of buckets split across walker threads; both can carry the previous batch's bucket reduction as riders.
// requires: bn254_g1, bn254_fq13, bn254_inv, msm_red

// nb buckets, wthreads walker threads, m buckets per window (riders' red_seg), base0: the run's
// first point in bases; bofs: the batch's first bucket in bsum (a ring of two batches with
// riders). Riders: workgroups from rgroup0 on run rthreads threads of an earlier batch's
// reduction instead (rkind 1: red_seg over the buckets from bsum bucket rin; 2: red_level with
// groups of 2^rg pairs of red_in), output pairs from rout on in red_out. The walker and the fix-up leave most of the GPU's issue slots
// idle at 2^20 (16384 walker threads, one window per batch), and so does the reduction (short
// chains of projective additions on a few thousand threads): beside them it costs a fraction of
// its time alone.
// src/kernels/msm/params.ts WALK_PARAMS.
struct WalkParams {
  nb: u32, wthreads: u32, m: u32, base0: u32,
  bofs: u32, rgroup0: u32, rthreads: u32, rkind: u32, rin: u32, rg: u32, rout: u32,
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
  if (prm.rkind == 1u) { red_seg(t, prm.rout, prm.m); } else { red_level(t, prm.rg, prm.rout); }
}

// One thread's walk: WALK_S slots, slot s walking slice t·WALK_S + s. A struct behind a pointer so
// that msm_walk and msm_walk_wg share the per-slot steps and differ only in where the inversion
// of each step's denominator product comes from.
struct Walk {
  t: u32, L: u32, total: u32,
  ax: array<Fq, WALK_S>,      // running affine sum per slot
  ay: array<Fq, WALK_S>,
  pref: array<Fq, WALK_S>,    // prefix products of the denominators
  pos: array<u32, WALK_S>,
  endp: array<u32, WALK_S>,
  cur: array<u32, WALK_S>,    // bucket of the current run
  bend: array<u32, WALK_S>,   // its end, offsets[cur + 1]
  has: array<bool, WALK_S>,   // run has a nonzero sum
  mode: array<u32, WALK_S>,   // this step: 0 nothing to add, 1 add, 2 double
  nx: array<Fq, WALK_S>,      // the point of entry pos (y with the entry's sign), loaded ahead
  ny: array<Fq, WALK_S>,
  done: array<bool, WALK_S>,  // slot retired its last run (or has no entries)
  mrg: array<bool, WALK_S>,   // this step's addition absorbs slot s + 1's leading piece (nx, ny)
  lead: array<u32, WALK_S>,   // slot s's leading piece as slot s - 1 sees it: LEAD_*
  lx: array<Fq, WALK_S>,      // the leading piece once LEAD_READY (lhas false: identity)
  ly: array<Fq, WALK_S>,
  lhas: array<bool, WALK_S>,
  mpos: array<u32, WALK_S>,   // merge rounds: the leading piece's position in its chain (0: none)
  round: u32,                 // merge rounds done (WALK_ROUNDS: finished)
}

// Walk.lead: the slice began inside a bucket and its piece of it is still the slot's open run (it
// may reach the slice's end: a "through" slot); final (the bucket ended inside the slice, or the
// slot retired it), waiting to be absorbed; or the slice began at a bucket start (or is empty).
const LEAD_WAIT = 0u;
const LEAD_READY = 1u;
const LEAD_NONE = 2u;

// Merge rounds after the entries: ceil(log2 WALK_S) (see walk_merge).
const WALK_ROUNDS: u32 = 32u - countLeadingZeros(WALK_S - 1u);

// Entry q's point into slot s's nx, ny. walk_add loads the next entry's at the start of a slot's
// additions and stores it at the end, so the two dependent loads (entry, then its point) overlap
// the multiplies instead of stalling the next step's classify (H100 2^20: with the multiplies
// stubbed out the walk still took 56% of its time).
struct Ahead { x: Fq, y: Fq, neg: bool }

fn load_ahead(q: u32) -> Ahead {
  let e = entries[q];
  let o = G1_AFFINE_WORDS * (prm.base0 + (e & 0x7fffffffu));
  return Ahead(load_fq(o), load_fq(o + FQ_WORDS), (e >> 31u) == 1u);
}

fn keep_ahead(w: ptr<function, Walk>, s: u32, a: Ahead) {
  (*w).nx[s] = a.x;
  (*w).ny[s] = a.y;
  if (a.neg) { (*w).ny[s] = fq_neg(a.y); }
}

// A step's product of its slots' denominators; live: a slot is not done; any: some slot adds.
struct WalkStep { prod: Fq, live: bool, any: bool }

// Thread t's slots at the starts of their slices; threads past prm.wthreads (msm_walk_wg keeps
// them for its barriers) get empty slots.
fn walk_start(w: ptr<function, Walk>, t: u32) {
  (*w).t = t;
  (*w).total = offsets[prm.nb];
  (*w).L = slice_len();
  (*w).round = 0u;
  for (var s = 0u; s < WALK_S; s++) {
    let g = t * WALK_S + s;
    (*w).mpos[s] = 0u;
    (*w).pos[s] = min(g * (*w).L, (*w).total);
    (*w).endp[s] = select((*w).pos[s], min((*w).pos[s] + (*w).L, (*w).total), t < prm.wthreads);
    (*w).has[s] = false;
    (*w).done[s] = true;
    (*w).lead[s] = LEAD_NONE;
    if ((*w).pos[s] < (*w).endp[s]) {
      (*w).cur[s] = find_bucket((*w).pos[s]);
      (*w).bend[s] = offsets[(*w).cur[s] + 1u];
      keep_ahead(w, s, load_ahead((*w).pos[s]));
      (*w).done[s] = false;
      if (offsets[(*w).cur[s]] < (*w).pos[s]) { (*w).lead[s] = LEAD_WAIT; }
    }
  }
}

// Phase 1: classify each slot's next entry (retiring finished runs); multiply up the denominators.
// Once no slot of the thread has entries left, its chains (a bucket's run in one slot continued
// by the leading pieces of the next ones) merge in WALK_ROUNDS rounds, a step each (walk_merge),
// and then every open run retires (walk_finish).
fn walk_classify(w: ptr<function, Walk>) -> WalkStep {
  var st = WalkStep(fq_one(), false, false);
  var left = false;
  for (var s = 0u; s < WALK_S; s++) { left = left || (!(*w).done[s] && (*w).pos[s] < (*w).endp[s]); }
  if (!left) {
    if ((*w).round == 0u) { walk_chains(w); }
    if ((*w).round == WALK_ROUNDS) { walk_finish(w); }
  }
  for (var k = 0u; k < WALK_S; k++) {
    let s = WALK_S - 1u - k;
    (*w).mode[s] = 0u;
    (*w).mrg[s] = false;
    if (!(*w).done[s]) {
      st.live = true;
      let entry = (*w).pos[s] < (*w).endp[s];
      var absorb = false;
      if (entry) {
        let p = (*w).pos[s];
        if (p >= (*w).bend[s]) {
          retire(w, s);
          var b = (*w).cur[s] + 1u;
          while (offsets[b + 1u] <= p) { b++; }
          (*w).cur[s] = b;
          (*w).bend[s] = offsets[b + 1u];
          (*w).has[s] = false;
        }
      } else if (!left) {
        absorb = walk_merge(w, s);
      }
      if (entry || absorb) {
        let px = (*w).nx[s];
        // A consumed point: an entry moves pos on, an absorbed piece does not.
        let used = select(0u, 1u, entry);
        if (!(*w).has[s]) {
          (*w).ax[s] = px; (*w).ay[s] = (*w).ny[s]; (*w).has[s] = true; (*w).pos[s] += used;
        } else if (!fq_eq(px, (*w).ax[s])) {
          (*w).mode[s] = 1u;
        } else if (fq_eq((*w).ny[s], (*w).ay[s])) {
          (*w).mode[s] = 2u;
        } else {
          (*w).has[s] = false; (*w).pos[s] += used; // P + (-P)
        }
        // A run start or a cancellation consumed the entry: load the next one now.
        if (entry && (*w).mode[s] == 0u && (*w).pos[s] < (*w).endp[s]) { keep_ahead(w, s, load_ahead((*w).pos[s])); }
        if ((*w).mode[s] != 0u) {
          st.any = true;
          st.prod = wmul(st.prod, walk_den((*w).mode[s], px, (*w).ax[s], (*w).ay[s]));
        }
      }
    }
    (*w).pref[s] = st.prod;
  }
  if (!left && (*w).round < WALK_ROUNDS) { (*w).round += 1u; }
  return st;
}

// A chain: a run that reaches its slice's end (the head: it began in its slice, or slot 0's),
// the through slots after it (their whole slice in the same bucket: lead still LEAD_WAIT) and the
// slot whose leading piece ends it. mpos numbers the chain's slots after the head 1, 2, ...
fn walk_chains(w: ptr<function, Walk>) {
  var open = 0u; // slot s - 1's open run's position in its chain
  for (var s = 0u; s < WALK_S; s++) {
    (*w).mpos[s] = select(0u, open + 1u, s > 0u && (*w).lead[s] != LEAD_NONE);
    open = select(0u, (*w).mpos[s], s > 0u && (*w).lead[s] == LEAD_WAIT);
  }
}

// Round r of a binary tree over chain positions: the slot at position p (p a multiple of 2^(r+1):
// the head, or a through slot) absorbs the piece at p + 2^r (its open run if through, having
// absorbed up to p + 2^(r+1) - 1 in earlier rounds, else its final leading piece). S = 4: 2 steps
// after the entries instead of up to 3 with one link a step, S = 8: 3 instead of 7. Returns
// whether slot s absorbs a piece this step (loaded into nx, ny; an identity piece is skipped).
fn walk_merge(w: ptr<function, Walk>, s: u32) -> bool {
  let d = 1u << (*w).round;
  let at = select(0u, (*w).mpos[s], s > 0u && (*w).lead[s] == LEAD_WAIT); // its open run's position
  let q = min(s + d, WALK_S - 1u);
  if ((at & (2u * d - 1u)) != 0u || s + d >= WALK_S || (*w).mpos[q] != at + d) { return false; }
  let thru = (*w).lead[q] == LEAD_WAIT;
  if (thru) {
    if (!(*w).has[q]) { return false; }
    (*w).nx[s] = (*w).ax[q]; (*w).ny[s] = (*w).ay[q];
  } else {
    if (!(*w).lhas[q]) { return false; }
    (*w).nx[s] = (*w).lx[q]; (*w).ny[s] = (*w).ly[q];
  }
  (*w).mrg[s] = true;
  return true;
}

// After the merge rounds: through slots past a chain's head are in the head's run; every other
// open run retires (bsum, or slot 0's leading piece to partials).
fn walk_finish(w: ptr<function, Walk>) {
  for (var s = 0u; s < WALK_S; s++) {
    if ((*w).done[s]) { continue; }
    if (s == 0u || (*w).lead[s] != LEAD_WAIT) { retire(w, s); }
    (*w).done[s] = true;
  }
}

// A slot's denominator: x_P - x_A for an addition (mode 1), 2·y_A for a doubling (mode 2).
fn walk_den(mode: u32, px: Fq, ax: Fq, ay: Fq) -> Fq {
  if (mode == 2u) { return fq_double(ay); }
  return fq_sub(px, ax);
}

// Phase 2: given inv = 1 / (the step's prod), peel it back slot by slot (first to last: classify
// multiplied last to first, so pref[s + 1] holds the product of the slots before s in that order)
// and do the affine additions.
// One multiply call site: each slot's products are steps of a loop whose trip count the compiler
// cannot see (ax[7] < 2^30), so the ~1000-instruction multiply is inlined once, not six times
// (the walker has 3 more: classify, tree up, tree down). H100 A/B against six sites: 2^20 0.855,
// 2^22 0.919, 2^16 0.952, 2^12 0.977 (bench/RESULTS.md). Steps: 0 inv_s = inv·pref[s-1],
// 1 inv' = inv·den, 2 x^2 (doublings only), 3 lambda = num·inv_s, 4 lambda^2, 5 lambda·(x_A - x_3).
fn walk_add(w: ptr<function, Walk>, inv0: Fq) {
  var inv = inv0;
  for (var s = 0u; s < WALK_S; s++) {
    let mode = (*w).mode[s];
    if (mode == 0u) { continue; }
    let ax = (*w).ax[s]; let ay = (*w).ay[s];
    let px = (*w).nx[s]; let py = (*w).ny[s];
    // The slot's next entry (a harmless repeat at the slice's end), kept after the multiplies.
    let ahead = load_ahead(min((*w).pos[s] + 1u, (*w).endp[s] - 1u));
    let den = walk_den(mode, px, ax, ay);
    var num = fq_sub(py, ay);
    var inv_s = inv; var lambda: Fq; var x3: Fq; var a: Fq; var b: Fq;
    let steps = 6u + (ax[7] >> 31u);
    for (var j = 0u; j < steps; j++) {
      if ((j == 0u && s == WALK_S - 1u) || (j == 2u && mode == 1u)) { continue; }
      if (j == 0u) { a = inv; b = (*w).pref[min(s + 1u, WALK_S - 1u)]; }
      else if (j == 1u) { a = inv; b = den; }
      else if (j == 2u) { a = ax; b = ax; }
      else if (j == 3u) { a = num; b = inv_s; }
      else if (j == 4u) { a = lambda; b = lambda; }
      else { a = lambda; b = fq_sub(ax, x3); }
      let r = wmul(a, b);
      if (j == 0u) { inv_s = r; }
      else if (j == 1u) { inv = r; }
      else if (j == 2u) { num = fq_add(fq_double(r), r); }
      else if (j == 3u) { lambda = r; }
      else if (j == 4u) { x3 = fq_sub(fq_sub(r, ax), px); }
      else { (*w).ay[s] = fq_sub(r, ay); }
    }
    (*w).ax[s] = x3;
    if (!(*w).mrg[s]) { (*w).pos[s] += 1u; keep_ahead(w, s, ahead); }
    // The run's last point with nothing to merge into it: retire it now, not at walk_finish (a
    // slot s > 0 still LEAD_WAIT becomes a final leading piece: retire).
    let last = !(*w).mrg[s] && (*w).pos[s] == (*w).endp[s] && (s + 1u == WALK_S || (*w).lead[min(s + 1u, WALK_S - 1u)] == LEAD_NONE);
    if (last) { retire(w, s); (*w).done[s] = true; }
  }
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
