/**
 * CPU twin of the GPU Merkle kernels: Plonky3 `MerkleTreeMmcs` (p3-merkle-tree 0.9.0-rc.2)
 * with `PaddingFreeSponge<Perm16,16,8,8>` leaves and `TruncatedPermutation<Perm16,2,8,16>`
 * nodes (plonky3.md §3-4): one or several row-major matrices, any heights Plonky3 accepts
 * (odd layers padded with the zero digest), cap height c (default 0 = one root).
 * @module
 */
import { poseidon2Permute, type Poseidon2Constants } from './poseidon2.js';

/** A digest: 8 canonical BabyBear values (about 248 bits). */
export const DIGEST = 8;
/** Sponge rate: 8 values absorbed per permutation. */
export const RATE = 8;

/**
 * PaddingFreeSponge<Perm16, 16, 8, 8>: overwrite mode, no padding, no length tag. Each chunk
 * of up to 8 values overwrites state[0..len]; a short last chunk leaves the rest untouched.
 * An empty row hashes to [0; 8] with no permutation.
 */
export function hashRow(row: ArrayLike<number>, constants?: Poseidon2Constants): Uint32Array {
  const s = new Uint32Array(16);
  for (let o = 0; o < row.length; o += RATE) {
    const end = Math.min(o + RATE, row.length);
    for (let i = o; i < end; i++) s[i - o] = row[i];
    poseidon2Permute(s, constants);
  }
  return s.slice(0, DIGEST);
}

/** TruncatedPermutation<Perm16, 2, 8, 16>: Perm16(left ‖ right)[0..8], no feed-forward. */
export function compress(left: ArrayLike<number>, right: ArrayLike<number>, constants?: Poseidon2Constants): Uint32Array {
  const s = new Uint32Array(16);
  s.set(Array.from(left).slice(0, DIGEST), 0);
  s.set(Array.from(right).slice(0, DIGEST), DIGEST);
  poseidon2Permute(s, constants);
  return s.slice(0, DIGEST);
}

/** A row-major matrix of canonical values. */
export interface Matrix {
  values: ArrayLike<number>;
  width: number;
}

export function matrixHeight(m: Matrix): number {
  return m.width === 0 ? 0 : m.values.length / m.width;
}

function row(m: Matrix, i: number): number[] {
  return Array.from({ length: m.width }, (_, k) => m.values[i * m.width + k]);
}

const nextPow2 = (n: number) => (n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n)));
const ZERO = new Uint32Array(DIGEST);

export interface RefOpening {
  /** One row per committed matrix, in input order. */
  openedValues: number[][];
  /** Sibling digests, leaf level first, stopping below the cap. */
  proof: Uint32Array[];
}

export interface RefTree {
  /** Digest layers from the leaves up; the last one has one digest (the root). */
  layers: Uint32Array[][];
  root: Uint32Array;
  cap: Uint32Array[];
  open(index: number): RefOpening;
}

/**
 * MerkleTreeMmcs::commit. Matrices are stable-sorted by height (tallest first); the leaves hash
 * the concatenated rows of every tallest matrix; a shorter matrix is injected into the layer
 * whose length rounds up to the same power of two, as C(C(l, r), H(its rows)).
 */
export function merkleTree(matrices: Matrix[], capHeight = 0, constants?: Poseidon2Constants): RefTree {
  if (matrices.length === 0) throw new RangeError('merkleTree: no matrices');
  const sorted = matrices.map((m, i) => ({ m, i, h: matrixHeight(m) })).sort((a, b) => b.h - a.h || a.i - b.i);
  const maxH = sorted[0].h;
  if (maxH === 0) throw new RangeError('merkleTree: empty matrix');
  const rowsHash = (ms: typeof sorted, i: number) =>
    hashRow(
      ms.flatMap(({ m }) => row(m, i)),
      constants,
    );
  const tallest = sorted.filter((x) => x.h === maxH);
  let layer: Uint32Array[] = Array.from({ length: maxH }, (_, i) => rowsHash(tallest, i));
  const layers = [layer];
  while (layer.length > 1) {
    const prev = layer;
    const len = Math.ceil(prev.length / 2);
    const inject = sorted.filter((x) => x.h < maxH && nextPow2(x.h) === nextPow2(len));
    layer = Array.from({ length: len }, (_, i) => {
      const folded = compress(prev[2 * i], prev[2 * i + 1] ?? ZERO, constants);
      if (inject.length === 0) return folded;
      const h = inject[0].h;
      return compress(folded, i < h ? rowsHash(inject, i) : ZERO, constants);
    });
    layers.push(layer);
  }
  const capLayer = layers[Math.max(0, layers.length - 1 - capHeight)];
  return {
    layers,
    root: layers[layers.length - 1][0],
    cap: capLayer,
    open(index: number): RefOpening {
      if (!Number.isInteger(index) || index < 0 || index >= maxH) throw new RangeError(`index ${index} outside 0..${maxH - 1}`);
      const openedValues = matrices.map((m) => {
        const shift = Math.log2(nextPow2(maxH)) - Math.log2(nextPow2(matrixHeight(m)));
        return row(m, index >> shift);
      });
      const proof: Uint32Array[] = [];
      for (let l = 0; l < layers.length - 1 - capHeight; l++) proof.push(layers[l][(index >> l) ^ 1] ?? ZERO);
      return { openedValues, proof };
    },
  };
}
