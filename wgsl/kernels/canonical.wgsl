// canonical.wgsl: the first value >= p of an array of u32, for large host arrays checked on the GPU after their upload (a CPU pass over them cost more than the upload).
// requires:

@group(0) @binding(0) var<storage, read> values: array<u32>;
// first[0]: the smallest index of a value >= p; the host sets it to 0xffffffff (none) before.
@group(0) @binding(1) var<storage, read_write> first: array<atomic<u32>>;

// A grid-stride loop: a fixed number of workgroups covers any length.
@compute @workgroup_size(CANON_WG)
fn canonical_first(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let n = arrayLength(&values);
  let stride = nwg.x * CANON_WG;
  for (var i = gid.x; i < n; i += stride) {
    if (values[i] >= BB_P) { atomicMin(&first[0], i); }
  }
}
