/**
 * Summary statistics for timings. Browser-safe (no Node imports): bench/support/*.ts runs in the
 * dev page as well as in the benches, so the helpers they share live here, not in bench/.
 * @module
 */

/** The upper median (the middle element of the sorted copy; the higher of the two for even lengths). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Median ms of `reps` calls of `f` after one untimed call (pipelines, pools and clocks warm). */
export async function medianTime(f: () => Promise<unknown>, reps: number): Promise<number> {
  await f();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    t.push(performance.now() - t0);
  }
  return median(t);
}
