/**
 * Host copies between row-major Uint32Array matrices, for NTT jobs split into blocks
 * (./ntt/blocks.ts, ./ntt/long.ts) at up to 2^27 values: a subarray per row is cheap for long
 * runs but costs ~100 ns of allocation per row at width 1, and a naive transpose misses the cache
 * on every write. H100 host, a 2^26-row dft in four-step blocks end to end: 15.4 s with a subarray
 * per row and a naive transpose, 2.5 s with these (bench/RESULTS.md, ntt past one binding).
 * @module
 */

/** Runs shorter than this are copied value by value rather than by subarray + set. */
const SHORT_RUN = 64;
/** Tile edge of transposeBlock (a 64 × 64 tile of u32 is 16 KiB: within L1 on both sides). */
const TILE = 64;

/**
 * Copy columns [sc0, sc0 + cols) of `rows` rows of `src` (row length srcW) to columns
 * [dc0, dc0 + cols) of `dst` (row length dstW).
 */
export function copyColumns(
  src: Uint32Array,
  srcW: number,
  sc0: number,
  dst: Uint32Array,
  dstW: number,
  dc0: number,
  rows: number,
  cols: number,
): void {
  if (cols === srcW && cols === dstW) {
    dst.set(src.subarray(sc0, sc0 + rows * cols), dc0);
  } else if (cols >= SHORT_RUN) {
    for (let r = 0; r < rows; r++) dst.set(src.subarray(r * srcW + sc0, r * srcW + sc0 + cols), r * dstW + dc0);
  } else {
    for (let r = 0; r < rows; r++) {
      const s = r * srcW + sc0;
      const d = r * dstW + dc0;
      for (let c = 0; c < cols; c++) dst[d + c] = src[s + c];
    }
  }
}

/**
 * dst[i·rows + k] = src[(r0 + k)·srcW + i] for k < rows, i < srcW: rows r0.. of `src` become the
 * columns of `dst` (srcW × rows), in cache-sized tiles.
 */
export function transposeRows(src: Uint32Array, srcW: number, r0: number, rows: number, dst: Uint32Array): void {
  for (let k0 = 0; k0 < rows; k0 += TILE) {
    const k1 = Math.min(rows, k0 + TILE);
    for (let i0 = 0; i0 < srcW; i0 += TILE) {
      const i1 = Math.min(srcW, i0 + TILE);
      for (let k = k0; k < k1; k++) {
        const s = (r0 + k) * srcW;
        for (let i = i0; i < i1; i++) dst[i * rows + k] = src[s + i];
      }
    }
  }
}
