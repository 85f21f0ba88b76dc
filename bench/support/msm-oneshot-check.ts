/**
 * The checks of an MSM job's pipelining (src/kernels/msm/job.ts): the one-shot msm() uploads and
 * converts its bases run by run and reads the points' checks only at the end, and msmBatch submits
 * every vector before reading any, so their errors must still come, name the right input, return
 * no result and leave the prover usable. `checkOneShotParts` forces the one-shot into parts
 * (oneShotMsm with a tuning, on its own context and scheduler), `checkBasesRing` runs the bases'
 * upload through a staging ring of small slots (a browser uploads by writeBuffer; Node, as the
 * bench on the H100, through the ring); the others go through a Prover.
 * @module
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { StagingRing } from '../../src/gpu/staging.js';
import { Scheduler } from '../../src/sched/scheduler.js';
import { oneShotMsm } from '../../src/api/msm.js';
import { pointWords } from '../../src/api/msm-encode.js';
import { BasesUpload } from '../../src/kernels/msm/bases.js';
import { isProverError } from '../../src/errors.js';
import { FQ_P, FR_R, toLimbs, toMont } from '../../src/params/bn254.js';
import { SplitMix64 } from './splitmix.js';
import { G, packPoints, packScalars, seededPoints, seededScalar, type MsmCheckRow } from './msm-check.js';

/** The error's code and message, or 'no error'. */
async function failure(f: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await f();
    return { code: 'no error', message: '' };
  } catch (e) {
    return isProverError(e) ? { code: e.code, message: e.message } : { code: 'not a ProverError', message: String(e) };
  }
}

/** Packed points with point i's y + 1 (off the curve). */
function offCurveAt(packed: Uint8Array, i: number): Uint8Array {
  const out = packed.slice();
  out[64 * i + 63] ^= 1;
  return out;
}

/** Packed points with point i's x = p (a coordinate >= p). */
function bigAt(packed: Uint8Array, i: number): Uint8Array {
  const out = packed.slice();
  out.set(packScalars([FQ_P], 'be'), 64 * i);
  return out;
}

/**
 * A one-shot job of `n` points cut into 3 parts: right against noble; a point off the curve, then
 * one with x = p, in the last part (NOT_ON_CURVE / NON_CANONICAL naming it, no result); no pool
 * bytes left held by the failed jobs; right again after them.
 */
export async function checkOneShotParts(ctx: GpuContext, n = 300, seed = 0x0e5): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const env = { ctx, sched: new Scheduler(ctx), alive: () => {} };
  const pts = seededPoints(rng, n);
  const ks = pts.map(() => seededScalar(rng));
  const want = pippenger(G, pts, ks);
  const packed = packPoints(pts);
  const parts = { parts: 3 };
  const rows: MsmCheckRow[] = [];
  let t0 = performance.now();
  const first = await oneShotMsm(env, packed, ks, undefined, parts);
  rows.push({
    step: 'msm one-shot in 3 parts',
    ok: first.equals(want),
    n,
    ms: performance.now() - t0,
    detail: first.equals(want) ? 'equals noble' : 'differs from noble',
  });
  t0 = performance.now();
  const held = ctx.pool.stats().bytesInUse;
  const last = n - 2;
  const off = await failure(() => oneShotMsm(env, offCurveAt(packed, last), ks, undefined, parts));
  const big = await failure(() => oneShotMsm(env, bigAt(packed, n - 1), ks, undefined, parts));
  const leaked = ctx.pool.stats().bytesInUse - held;
  const again = await oneShotMsm(env, packed, ks, undefined, parts);
  const ok =
    off.code === 'NOT_ON_CURVE' &&
    off.message.includes(`point ${last} `) &&
    big.code === 'NON_CANONICAL' &&
    big.message.includes(`point ${n - 1}:`) &&
    leaked === 0 &&
    again.equals(want);
  rows.push({
    step: 'msm one-shot in 3 parts, bad point in the last part',
    ok,
    n,
    ms: performance.now() - t0,
    detail: `${off.code} (${off.message}); ${big.code} (${big.message}); pool bytes left held ${leaked}; next job ${again.equals(want) ? 'equals' : 'differs from'} noble`,
  });
  return rows;
}

/**
 * Through the prover: a one-shot msm() whose last point is off the curve fails with NOT_ON_CURVE
 * naming it and the next one-shot is right; a batch of 4 whose third vector has a scalar >= r
 * fails with NON_CANONICAL naming scalars[2][i] and the same handle's next batch is right.
 */
