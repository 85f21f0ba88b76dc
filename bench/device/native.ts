/**
 * The native column: bench/native's JSON lines (one per measurement, run by the user on the same
 * machine as the browser) matched to bench summaries by their `nativeKey` fields.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { BenchSummary } from '../../demo/bench/harness.js';
import type { NativeLookup } from '../../demo/bench/table.js';

type NativeLine = Record<string, unknown> & { ms_median?: number; threads?: number };

/**
 * A lookup over a native-anchor output file: the median ms of the lines whose fields match, at the
 * most threads, from the fastest implementation (the DFT has two: Plonky3's radix-2 DIT and its
 * recursive one).
 */
export function nativeLookup(file: string): NativeLookup {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as NativeLine);
  return (b: BenchSummary) => {
    const key = b.nativeKey;
    if (!key) return undefined;
    const hits = lines.filter((l) => typeof l.ms_median === 'number' && Object.entries(key).every(([k, v]) => l[k] === v));
    hits.sort((x, y) => (y.threads ?? 0) - (x.threads ?? 0) || x.ms_median! - y.ms_median!);
    return hits[0]?.ms_median;
  };
}
