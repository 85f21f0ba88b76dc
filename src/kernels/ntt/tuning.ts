/**
 * How the NTT runs, as one frozen record of defaults (NTT_TUNING). Each default was set by an
 * alternating A/B on the H100 at 2^24 recorded in bench/RESULTS.md (section "ntt"); the bench's
 * A/B variants (bench/ntt.ts AB_VARIANTS) and the GPU checks pass a partial tuning, merged once
 * into a whole record by withTuning before planning (./plan.ts planNtt). Nothing else reads a
 * default: the plan holds every value the recording uses.
 * @module
 */

export interface NttTuning {
  /** Largest radix of a register pass (2..32). */
  readonly maxRadix: number;
  /** Threads per workgroup of a register pass. */
  readonly workgroup: number;
  /** The first pass of a transform (not also its last) stores through a workgroup tile below this width (0: never; Infinity: always, where it qualifies). */
  readonly stageBelowWidth: number;
  /** A register pass at Ns = 1 that is not staged runs `_first`, an entry point without the running twiddles' code (k = 0 there). */
  readonly firstEntry: boolean;
  /** Middle passes read their twiddles from a per-(Ns, R) table instead of computing them. */
  readonly twiddleTables: boolean;
  /** Largest Ns·R with a single twiddle table; passes past it compute theirs or read a split table. */
  readonly tableMax: number;
  /** Passes past a single table (the last) read a split table instead of computing their twiddles. */
  readonly splitTables: boolean;
  /** Butterfly roots and table twiddles multiply by Shoup's method instead of Montgomery's. */
  readonly shoup: boolean;
  /** An lde runs its idft's last pass and its dft's first as one kernel where the radices allow. */
  readonly fuseLde: boolean;
  /** encode / lde fold a zero-padded radix-2 first pass into the next pass's loads. */
  readonly foldPadding: boolean;
  /** log2 of the two-level radix (even, 4..10; 0: register passes only). */
  readonly twoLevel: number;
  /** Jobs of at least this many input rows take two-level passes. */
  readonly twoLevelMinRows: number;
  /** Jobs of at most this width take two-level passes. */
  readonly twoLevelMaxWidth: number;
  /** Lanes (groups × columns) per two-level workgroup: groups = lanes / width, a power of two ≥ 1. */
  readonly twoLevelLanes: number;
  /** Most groups per two-level workgroup; 0: from twoLevelLanes. */
  readonly twoLevelGroups: number;
  /** An lde or idft carries its scale in the tables of its two-level passes instead of multiplying in the store. */
  readonly foldScale: boolean;
  /** Pipelines specialized by each pass's flags (an override) instead of reading them from the uniform. */
  readonly staticFlags: boolean;
  /** With staticFlags: a first pass's load flags (rows reversed, halved, padded) 'uniform' (one pipeline for all first passes of a radix) or 'static'. */
  readonly firstPassLoads: 'uniform' | 'static';
  /** Two-level inner twiddles carry their Shoup quotient's 16-bit halves. */
  readonly innerHalves: boolean;
  /** Bench only: record the first passLimit passes (a prefix of the job; the output is not the job's). */
  readonly passLimit: number;
}

/** The defaults; each names the date and commit of the A/B that set it (`git show <commit>:bench/RESULTS.md`, "ntt" unless another section is named). */
export const NTT_TUNING: NttTuning = Object.freeze({
  /** 2^24 in 5 passes instead of 6 at about the same multiplies per element (2026-11-21, 149346d, H100: radix ≤ 16 0.92-1.0x). */
  maxRadix: 32,
  /** 2^24 -> 2^25 encode 4.72 ms at 256 threads, 6.03 at 128, 4.85 at 64 (2026-11-21, 4f517ee, H100). */
  workgroup: 256,
  /** Strided stores below width 8 fill 4·W of each 32-byte sector: unstaged 1.40-1.55x slower; at width 8 staging lost 2-6% (2026-11-21, 149346d, H100). */
  stageBelowWidth: 8,
  /** The radix-32 first pass compiled in ~0.6 s with the running twiddles' code it never runs (2026-11-27, dd69fdb, H100: bench/RESULTS.md, cold). */
  firstEntry: true,
  /** One multiply per value instead of two (2026-11-21, e436195; H200 1.05-1.17x). */
  twiddleTables: true,
  /** (R − 1)·Ns words, 4 MiB at 2^20, stays in L2 while the pass streams the matrix. */
  tableMax: 2 ** 20,
  /** Split last-pass tables were 1.02x slower than computing (2026-11-21, e436195, H100). */
  splitTables: false,
  /** Montgomery was 1.12-1.14x slower (2026-11-21, e436195, H100). */
  shoup: true,
  /** lde x1 1.073 -> 1.040 ms, x8 7.33 -> 7.28 (2026-11-22, 3163d8a, H100). */
  fuseLde: true,
  /** lde x1 0.942 -> 0.836 ms, encode 0.623 -> 0.524 (2026-11-22, be8c68a, H100: the padded copy pass). */
  foldPadding: true,
  /** Radix 256 = 16·16: 2^24 in 3 passes instead of 5, 0.79-0.94x of register passes; 1024 and 64 slower (2026-11-22, 9d2bfae, H100). */
  twoLevel: 8,
  /** 2^24, the size the two-level A/B measured. */
  twoLevelMinRows: 2 ** 24,
  /** 8, the widest the two-level A/B measured. */
  twoLevelMaxWidth: 8,
  /** 16 lanes: 64-byte runs per load and store; 8 lanes 1.15x, 32 lanes 1.28-1.53x slower (2026-11-22, 833adf1, H100). */
  twoLevelLanes: 16,
  twoLevelGroups: 0,
  /** lde x1 0.844 -> 0.811 ms, x8 6.22 -> 6.06 (2026-11-22, 833adf1, H100). */
  foldScale: true,
  /** lde x1 0.836 -> 0.770 ms, encode 0.541 -> 0.483; x8 1.18-1.19x (2026-11-22, 833adf1, H100). */
  staticFlags: true,
  /** One compile fewer for a first lde (2026-11-26, 58bc912, H100: bench/RESULTS.md, cold and ntt). */
  firstPassLoads: 'uniform',
  /** lde x1 0.770 -> 0.758 ms (2026-11-22, 833adf1, H100). */
  innerHalves: true,
  passLimit: Infinity,
});

/** NTT_TUNING with `overrides` (bench A/Bs, checks comparing variants), as one frozen record. */
export function withTuning(overrides: Partial<NttTuning> = {}): NttTuning {
  const given = Object.entries(overrides).filter(([, v]) => v !== undefined);
  return given.length === 0 ? NTT_TUNING : Object.freeze({ ...NTT_TUNING, ...Object.fromEntries(given) });
}

/** Overrides that make a job take two-level passes of 2^log rows at any size and width where they fit (checks, bench). */
export function twoLevelAt(log: number): Partial<NttTuning> {
  return { twoLevel: log, twoLevelMinRows: 0, twoLevelMaxWidth: Infinity };
}
