/**
 * The MSM's paths from the caller's scalars on, runnable wherever a Prover runs (the
 * `msm-noble-check` page and its spec, so through the Web Worker): msm_split.wgsl against its host
 * twin (encodeScalars) on random and edge scalars in both byte orders; every edge case of
 * msmCases through one msmBases handle, each over its own slice (offset), alone and in a batch,
 * with the scalars as bigints, LE and BE bytes and a Uint32Array; a job forced into parts; and the
 * errors (a slice past the end, a packed scalar >= r caught on the GPU, alone and in a batch, an
 * off-curve point) with the prover usable after them.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { encodeScalars, scalarWords } from '../../src/api/msm-encode.js';
import { splitCheck } from './msm-kernel-checks.js';
import { FR_R } from '../../src/params/bn254.js';
import { isProverError } from '../../src/errors.js';
import { SplitMix64 } from './splitmix.js';
import { msmCases, packPoints, packScalars, seededPoints, seededScalar, type MsmCheckRow } from './msm-check.js';

const G = bn254.G1.Point;
type Pt = InstanceType<typeof G>;

/** Scalars that sit on the split's edges: zero, one, r - 1, the top limb of r, halves all ones. */
const EDGES = [
  0n,
  1n,
  FR_R - 1n,
  FR_R - 2n,
  (FR_R >> 224n) << 224n,
  ((FR_R >> 224n) << 224n) - 1n,
  (1n << 253n) + 0xffffn,
  (1n << 240n) - 1n,
  0xffff0000ffffn,
];

/**
 * msm_split against encodeScalars at n = 1, 2, 7 and 300, both byte orders, every fifth point the
 * identity (its scalar must come out zero); then a vector with scalars >= r at 123 and 200 must
 * report 123, as the host's range check does.
 */
export async function checkMsmSplit(ctx: GpuContext, seed = 0x5b1): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const rows: MsmCheckRow[] = [];
  const pointWords = (n: number) =>
    Uint32Array.from({ length: 16 * n }, (_, w) => (Math.floor(w / 16) % 5 === 3 ? 0 : w % 16 === 0 ? 1 : 0));
  for (const n of [1, 2, 7, 300]) {
    for (const endian of ['le', 'be'] as const) {
      const xs = Array.from({ length: n }, (_, i) => (i < EDGES.length ? EDGES[(i + n) % EDGES.length] : seededScalar(rng)));
      const t0 = performance.now();
      const { words, be } = scalarWords(packScalars(xs, endian), n, endian);
      const got = await splitCheck(ctx, words, be, pointWords(n), n);
      const want = encodeScalars(
        xs.map((k, i) => (i % 5 === 3 ? 0n : k)),
        n,
      );
      const slot = Math.ceil(n / 2);
      let bad = 0,
        first = '';
      for (let h = 0; h < 16; h++) {
        for (let i = 0; i < n; i++) {
          const half = (got.planes[h * slot + (i >> 1)] >>> (16 * (i & 1))) & 0xffff;
          if (half !== want[h * n + i]) {
            bad++;
            first ||= `scalar ${i} half ${h}: gpu ${half} host ${want[h * n + i]}`;
          }
        }
      }
      const ok = bad === 0 && got.bad === -1;
      rows.push({
        step: `msm split ${endian} n=${n}`,
        ok,
        n,
        ms: performance.now() - t0,
        detail: ok ? "half-planes equal the host encoder's" : `${bad} halves differ (${first}); flag ${got.bad}`,
      });
    }
  }
  const xs = Array.from({ length: 300 }, () => seededScalar(rng));
  xs[123] = FR_R;
  xs[200] = (1n << 256n) - 1n;
  const { words } = scalarWords(packScalars(xs, 'le'), 300);
  const got = await splitCheck(ctx, words, false, pointWords(300), 300);
  rows.push({ step: 'msm split flags scalars >= r', ok: got.bad === 123, n: 300, ms: 0, detail: `first flagged ${got.bad} (want 123)` });
  return rows;
}

async function codeOf(f: () => Promise<unknown>): Promise<string> {
  try {
    await f();
    return 'no error';
  } catch (e) {
    return isProverError(e) ? e.code : (e as Error).message;
  }
}

type Form = 'bigint' | 'le' | 'be' | 'u32';
const FORMS: Form[] = ['bigint', 'le', 'be', 'u32'];
function asForm(ks: readonly bigint[], form: Form) {
  if (form === 'bigint') return { scalars: ks, opts: {} };
  const bytes = packScalars(ks, form === 'be' ? 'be' : 'le');
  return { scalars: form === 'u32' ? new Uint32Array(bytes.buffer) : bytes, opts: form === 'be' ? { endian: 'be' as const } : {} };
}

