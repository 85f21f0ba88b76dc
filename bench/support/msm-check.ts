/**
 * GPU BN254 MSM checks, runnable wherever a Prover runs (dev page `msm-noble-check`, the
 * Playwright spec, `npm run bench -- msm`): the WGSL Fq ops against bigint, every edge case
 * of the issue and seeded random inputs against @noble/curves' pippenger (with both walkers),
 * the arkworks vectors, and the error codes (with the prover still usable afterwards).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { fqCheck } from './msm-kernel-checks.js';
import { beBytes32, FQ_P, FR_R, fromLimbs, invMod, toLimbs } from '../../src/params/bn254.js';
import { isProverError } from '../../src/errors.js';
import { SplitMix64 } from './splitmix.js';

export const G = bn254.G1.Point;
type Pt = InstanceType<typeof G>;

export interface MsmCheckRow {
  step: string;
  ok: boolean;
  n: number;
  ms: number;
  detail: string;
}

export function seededScalar(rng: SplitMix64, mod = FR_R): bigint {
  let k = 0n;
  for (let i = 0; i < 4; i++) k |= rng.next() << BigInt(64 * i);
  return k % mod;
}

/** n distinct points k0·G, (k0 + d)·G, ... by repeated addition (cheap in noble). */
export function seededPoints(rng: SplitMix64, n: number): Pt[] {
  const step = G.BASE.multiply(seededScalar(rng) || 1n);
  const out: Pt[] = [G.BASE.multiply(seededScalar(rng) || 1n)];
  while (out.length < n) out.push(out[out.length - 1].add(step));
  return out;
}

export function packPoints(pts: readonly Pt[]): Uint8Array {
  const out = new Uint8Array(64 * pts.length);
  pts.forEach((p, i) => {
    const a = p.is0() ? { x: 0n, y: 0n } : p.toAffine();
    beBytes32(a.x, out, 64 * i);
    beBytes32(a.y, out, 64 * i + 32);
  });
  return out;
}

/** Scalars as 32 bytes each, little-endian (the default msm() reads) or big-endian. */
export function packScalars(ks: readonly bigint[], endian: 'le' | 'be' = 'le'): Uint8Array {
  const out = new Uint8Array(32 * ks.length);
  ks.forEach((k, i) => {
    beBytes32(k, out, 32 * i);
    if (endian === 'le') out.subarray(32 * i, 32 * i + 32).reverse();
  });
  return out;
}

/**
 * The Fq checks' inputs: every pair of `edges`, then `count` seeded pairs below p, as bigints and
 * as the check kernels read them (16 words a pair: a's 8 LE limbs, then b's).
 */
export function fqPairs(edges: readonly bigint[], count: number, rng: SplitMix64): { pairs: [bigint, bigint][]; words: Uint32Array } {
  const pairs: [bigint, bigint][] = [];
  for (const a of edges) for (const b of edges) pairs.push([a, b]);
  for (let i = 0; i < count; i++) pairs.push([seededScalar(rng, FQ_P), seededScalar(rng, FQ_P)]);
  const words = new Uint32Array(16 * pairs.length);
  pairs.forEach(([a, b], i) => {
    words.set(toLimbs(a), 16 * i);
    words.set(toLimbs(b), 16 * i + 8);
  });
  return { pairs, words };
}

/** WGSL fq_mul/add/sub/inv on `count` random pairs plus edge values, against bigint. */
export async function checkFq(ctx: GpuContext, count: number, seed = 0xf9): Promise<MsmCheckRow> {
  const rng = new SplitMix64(seed);
  const edges = [0n, 1n, 2n, FQ_P - 1n, FQ_P - 2n, 1n << 253n, (1n << 32n) - 1n, FQ_P >> 1n];
  const { pairs, words } = fqPairs(edges, count, rng);
  const t0 = performance.now();
  const out = await fqCheck(ctx, words);
  const ms = performance.now() - t0;
  let bad = 0;
  let first = '';
  pairs.forEach(([a, b], i) => {
    const want = [(a * b) % FQ_P, (a + b) % FQ_P, (a - b + FQ_P) % FQ_P, a === 0n ? 0n : invMod(a, FQ_P)];
    want.forEach((w, k) => {
      const got = fromLimbs(out, 32 * i + 8 * k);
      if (got !== w) {
        bad++;
        first ||= `pair ${i} op ${k}: a=${a} b=${b} got ${got} want ${w}`;
      }
    });
  });
  return {
    step: 'fq mul/add/sub/inv',
    ok: bad === 0,
    n: pairs.length,
    ms,
    detail: bad ? `${bad} wrong; ${first}` : `${pairs.length} pairs equal bigint`,
  };
}

export interface MsmCase {
  name: string;
  points: Pt[];
  scalars: bigint[];
  packed?: boolean;
}

