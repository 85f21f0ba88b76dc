// g2msm_reduce.wgsl: per window, sum_k (k + 1)·B_k over the G2 bucket sums B_0 .. B_(m-1): running sums over segments of 2^lseg buckets in parallel, then levels that merge pairs of neighbouring runs with four additions each.
// requires: bn254_g2

// A pair (W, U) of a run of buckets [a, a + len): W = sum (k - a + 1)·B_k and U = len·sum B_k.
// Two neighbours of equal len merge as W = W_L + W_R + U_R (the right run's weights are len
// higher) and U = 2·(U_L + U_R): four additions a level, where carrying S = sum B_k instead would
// take lg doublings of S_R at the level of runs of 2^lg buckets (at c = 16 the levels' chain was
// 95 dependent additions, now 40: these levels run a few thousand threads, so their chain is
// their time). The root's W is the window's sum (a = 0). Pairs are stored per window: window
// jj's kin pairs from pair jj·kin on.
struct RedParams { nwin: u32, m: u32, lseg: u32, kin: u32 } // src/kernels/g2msm/layout.ts RED_PARAMS

@group(0) @binding(0) var<storage, read> buckets: array<u32>;       // G2_PROJ_WORDS per bucket, nwin·m of them
@group(0) @binding(1) var<storage, read> pin: array<u32>;           // G2_PAIR_WORDS per pair: W, then S
@group(0) @binding(2) var<storage, read_write> pout: array<u32>;
@group(0) @binding(3) var<uniform> prm: RedParams;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * G2_RED_WG; }

fn bucket_fq(o: u32) -> Fq {
  return Fq(buckets[o], buckets[o + 1u], buckets[o + 2u], buckets[o + 3u], buckets[o + 4u], buckets[o + 5u], buckets[o + 6u], buckets[o + 7u]);
}
fn bucket_fq2(o: u32) -> Fq2 { return Fq2(bucket_fq(o), bucket_fq(o + FQ_WORDS)); }
fn bucket(b: u32) -> G2P {
  let o = G2_PROJ_WORDS * b;
  return g2_norm(G2P(bucket_fq2(o), bucket_fq2(o + G2_FQ2_WORDS), bucket_fq2(o + 2u * G2_FQ2_WORDS)));
}

fn pin_fq(o: u32) -> Fq {
  return Fq(pin[o], pin[o + 1u], pin[o + 2u], pin[o + 3u], pin[o + 4u], pin[o + 5u], pin[o + 6u], pin[o + 7u]);
}
fn pin_fq2(o: u32) -> Fq2 { return Fq2(pin_fq(o), pin_fq(o + FQ_WORDS)); }
fn pin_point(o: u32) -> G2P { return G2P(pin_fq2(o), pin_fq2(o + G2_FQ2_WORDS), pin_fq2(o + 2u * G2_FQ2_WORDS)); }

fn put_fq2(o: u32, a: Fq2) {
  for (var w = 0u; w < FQ_WORDS; w++) { pout[o + w] = a.c0[w]; pout[o + FQ_WORDS + w] = a.c1[w]; }
}
fn put_point(o: u32, p: G2P) {
  put_fq2(o, p.x);
  put_fq2(o + G2_FQ2_WORDS, p.y);
  put_fq2(o + 2u * G2_FQ2_WORDS, p.z);
}
fn put_pair(i: u32, w: G2P, s: G2P) {
  put_point(G2_PAIR_WORDS * i, w);
  put_point(G2_PAIR_WORDS * i + G2_PROJ_WORDS, s);
}

// Thread t: segment t % nseg of window t / nseg, from its top bucket down: S += B_k, W += S; then
// lseg doublings of S give U. All through one g2_add site (turns alternate), so the kernel inlines one.
@compute @workgroup_size(G2_RED_WG)
fn g2msm_reduce_seg(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  let nseg = prm.m >> prm.lseg;
  if (t >= prm.nwin * nseg) { return; }
  let jj = t / nseg;
  let len = 1u << prm.lseg;
  let base = jj * prm.m + (t - jj * nseg) * len;
  var s = g2_identity();
  var w = g2_identity();
  for (var step = 0u; step < 2u * len + prm.lseg; step++) {
    let sum = step < 2u * len;
    let odd = sum && (step & 1u) == 1u;
    var x = s;
    var y = s;
    if (odd) { x = w; } else if (sum) { y = bucket(base + len - 1u - (step >> 1u)); }
    let r = g2_add(x, y);
    if (odd) { w = r; } else { s = r; }
  }
  put_pair(t, w, s);
}

// Thread t: pairs 2g and 2g + 1 of window t / (kin / 2) into (W_L + W_R + U_R, 2·(U_L + U_R)):
// four additions through one g2_add site.
@compute @workgroup_size(G2_RED_WG)
fn g2msm_reduce_level(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = flat(gid, nwg);
  let kout = prm.kin >> 1u;
  if (t >= prm.nwin * kout) { return; }
  let jj = t / kout;
  let i = jj * prm.kin + 2u * (t - jj * kout);
  let ur = pin_point(G2_PAIR_WORDS * (i + 1u) + G2_PROJ_WORDS);
  var w = pin_point(G2_PAIR_WORDS * i);
  var u = pin_point(G2_PAIR_WORDS * i + G2_PROJ_WORDS);
  let wr = pin_point(G2_PAIR_WORDS * (i + 1u));
  for (var step = 0u; step < 4u; step++) {
    var x = w;
    var y = wr;
    if (step == 1u) { y = ur; } else if (step == 2u) { x = u; y = ur; } else if (step == 3u) { x = u; y = u; }
    let r = g2_add(x, y);
    if (step < 2u) { w = r; } else { u = r; }
  }
  put_pair(t, w, u);
}
