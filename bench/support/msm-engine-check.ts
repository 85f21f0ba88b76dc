/**
 * The MSM's two engines (src/kernels/msm/engines.ts), runnable wherever a Prover runs (the
 * `msm-noble-check` page and its spec, so through the Web Worker): a cold prover's first MSM takes
 * the quick engine on its own and equals noble; then every edge case of msmCases, each scalar form
 * in turn, through the quick engine and the walker named by the tuning (msmProfiled), over a slice
 * of one handle; a job in parts on the quick engine; a packed scalar >= r caught by msm_quick.
 * @module
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import { isProverError } from '../../src/errors.js';
import { FR_R } from '../../src/params/bn254.js';
import { SplitMix64 } from './splitmix.js';
import { G, msmCases, packPoints, packScalars, seededPoints, seededScalar, type MsmCheckRow } from './msm-check.js';

type Pt = InstanceType<typeof G>;

/**
 * `prover`'s first MSM (nothing of the family compiled yet): it must take the quick engine (the
 * walker compiles far longer) and equal noble. Run before anything else calls the MSM on it.
 */
export async function checkColdFirstMsm(prover: Prover, seed = 0xc01d): Promise<MsmCheckRow> {
  const rng = new SplitMix64(seed);
  const pts = seededPoints(rng, 100);
  pts[3] = G.ZERO;
  const ks = pts.map((_, i) => (i === 7 ? FR_R - 1n : seededScalar(rng)));
  const t0 = performance.now();
  const got = await prover.msm(pts, ks);
  const ms = performance.now() - t0;
  const runs = prover.stats().engineRuns;
  const ok = got.equals(pippenger(G, pts, ks)) && (runs['msm quick'] ?? 0) >= 1;
  return { step: 'msm cold first call on the quick engine', ok, n: pts.length, ms, detail: `engine runs ${JSON.stringify(runs)}` };
}

const FORMS = ['bigint', 'le', 'be', 'u32'] as const;

function asForm(ks: readonly bigint[], k: number) {
  const form = FORMS[k % FORMS.length];
  if (form === 'bigint') return { scalars: ks, opts: {}, form };
  const bytes = packScalars(ks, form === 'be' ? 'be' : 'le');
  return { scalars: form === 'u32' ? new Uint32Array(bytes.buffer) : bytes, opts: form === 'be' ? { endian: 'be' as const } : {}, form };
}

/** Every edge case through both engines over one handle's slices; parts and a bad scalar on the quick one. */
export async function checkMsmEngines(prover: Prover, logn: number, seed = 0xe9): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const cases = msmCases(Math.min(logn, 6), seed).filter((c) => !c.packed);
  const srs: Pt[] = seededPoints(rng, 2);
  const offsets = cases.map((c) => {
    const o = srs.length;
    srs.push(...c.points);
    return o;
  });
  const rows: MsmCheckRow[] = [];
  const h = await prover.msmBases(packPoints(srs));
  try {
    for (const [k, c] of cases.entries()) {
      const t0 = performance.now();
      const want = pippenger(G, c.points, c.scalars);
      const { scalars, opts, form } = asForm(c.scalars, k);
      const quick = await h.msmProfiled(scalars, { engine: 'quick' }, { ...opts, offset: offsets[k] });
      const walker = await h.msmProfiled(scalars, { engine: 'walker' }, { ...opts, offset: offsets[k] });
      const ok =
        quick.point.equals(want) && walker.point.equals(want) && quick.engines.join() === 'quick' && walker.engines.join() === 'walker';
      rows.push({
        step: `msm engines ${c.name}`,
        ok,
        n: c.points.length,
        ms: performance.now() - t0,
        detail: `${form} scalars at offset ${offsets[k]}: quick ${quick.point.equals(want)} (${quick.engines}), walker ${walker.point.equals(want)} (${walker.engines})`,
      });
    }
    let t0 = performance.now();
    const all = srs.map((_, i) => (i % 5 === 0 ? FR_R - 1n : seededScalar(rng)));
    const parts = await h.msmProfiled(all, { engine: 'quick', parts: 3 });
    rows.push({
      step: 'msm quick engine in 3 parts',
      ok: parts.point.equals(pippenger(G, srs, all)) && parts.engines.join() === 'quick,quick,quick',
      n: srs.length,
      ms: performance.now() - t0,
      detail: `engines ${parts.engines}`,
    });
    // msm_quick's own range check: the host does not look at packed bytes.
    t0 = performance.now();
    const big = packScalars([1n, 2n, 3n, 4n, 5n, FR_R, 7n, FR_R + 1n]);
    let code = 'none';
    try {
      await h.msmProfiled(big, { engine: 'quick' }, { offset: 1 });
    } catch (e) {
      code = isProverError(e) ? `${e.code}: ${e.message}` : String(e);
    }
    const after = await h.msmProfiled([5n, 7n], { engine: 'quick' }, { offset: 1 });
    rows.push({
      step: 'msm quick engine flags a packed scalar >= r, usable after',
      ok:
        code.startsWith('NON_CANONICAL') && code.includes('scalar 5 ') && after.point.equals(srs[1].multiply(5n).add(srs[2].multiply(7n))),
      n: 8,
      ms: performance.now() - t0,
      detail: code,
    });
  } finally {
    h.destroy();
  }
  return rows;
}
