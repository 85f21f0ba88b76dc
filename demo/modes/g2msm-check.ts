// Autorun mode `g2msm-check`: the BN254 G2 MSM (src/kernels/g2msm/) on the GPU against its noble
// twin (src/ref/g2-msm.ts), from zkey-layout words: n = 1, edge scalars and points, skewed
// witness-like scalars, seeded random inputs up to 2^logn (`&logn=N`, default 10), a prefix of
// the points, several batches of windows, and the bases' check naming a bad point.
import type { ModeContext } from '../autorun.js';
import { bn254 } from '@noble/curves/bn254.js';
import { GpuContext } from '../../src/gpu/context.js';
import { G2Bases } from '../../src/kernels/g2msm/bases.js';
import type { G2PlanOptions } from '../../src/kernels/g2msm/plan.js';
import { g2MsmRef, type G2Point } from '../../src/ref/g2-msm.js';
import { g2Words, scalarWords, type G2Affine } from '../../src/field/g2-words.js';
import { FQ_P, FR_R, toLimbs } from '../../src/params/bn254.js';
import { isProverError } from '../../src/errors.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

const G2 = bn254.G2.Point;

/** A scalar below r from the generator (4 draws, reduced). */
function randScalar(rng: SplitMix64): bigint {
  let k = 0n;
  for (let i = 0; i < 4; i++) k = (k << 64n) | rng.next();
  return k % FR_R;
}

/** n distinct points: a chain P_i = P_(i-1) + Q from a random start (one addition a point, not a multiplication). */
function randPoints(rng: SplitMix64, n: number): G2Point[] {
  const q = G2.BASE.multiply(randScalar(rng) || 1n);
  let p = G2.BASE.multiply(randScalar(rng) || 1n);
  const out: G2Point[] = [];
  for (let i = 0; i < n; i++) out.push((p = p.add(q)));
  return out;
}

const affine = (ps: readonly G2Point[]): (G2Affine | null)[] => ps.map((p) => (p.is0() ? null : p.toAffine()));

interface Case {
  name: string;
  points: G2Point[];
  scalars: bigint[];
  /** scalars used (a prefix of the points): default all */
  count?: number;
  opts?: G2PlanOptions;
}

function cases(rng: SplitMix64, logn: number): Case[] {
  const pts = randPoints(rng, Math.max(1 << logn, 300));
  const ks = (n: number) => Array.from({ length: n }, () => randScalar(rng));
  const P = pts[0];
  const skew = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const u = Number(rng.next() % 100n);
      return u < 90 ? 0n : u < 98 ? 1n : i % 7 === 0 ? FR_R - 1n : randScalar(rng);
    });
  const n = 1 << logn;
  return [
    { name: 'n=1', points: [P], scalars: ks(1) },
    { name: 'all zero scalars', points: pts.slice(0, 40), scalars: new Array(40).fill(0n) },
    { name: 'scalars 1 and r-1', points: pts.slice(0, 40), scalars: Array.from({ length: 40 }, (_, i) => (i % 2 ? FR_R - 1n : 1n)) },
    { name: 'identity points', points: pts.slice(0, 40).map((p, i) => (i % 3 ? p : G2.ZERO)), scalars: ks(40) },
    { name: 'repeated point', points: new Array(64).fill(P), scalars: ks(64) },
    {
      name: 'P and -P',
      points: pts.slice(0, 32).flatMap((p) => [p, p.negate()]),
      scalars: Array.from({ length: 64 }, (_, i) => BigInt(1 + (i >> 1)) * 1000003n),
    },
    { name: 'skewed (90% zeros, many ones, a few large)', points: pts.slice(0, n), scalars: skew(n) },
    { name: 'all scalars 1', points: pts.slice(0, 300), scalars: new Array(300).fill(1n) },
    { name: `random n=${n}`, points: pts.slice(0, n), scalars: ks(n) },
    { name: 'random n=300', points: pts.slice(0, 300), scalars: ks(300) },
    { name: 'fewer scalars than points', points: pts.slice(0, 100), scalars: ks(100), count: 37 },
    // 32 windows of 8 bits, 3 a batch (11 batches); and one window a batch at c = 5
    { name: 'c=8, 3 windows a batch', points: pts.slice(0, 100), scalars: ks(100), opts: { c: 8, entryBudget: 300 } },
    {
      name: 'c=5, 1 window a batch',
      points: pts.slice(0, 50),
      scalars: skew(50).map((k, i) => (i < 5 ? randScalar(rng) : k)),
      opts: { c: 5, entryBudget: 50 },
    },
  ];
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

