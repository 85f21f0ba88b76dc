// msm_walk_slots.wgsl: the stream walker's slot operations (msm_walk.wgsl): a thread's WALK_S slots each walk one slice of the batch's sorted entries as affine running sums, one shared inversion per step, the chains of a bucket crossing slots merged after the entries.
// requires: bn254_fq

// What the including kernel (msm_walk.wgsl) provides, read here directly so the linked walker is
// the same code as when this was one file:
//   offsets[b]           bucket b's first entry (nb + 1 words); prm.nb buckets, prm.wthreads walker threads
//   slice_len() -> u32   entries per slot; find_bucket(p) -> u32: the bucket holding entry p
//   load_ahead(q) -> Ahead  entry q's point (y negated for a negative digit)
//   retire(w, s)         slot s's finished run out (a bucket sum, or a leading piece)
//   wmul(a, b) -> Fq     the walker's multiply

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