/**
 * The edge cases of msmCases(logn ≤ 6) as slices of one SRS (all their points, after a few
 * leading ones, so no slice starts at 0): each through bases.msm with its offset (inputs cycling
 * through the four scalar forms) and through msmBatch (the case's scalars and their reverse), all
 * against noble; the whole SRS in 3 parts; stats; then the errors.
 */
export async function checkMsmPaths(prover: Prover, logn: number, seed = 0x9a7): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  // The edge cases (random vectors are covered by the one-shot rows), n <= 64 each.
  const cases = msmCases(Math.min(logn, 6), seed).filter((c) => !c.packed && !c.name.startsWith('random'));
  const lead = seededPoints(rng, 3);
  const srs: Pt[] = [...lead];
  const offsets = cases.map((c) => {
    const o = srs.length;
    srs.push(...c.points);
    return o;
  });
  const rows: MsmCheckRow[] = [];
  const row = (step: string, ok: boolean, n: number, t0: number, detail: string) =>
    rows.push({ step, ok, n, ms: performance.now() - t0, detail });
  const h = await prover.msmBases(packPoints(srs));
  try {
    for (const [k, c] of cases.entries()) {
      const t0 = performance.now();
      const want = pippenger(G, c.points, c.scalars);
      const form = FORMS[k % FORMS.length];
      const { scalars, opts } = asForm(c.scalars, form);
      const got = await h.msm(scalars, { ...opts, offset: offsets[k] });
      const rev = [...c.scalars].reverse();
      const batch = await h.msmBatch([scalars, asForm(rev, form).scalars], { ...opts, offset: offsets[k] });
      const ok = got.equals(want) && batch.length === 2 && batch[0].equals(want) && batch[1].equals(pippenger(G, c.points, rev));
      row(
        `msm slice+batch ${c.name}`,
        ok,
        c.points.length,
        t0,
        ok
          ? `at offset ${offsets[k]} (${form} scalars), alone and in a batch of 2, equals noble`
          : `alone ${got.equals(want)}, batch ${batch.map((p, i) => p.equals(i ? pippenger(G, c.points, rev) : want)).join('/')}`,
      );
    }
    const all = srs.map((_, i) => (i % 7 === 0 ? FR_R - 1n : seededScalar(rng)));
    let t0 = performance.now();
    const parts = await h.msmProfiled(all, { parts: 3 });
    const whole = pippenger(G, srs, all);
    row(
      'msm job in 3 parts',
      parts.point.equals(whole) && parts.plans.length === 3,
      srs.length,
      t0,
      `${parts.plans.length} runs; ${parts.point.equals(whole) ? 'equals' : 'differs from'} noble`,
    );
    const s = h.stats();
    row(
      'msm bases stats',
      s.n === srs.length && s.basesBytes === 64 * srs.length && s.peakBytes > s.basesBytes && s.runs === 1,
      srs.length,
      performance.now(),
      JSON.stringify(s),
    );
    // Errors, each leaving the handle and the prover usable.
    t0 = performance.now();
    const tooFar = await codeOf(() => h.msm([1n, 2n, 3n, 4n, 5n], { offset: srs.length - 3 }));
    const big = packScalars([1n, FR_R, 2n]);
    const badAlone = await codeOf(() => h.msm(big, { offset: 1 }));
    const badInBatch = await codeOf(() => h.msmBatch([packScalars([1n, 2n, 3n]), big]));
    const badOneShot = await codeOf(() => prover.msm(packPoints(lead), big));
    const offCurve = packPoints(lead);
    offCurve[63] ^= 1;
    const notOnCurve = await codeOf(() => prover.msmBases(offCurve));
    const codes = [tooFar, badAlone, badInBatch, badOneShot, notOnCurve];
    const wantCodes = ['INVALID_LENGTH', 'NON_CANONICAL', 'NON_CANONICAL', 'NON_CANONICAL', 'NOT_ON_CURVE'];
    row(
      'msm errors: slice past the end, packed scalar >= r (alone, batch, one-shot), off-curve bases',
      codes.join() === wantCodes.join(),
      3,
      t0,
      codes.join(', '),
    );
    t0 = performance.now();
    const after = await h.msm([5n, 7n], { offset: 1 });
    row('msm handle usable after errors', after.equals(lead[1].multiply(5n).add(lead[2].multiply(7n))), 2, t0, '5·P1 + 7·P2');
  } finally {
    h.destroy();
  }
  return rows;
}
