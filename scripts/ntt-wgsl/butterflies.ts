/**
 * The straight-line radix-R butterflies every NTT entry point emits (scripts/gen-ntt-wgsl.ts,
 * ./two-level.ts), with their pre-twiddles: none, a running product from the lo/hi powers, a
 * pass table, or a split table (splitPrologue, splitMul).
 * @module
 */

/** Largest radix: 32 values per thread, one named variable each. */
export const MAX_RADIX = 32;

/**
 * Split-table twiddles (src/kernels/ntt/tables.ts passSplitTable for a pass of `radix`, bound at `tw`, Shoup):
 * the per-thread offsets, then per value ω^(k·r) = lo[r, kl] · hi[r, kh] with `row` the WGSL
 * expression for r (tables.ts splitTwiddle). Register and two-level passes emit the same code through these.
 */
export function splitPrologue(radix: number, ind: string): string[] {
  return [
    `${ind}let sl = 1u << ntt_split_bits(); let sh = ntt_ns() >> ntt_split_bits();`,
    `${ind}let kl = k & (sl - 1u); let kh = k >> ntt_split_bits();`,
    `${ind}let lq = ${radix}u * sl; let hb = 2u * lq; let hq = hb + ${radix}u * sh;`,
  ];
}

export function splitMul(v: string, row: string): string {
  return `{ let il = ${row} * sl + kl; let ih = ${row} * sh + kh; ${v} = bb_mul_shoup(bb_mul_shoup(${v}, tw[il], tw[lq + il]), tw[hb + ih], tw[hq + ih]); }`;
}

/**
 * v1..v{R-1} ·= ω^(k·r), then the radix-R DIF butterflies in registers. Twiddles 'running': one
 * power from the lo/hi tables, then a running product (skipped when k = 0); 'table': read from
 * the pass's own table in the `sc` binding (entry (r − 1)·Ns + k, src/kernels/ntt/tables.ts passTwiddleTable),
 * one multiply per value instead of two; 'none': the first pass (k = 0).
 */
export function butterflies(R: number, twiddles: 'none' | 'running' | 'table' | 'split', ind: string): string[] {
  const L: string[] = [];
  if (R === 1) return L;
  if (twiddles === 'split') {
    L.push(...splitPrologue(R, ind));
    for (let r = 1; r < R; r++) L.push(`${ind}${splitMul(`v${r}`, `${r}u`)}`);
  }
  if (twiddles === 'table') {
    L.push(`${ind}let tq = ${R - 1}u * ntt_ns();`);
    for (let r = 1; r < R; r++) L.push(`${ind}v${r} = ntt_table_mul(v${r}, ${r - 1}u * ntt_ns() + k, tq);`);
  }
  if (twiddles === 'running') {
    // One running product (four interleaved ones, for a shorter dependency chain, measured no
    // faster on the H100: 2^24 x1 encode 0.85 ms either way).
    L.push(`${ind}if (k != 0u) {`);
    L.push(`${ind}  let w1 = ntt_root_pow(k << ntt_tw_shift());`);
    L.push(`${ind}  var wr = w1;`);
    for (let r = 1; r < R; r++) {
      L.push(`${ind}  v${r} = bb_mul(v${r}, wr);`);
      if (r < R - 1) L.push(`${ind}  wr = bb_mul(wr, w1);`);
    }
    L.push(`${ind}}`);
  }
  // roots ω_32^e used by the butterflies: compile-time constants (BB_ROOTS_32, src/params/wgsl-consts.ts)
  const roots = new Set<number>();
  for (let half = R >> 1; half >= 1; half >>= 1) for (let i = 1; i < half; i++) roots.add(i * (MAX_RADIX / (2 * half)));
  for (const e of [...roots].sort((a, b) => a - b))
    L.push(`${ind}const rt${e} = BB_ROOTS_32[${e}]; const rp${e} = BB_ROOTS_32_PLAIN[${e}]; const rq${e} = BB_ROOTS_32_SHOUP[${e}];`);
  for (let half = R >> 1; half >= 1; half >>= 1) {
    for (let b = 0; b < R; b += 2 * half) {
      for (let i = 0; i < half; i++) {
        const x = b + i,
          y = b + i + half;
        const e = i * (MAX_RADIX / (2 * half));
        const d = i === 0 ? `bb_sub(v${x}, v${y})` : `ntt_root_mul(bb_sub(v${x}, v${y}), rt${e}, rp${e}, rq${e})`;
        L.push(`${ind}{ let d = ${d}; v${x} = bb_add(v${x}, v${y}); v${y} = d; }`);
      }
    }
  }
  return L;
}