export async function g2msmCheck({ params, report }: ModeContext): Promise<void> {
  const logn = Number(params.get('logn') ?? 10);
  const ctx = await GpuContext.create(navigator.gpu);
  try {
    // Every case on both engines: the fast pipelines, and the quick ones a first proof runs on.
    const all = cases(new SplitMix64(0x62), logn);
    for (const [engine, c] of (['fast', 'quick'] as const).flatMap((e) => all.map((c) => [e, c] as const))) {
      const words = g2Words(affine(c.points));
      const scal = scalarWords(c.scalars);
      const count = c.count ?? c.scalars.length;
      const step = `g2msm ${c.name}${engine === 'quick' ? ' (quick)' : ''}`;
      try {
        const want = g2MsmRef(words, scal, count);
        const bases = await ctx.run(() => G2Bases.upload(ctx, words, c.points.length));
        try {
          const [got, ms] = await timed(() => ctx.run(() => bases.msm(scal, count, c.opts, engine)));
          const ok = got.equals(want) && bases.check.bad === -1 && bases.check.big === -1;
          report(step, ok ? 'ok' : 'fail', ms, {
            n: count,
            detail: ok
              ? `c=${bases.lastPlan?.c}, ${bases.lastPlan?.batches.length} batch(es)`
              : `got ${got.toHex?.() ?? got}, want ${want}`,
          });
        } finally {
          bases.destroy();
        }
      } catch (e) {
        report(step, 'fail', 0, { detail: String(e) });
      }
    }
    await checkBadPoints(ctx, report);
  } finally {
    ctx.destroy();
  }
}

/** A point off the twist and a coordinate >= q: named by the check, refused by msm. */
async function checkBadPoints(ctx: GpuContext, report: ModeContext['report']): Promise<void> {
  const pts = randPoints(new SplitMix64(0x63), 20);
  const scal = scalarWords(pts.map((_, i) => BigInt(i + 1)));
  const bad = (name: string, at: number, code: string, spoil: (w: Uint32Array) => void, field: 'bad' | 'big') => async () => {
    const words = g2Words(affine(pts));
    spoil(words);
    const bases = await ctx.run(() => G2Bases.upload(ctx, words));
    try {
      const other = field === 'bad' ? 'big' : 'bad';
      let refused = '';
      try {
        await ctx.run(() => bases.msm(scal));
      } catch (e) {
        refused = isProverError(e) ? e.code : String(e);
      }
      const ok = bases.check[field] === at && bases.check[other] === -1 && refused === code;
      report(`g2msm ${name}`, ok ? 'ok' : 'fail', 0, { detail: `check ${JSON.stringify(bases.check)}, msm: ${refused}` });
    } finally {
      bases.destroy();
    }
  };
  // y.c0 + 1 (in Montgomery form: another value, still below q): off the twist.
  await bad('point off the curve reported', 13, 'NOT_ON_CURVE', (w) => (w[32 * 13 + 16] += 1), 'bad')();
  // x.c1 = q itself: not canonical (points 5 and 17; the first is named).
  await bad(
    'coordinate >= q reported',
    5,
    'NON_CANONICAL',
    (w) => {
      w.set(toLimbs(FQ_P), 32 * 5 + 8);
      w.set(toLimbs(FQ_P + 1n), 32 * 17 + 24);
    },
    'big',
  )();
  // A scalar >= r is refused, naming it.
  const bases = await ctx.run(() => G2Bases.upload(ctx, g2Words(affine(pts))));
  try {
    const s = scal.slice();
    s.set(toLimbs(FR_R), 8 * 9);
    let msg = '';
    try {
      await ctx.run(() => bases.msm(s));
    } catch (e) {
      msg = isProverError(e) ? `${e.code}: ${e.message}` : String(e);
    }
    report('g2msm scalar >= r refused', /^NON_CANONICAL: .*scalar 9\b/.test(msg) ? 'ok' : 'fail', 0, { detail: msg });
    const want = g2MsmRef(g2Words(affine(pts)), scal);
    const got = await ctx.run(() => bases.msm(scal));
    report('g2msm usable after errors', got.equals(want) ? 'ok' : 'fail', 0, {});
  } finally {
    bases.destroy();
  }
}