/** The edge cases and seeded random inputs up to n = 2^logn. */
export function msmCases(logn: number, seed = 0x45): MsmCase[] {
  const rng = new SplitMix64(seed);
  const N = 1 << logn;
  const pts = seededPoints(rng, N);
  const rand = (n: number) => Array.from({ length: n }, () => seededScalar(rng));
  const cases: MsmCase[] = [];
  for (const n of [1, 2, 3, 7, 100, N - 1, N]) if (n <= N) cases.push({ name: `random n=${n}`, points: pts.slice(0, n), scalars: rand(n) });
  const n = Math.min(N, 64);
  const p = pts.slice(0, n);
  cases.push({ name: 'all zero scalars', points: p, scalars: Array(n).fill(0n) });
  cases.push({ name: 'scalars 1 and r-1', points: p, scalars: p.map((_, i) => (i % 2 ? FR_R - 1n : 1n)) });
  cases.push({ name: 'identity points', points: p.map((q, i) => (i % 3 === 0 ? G.ZERO : q)), scalars: rand(n) });
  cases.push({ name: 'repeated point', points: Array(n).fill(p[0]), scalars: rand(n) });
  cases.push({
    name: 'P and -P, same scalars',
    points: p.map((q, i) => (i % 2 ? p[i - 1].negate() : q)),
    scalars: rand(n).map((k, i, a) => (i % 2 ? a[i - 1] : k)),
  });
  cases.push({ name: 'P and -P, different scalars', points: p.map((q, i) => (i % 2 ? p[i - 1].negate() : q)), scalars: rand(n) });
  cases.push({ name: 'sparse (90% zeros)', points: pts, scalars: rand(N).map((k, i) => (i % 10 === 3 ? k : 0n)) });
  const k = seededScalar(rng);
  cases.push({ name: 'all scalars equal', points: pts, scalars: Array(N).fill(k) });
  cases.push({ name: 'small scalars', points: pts, scalars: pts.map((_, i) => BigInt(i % 5)) });
  cases.push({ name: 'packed bytes input', points: pts.slice(0, 33), scalars: rand(33), packed: true });
  return cases;
}

/** Hex of a result for a failure message; a wrong MSM can be off the curve, where toHex throws. */
export function hex(p: Pt): string {
  try {
    return p.toHex();
  } catch {
    const a = p.toAffine();
    return `(off the curve: x ${a.x.toString(16)}, y ${a.y.toString(16)})`;
  }
}

export async function checkMsmCase(prover: Prover, c: MsmCase): Promise<MsmCheckRow> {
  const t0 = performance.now();
  const got = c.packed ? await prover.msm(packPoints(c.points), packScalars(c.scalars)) : await prover.msm(c.points, c.scalars);
  const ms = performance.now() - t0;
  const want = pippenger(G, c.points, c.scalars);
  const ok = got.equals(want);
  return {
    step: `msm ${c.name}`,
    ok,
    n: c.points.length,
    ms,
    detail: ok ? 'equals noble pippenger' : `gpu ${hex(got)} != noble ${want.toHex()}`,
  };
}

interface ArkCase {
  id: string;
  n: number;
  points: { x: string; y: string }[];
  scalars: string[];
  result: { x: string; y: string };
}

export async function checkArkworks(prover: Prover, cases: readonly ArkCase[]): Promise<MsmCheckRow[]> {
  const rows: MsmCheckRow[] = [];
  for (const c of cases) {
    const pts = c.points.map((p) => (p.x === '0' && p.y === '0' ? G.ZERO : G.fromAffine({ x: BigInt(p.x), y: BigInt(p.y) })));
    const t0 = performance.now();
    const got = await prover.msm(
      pts,
      c.scalars.map((s) => BigInt(s)),
    );
    const want = c.result.x === '0' && c.result.y === '0' ? G.ZERO : G.fromAffine({ x: BigInt(c.result.x), y: BigInt(c.result.y) });
    const ok = got.equals(want);
    rows.push({ step: `arkworks ${c.id}`, ok, n: c.n, ms: performance.now() - t0, detail: ok ? 'equals ark-bn254' : `got ${got.toHex()}` });
  }
  return rows;
}

async function expectCode(code: string, f: () => Promise<unknown>): Promise<string | null> {
  try {
    await f();
    return `no error (wanted ${code})`;
  } catch (e) {
    return isProverError(e) && e.code === code ? null : `got ${(e as Error).message} (wanted ${code})`;
  }
}

export async function checkMsmErrors(prover: Prover): Promise<MsmCheckRow[]> {
  const g = G.BASE,
    g2 = G.BASE.double();
  const badPt = packPoints([g, g2]);
  badPt[63] ^= 1; // y + 1: not on the curve
  const bigP = packPoints([g]);
  bigP.set(packScalars([FQ_P], 'be').subarray(0, 32), 0); // x = p
  const tests: [string, string, () => Promise<unknown>][] = [
    ['not on curve', 'NOT_ON_CURVE', () => prover.msm(badPt, [1n, 2n])],
    ['coordinate >= p', 'NON_CANONICAL', () => prover.msm(bigP, [1n])],
    ['scalar >= r', 'NON_CANONICAL', () => prover.msm([g], [FR_R])],
    ['negative scalar', 'NON_CANONICAL', () => prover.msm([g], [-1n])],
    ['length mismatch', 'INVALID_LENGTH', () => prover.msm([g, g2], [1n])],
    ['empty input', 'INVALID_LENGTH', () => prover.msm([], [])],
    ['packed scalars wrong size', 'INVALID_LENGTH', () => prover.msm([g], new Uint8Array(31))],
  ];
  const rows: MsmCheckRow[] = [];
  for (const [name, code, f] of tests) {
    const err = await expectCode(code, f);
    rows.push({ step: `msm error ${name}`, ok: err === null, n: 0, ms: 0, detail: err ?? code });
  }
  const after = await prover.msm([g, g2], [5n, 7n]);
  rows.push({ step: 'msm usable after errors', ok: after.equals(g.multiply(19n)), n: 2, ms: 0, detail: '5G + 7(2G) = 19G' });
  return rows;
}
