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
 * leaves' own digests (level 0) and the compression applied to a whole level at once:
 * `compressPairs(pairs)` takes 16 words per node (left ‖ right digest) and returns 8 per node,
 * so a level is one buffer, not an object and two arrays per node. Returns null when the list has the wrong length
 * or holds a digest that is not 8 words.
 */
export function restoreRoot(
  leafDigests: ReadonlyMap<number, Digest>,
  levels: number,
  siblings: readonly Digest[],
  compressPairs: (pairs: Uint32Array) => Uint32Array,
): Digest | null {
  let indices = [...leafDigests.keys()].sort((a, b) => a - b);
  let digests: Uint32Array = new Uint32Array(8 * indices.length);
  indices.forEach((index, j) => digests.set(leafDigests.get(index)!, 8 * j));
  let next = 0;
  for (let level = 0; level < levels; level++) {
    const parents: number[] = [];
    const pairs = new Uint32Array(16 * indices.length);
    let i = 0;
    while (i < indices.length) {
      const group = Math.floor(indices[i] / 2);
      for (let k = 0; k < 2; k++) {
        const at = 16 * parents.length + 8 * k;
        if (i < indices.length && indices[i] === 2 * group + k) {
          pairs.set(digests.subarray(8 * i, 8 * i + 8), at);
          i++;
        } else {
          const sibling = siblings[next++];
          if (!sibling || sibling.length !== 8) return null;
          pairs.set(sibling, at);
        }
      }
      parents.push(group);
    }
    indices = parents;
    digests = compressPairs(pairs.subarray(0, 16 * parents.length));
  }
  return next === siblings.length && indices.length === 1 ? digests.slice(0, 8) : null;
}

function pathOf(paths: ReadonlyMap<number, readonly Digest[]>, leaf: number): readonly Digest[] {
  const path = paths.get(leaf);
  if (!path) throw new Error(`no authentication path for leaf ${leaf}`);
  return path;
}
