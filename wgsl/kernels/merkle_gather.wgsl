// merkle_gather.wgsl: many Merkle openings (the rows and their sibling digests, leaf level first) packed into one buffer, so a protocol's queries cost one copy and one readback instead of one copy per row and digest.
// requires:

@group(0) @binding(0) var<storage, read> rows: array<u32>;
@group(0) @binding(1) var<storage, read> leaves: array<u32>;
@group(0) @binding(2) var<storage, read> up: array<u32>;
// req[0..4]: count, width, logN, n; then `count` row indices.
@group(0) @binding(3) var<storage, read> req: array<u32>;
// Per query: `width` row words, then logN digests of 8 words.
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(MG_WG)
fn mg_gather(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let count = req[0];
  let width = req[1];
  let log_n = req[2];
  let n = req[3];
  let per = width + 8u * log_n;
  let total = count * per;
  // A grid-stride loop: the host dispatches at most 65535 workgroups.
  for (var word = gid.x; word < total; word += nwg.x * MG_WG) {
    let q = word / per;
    let k = word - q * per;
    let index = req[4u + q];
    if (k < width) {
      out[word] = rows[index * width + k];
    } else {
      let level = (k - width) / 8u;
      let d = (k - width) - level * 8u;
      let sib = (index >> level) ^ 1u;
      if (level == 0u) {
        out[word] = leaves[sib * 8u + d];
      } else {
        // upOffset(n, level) = 8·(n − n / 2^(level−1)) (kernels/merkle.ts).
        out[word] = up[8u * (n - (n >> (level - 1u))) + sib * 8u + d];
      }
    }
  }
}
