// fr_qap.wgsl: the Groth16 QAP's evaluations A, B (one thread per constraint, summing its CSR rows) with C = A∘B (mode 0), and the last step h = A·B − C in normal form (mode 1).
// requires: bn254_fr13

// Host: src/kernels/qap/csr.ts (the layout) and src/kernels/qap/stage.ts. Row c of A is entries
// row_ptr[c] .. row_ptr[c + 1], row c of B is row N + c. A value is stored as snarkjs writes it,
// v·R² mod r, so fr_mul13(value, w) with w in normal form is v·w in Montgomery form: A, B, C and every
// NTT after them are in Montgomery form, and fr_qap_h converts the result back.
struct FrQapParams {
  n: u32,
  mode: u32, // 0: the evaluations, 1: h
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(1) var<storage, read> sig: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<u32>;
@group(0) @binding(3) var<storage, read> wit: array<u32>;
@group(0) @binding(4) var<storage, read_write> qa: array<u32>;
@group(0) @binding(5) var<storage, read_write> qb: array<u32>;
@group(0) @binding(6) var<storage, read_write> qc: array<u32>;
@group(0) @binding(7) var<uniform> qp: FrQapParams;

// The stage's product: unrolled, or with the plan constant FR_QUICK = 1 its rows in a loop (as fr_ntt's).
fn qap_mul(a: Fr, b: Fr) -> Fr {
  if (FR_QUICK == 1u) { return fr_mul_rows(a, b); }
  return fr_mul13(a, b);
}

// (Two loaders, not one taking a storage pointer: pointer parameters to storage need a WGSL language extension.)
fn qap_value(k: u32) -> Fr {
  let i = 8u * k;
  return Fr(val[i], val[i + 1u], val[i + 2u], val[i + 3u], val[i + 4u], val[i + 5u], val[i + 6u], val[i + 7u]);
}

fn qap_witness(k: u32) -> Fr {
  let i = 8u * k;
  return Fr(wit[i], wit[i + 1u], wit[i + 2u], wit[i + 3u], wit[i + 4u], wit[i + 5u], wit[i + 6u], wit[i + 7u]);
}

fn qap_row(row: u32) -> Fr {
  var acc = fr_zero();
  for (var k = row_ptr[row]; k < row_ptr[row + 1u]; k++) {
    acc = fr_add(acc, qap_mul(qap_value(k), qap_witness(sig[k])));
  }
  return acc;
}

fn qap_index(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * FR_QAP_WG; }

// One entry point for both steps: one pipeline to compile (a first proof waits on its compile).
@compute @workgroup_size(FR_QAP_WG)
fn fr_qap(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = qap_index(gid, nwg);
  if (i >= qp.n) { return; }
  if (qp.mode == 0u) { qap_eval(i); } else { qap_h(i); }
}

// A[c], B[c] from their rows and C[c] = A[c]·B[c] (Montgomery form).
fn qap_eval(c: u32) {
  let a = qap_row(c);
  let b = qap_row(qp.n + c);
  let ab = qap_mul(a, b);
  for (var l = 0u; l < 8u; l++) {
    qa[8u * c + l] = a[l];
    qb[8u * c + l] = b[l];
    qc[8u * c + l] = ab[l];
  }
}

// h[i] = A[i]·B[i] − C[i], out of Montgomery form; written over C (each thread reads its own C first).
fn qap_h(i: u32) {
  let a = Fr(qa[8u * i], qa[8u * i + 1u], qa[8u * i + 2u], qa[8u * i + 3u], qa[8u * i + 4u], qa[8u * i + 5u], qa[8u * i + 6u], qa[8u * i + 7u]);
  let b = Fr(qb[8u * i], qb[8u * i + 1u], qb[8u * i + 2u], qb[8u * i + 3u], qb[8u * i + 4u], qb[8u * i + 5u], qb[8u * i + 6u], qb[8u * i + 7u]);
  let c = Fr(qc[8u * i], qc[8u * i + 1u], qc[8u * i + 2u], qc[8u * i + 3u], qc[8u * i + 4u], qc[8u * i + 5u], qc[8u * i + 6u], qc[8u * i + 7u]);
  let h = qap_mul(fr_sub(qap_mul(a, b), c), Fr(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u)); // out of Montgomery form
  for (var l = 0u; l < 8u; l++) { qc[8u * i + l] = h[l]; }
}