export async function checkPipelinedErrors(prover: Prover, n = 40, seed = 0x3b4): Promise<MsmCheckRow[]> {
  const rng = new SplitMix64(seed);
  const pts = seededPoints(rng, n);
  const vectors = Array.from({ length: 4 }, () => pts.map(() => seededScalar(rng)));
  const want = vectors.map((ks) => pippenger(G, pts, ks));
  const packed = packPoints(pts);
  const rows: MsmCheckRow[] = [];
  let t0 = performance.now();
  const off = await failure(() => prover.msm(offCurveAt(packed, n - 1), vectors[0]));
  const next = await prover.msm(packed, vectors[0]);
  rows.push({
    step: 'msm one-shot, last point off the curve',
    ok: off.code === 'NOT_ON_CURVE' && off.message.includes(`point ${n - 1} `) && next.equals(want[0]),
    n,
    ms: performance.now() - t0,
    detail: `${off.code} (${off.message}); next one-shot ${next.equals(want[0]) ? 'equals' : 'differs from'} noble`,
  });
  t0 = performance.now();
  const h = await prover.msmBases(packed);
  try {
    const i = 17;
    const bad = vectors.map((ks, v) => (v === 2 ? ks.map((k, j) => (j === i ? FR_R + k : k)) : ks));
    // as packed bytes: a bigint >= r is refused on the host, bytes are range-checked on the GPU
    const got = await failure(() => h.msmBatch(bad.map((ks) => packScalars(ks))));
    const after = await h.msmBatch(vectors.map((ks) => packScalars(ks)));
    const right = after.length === 4 && after.every((p, v) => p.equals(want[v]));
    rows.push({
      step: 'msm batch of 4, third vector with a scalar >= r',
      ok: got.code === 'NON_CANONICAL' && got.message.includes(`scalars[2][${i}]`) && right,
      n,
      ms: performance.now() - t0,
      detail: `${got.code} (${got.message}); next batch ${right ? 'equals' : 'differs from'} noble`,
    });
  } finally {
    h.destroy();
  }
  return rows;
}

/** 64 KiB ring slots: 1024 points each, so a few thousand points cross many slot boundaries. */
const SMALL_SLOT_BYTES = 1 << 16;

/**
 * BasesUpload through the staging ring, in two pieces that start and end mid-slot (points
 * [0, 7000) then up to n): the converted buffer equals the host's Montgomery form of every point
 * (identity points stay zero), and, on a second upload, a point off the curve and one with x = p in
 * the last slots are the checks' smallest indices. `n` must pass the ring's 1 MiB threshold.
 */
export async function checkBasesRing(base: GpuContext, n = 20000, seed = 0xba5): Promise<MsmCheckRow> {
  const t0 = performance.now();
  const ring = new StagingRing(base.device, (enc, stage) => base.submit(enc, stage), SMALL_SLOT_BYTES);
  const ctx = Object.create(base, { staging: { value: ring }, ringUploads: { value: true } }) as GpuContext;
  const rng = new SplitMix64(seed);
  const distinct = [...seededPoints(rng, 60), G.ZERO];
  const pts = Array.from({ length: n }, (_, i) => distinct[(i * 7) % distinct.length]);
  const packed = packPoints(pts);
  const problems: string[] = [];
  try {
    const { words, encoding } = pointWords(packed);
    const u = await BasesUpload.open(ctx, words, n, encoding);
    try {
      await u.upTo(7000);
      await u.upTo(n);
      const got = await ctx.readback(u.buf, 16 * n);
      const want = distinct.map((p) => (p.is0() ? Array(16).fill(0) : [p.toAffine().x, p.toAffine().y].flatMap((v) => toLimbs(toMont(v)))));
      let wrong = 0;
      for (let i = 0; i < n; i++) {
        const w = want[(i * 7) % distinct.length];
        if (w.some((x, k) => got[16 * i + k] !== x) && wrong++ === 0) problems.push(`point ${i} converted wrong`);
      }
      if (wrong) problems.push(`${wrong} points wrong`);
      const c = await u.check();
      if (c.bad !== -1 || c.big !== -1) problems.push(`good points flagged ${JSON.stringify(c)}`);
    } finally {
      u.release();
    }
    const off = n - 500,
      big = n - 3;
    const bad = bigAt(offCurveAt(packed, off), big);
    const { words: bw } = pointWords(bad);
    const v = await BasesUpload.open(ctx, bw, n, encoding);
    try {
      await v.upTo(7000);
      await v.upTo(n);
      const c = await v.check();
      if (c.bad !== off || c.big !== big) problems.push(`flags ${JSON.stringify(c)}, want bad ${off}, big ${big}`);
    } finally {
      v.release();
    }
  } finally {
    ring.destroy();
  }
  return {
    step: 'msm bases through the staging ring, in pieces',
    ok: problems.length === 0,
    n,
    ms: performance.now() - t0,
    detail: problems.length
      ? problems.slice(0, 3).join('; ')
      : `${n} points converted as the host does; bad points at ${n - 500} and ${n - 3} flagged`,
  };
}
