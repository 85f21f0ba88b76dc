/**
 * MSM answers for bases whose discrete logs are known: the checks' small jobs (the self-check's,
 * each engine's known answer, the sampled check of a result) take points d_i·G, so
 * sum_i k_i·(d_i·G) = (sum_i k_i·d_i mod r)·G, one scalar multiplication instead of a pippenger
 * over the points (~40 ms of the caller's thread for 32 points). The bases are made by additions
 * and the one multiplication by doubling and adding: noble's G.multiply first builds a table of
 * ~4000 multiples of G (~150 ms on the H100's host), all of it on a first MSM's wait.
 * Noble's point class comes in as an argument: the checks load noble with the MSM, not before.
 * @module
 */
import { FR_R } from '../params/bn254.js';

/** What these helpers use of a noble curve point class (bn254.G1.Point). */
export interface GroupPoint<P> {
  add(other: P): P;
  double(): P;
}
export interface Group<P extends GroupPoint<P>> {
  readonly BASE: P;
  readonly ZERO: P;
}

/** k·G for 0 <= k, by doubling and adding (no precomputed table). */
export function timesBase<P extends GroupPoint<P>>(G: Group<P>, k: bigint): P {
  let acc = G.ZERO;
  for (let q = G.BASE; k > 0n; k >>= 1n, q = q.double()) if (k & 1n) acc = acc.add(q);
  return acc;
}

/**
 * n points in arithmetic progression, (first + i·step)·G, with their logs (one multiplication for
 * the first point and one for the step, then additions).
 */
export function knownMultiples<P extends GroupPoint<P>>(
  G: Group<P>,
  first: bigint,
  step: bigint,
  n: number,
): { points: P[]; logs: bigint[] } {
  const points: P[] = [];
  const logs: bigint[] = [];
  const by = timesBase(G, step);
  for (let i = 0, q = timesBase(G, first); i < n; i++, q = q.add(by)) {
    points.push(q);
    logs.push(first + BigInt(i) * step);
  }
  return { points, logs };
}

/** sum_i scalars[i]·(logs[i]·G), as (sum_i scalars[i]·logs[i] mod r)·G. */
export function msmOfKnownLogs<P extends GroupPoint<P>>(G: Group<P>, logs: readonly bigint[], scalars: readonly bigint[]): P {
  let s = 0n;
  for (let i = 0; i < scalars.length; i++) s += scalars[i] * logs[i];
  return timesBase(G, s % FR_R);
}
