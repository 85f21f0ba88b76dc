/**
 * The pruned Merkle multiproof of p3-merkle-tree 0.9.0-rc.2 (`PrunedMerklePaths`, binary tree,
 * cap height 0): the queried leaves are sorted and deduplicated, then the tree is walked bottom-up
 * one level at a time; in each sibling pair whose other child has no queried leaf below it, that
 * child's digest is emitted. Built from the ordinary authentication paths of the unique leaves.
 * @module
 */

/** A digest (8 canonical words). */
export type Digest = Uint32Array;

/**
 * The pruned sibling list for `indices` (any order, repeats allowed) in a tree of `levels` levels,
 * given each unique leaf's authentication path (`paths.get(leaf)[l]` = the sibling at level l).
 */
export function prunedSiblings(indices: readonly number[], levels: number, paths: ReadonlyMap<number, readonly Digest[]>): Digest[] {
  const unique = [...new Set(indices)].sort((a, b) => a - b);
  const out: Digest[] = [];
  // Each frontier node remembers the leaf whose path holds its siblings.
  let nodes = unique.map((index) => ({ index, leaf: index }));
  for (let level = 0; level < levels; level++) {
    const parents: { index: number; leaf: number }[] = [];
    let i = 0;
    while (i < nodes.length) {
      const group = Math.floor(nodes[i].index / 2);
      const leaf = nodes[i].leaf;
      let member = i;
      for (let k = 0; k < 2; k++) {
        if (member < nodes.length && nodes[member].index === 2 * group + k) member++;
        else out.push(pathOf(paths, leaf)[level]);
      }
      parents.push({ index: group, leaf });
      i = member;
    }
    nodes = parents;
  }
  return out;
}

/**
 * The inverse, for the verifier: every unique leaf's full path from the pruned list, given the
 * leaves' own digests (level 0) and the compression function. Returns null when the list has the
 * wrong length.
 */
export function restoreRoot(
  leafDigests: ReadonlyMap<number, Digest>,
  levels: number,
  siblings: readonly Digest[],
  compress: (left: Digest, right: Digest) => Digest,
): Digest | null {
  let nodes = [...leafDigests.entries()].sort((a, b) => a[0] - b[0]).map(([index, digest]) => ({ index, digest }));
  let next = 0;
  for (let level = 0; level < levels; level++) {
    const parents: { index: number; digest: Digest }[] = [];
    let i = 0;
    while (i < nodes.length) {
      const group = Math.floor(nodes[i].index / 2);
      const pair: Digest[] = [];
      for (let k = 0; k < 2; k++) {
        if (i < nodes.length && nodes[i].index === 2 * group + k) pair.push(nodes[i++].digest);
        else {
          if (next >= siblings.length) return null;
          pair.push(siblings[next++]);
        }
      }
      parents.push({ index: group, digest: compress(pair[0], pair[1]) });
    }
    nodes = parents;
  }
  return next === siblings.length && nodes.length === 1 ? nodes[0].digest : null;
}

function pathOf(paths: ReadonlyMap<number, readonly Digest[]>, leaf: number): readonly Digest[] {
  const path = paths.get(leaf);
  if (!path) throw new Error(`no authentication path for leaf ${leaf}`);
  return path;
}
