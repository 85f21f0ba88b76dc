/**
 * The CPU path of msm and msmBases: @noble/curves' pippenger over chunks of points (a boundary
 * after each), inputs checked as the GPU path checks them: the same encoders for types, lengths
 * and ranges, then every point on the curve (the GPU path checks that during its upload).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { ProverError } from '../errors.js';
import { fromLimbs } from '../params/bn254.js';
import {
  encodePoints,
  firstScalarAtLeastR,
  pointCount,
  requireBatch,
  requireMsmOptions,
  requireOneShotOptions,
  requireSlice,
  scalarAt,
  scalarCount,
  scalarWords,
  type G1Point,
  type MsmPoints,
  type MsmScalars,
  type ScalarEndian,
} from '../api/msm-encode.js';
import type { MsmBases, MsmMethods } from '../api/msm.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { cpuSteps } from './queue.js';
import type { CpuEnv } from './env.js';

const G1 = bn254.G1.Point;

/** Points per pippenger call: a boundary every few tens of ms. */
const CHUNK = 1 << 12;

/** Checked points as noble points (NOT_ON_CURVE for one off the curve). */
export function cpuPoints(points: MsmPoints): G1Point[] {
  const { words, n, identity } = encodePoints(points);
  const zero = new Set(identity);
  const out = new Array<G1Point>(n);
  for (let i = 0; i < n; i++) {
    if (zero.has(i)) {
      out[i] = G1.ZERO;
      continue;
    }
    const p = G1.fromAffine({ x: fromLimbs(words, 16 * i), y: fromLimbs(words, 16 * i + 8) });
    try {
      p.assertValidity();
    } catch {
      throw new ProverError('NOT_ON_CURVE', `point ${i} is not on BN254 G1 (y^2 != x^3 + 3)`);
    }
    out[i] = p;
  }
  return out;
}

/** Checked scalars as bigints: the GPU path's encoder for types and lengths, the range checked here. */
export function cpuScalars(scalars: MsmScalars, n: number, endian: ScalarEndian = 'le'): readonly bigint[] {
  const { words, be } = scalarWords(scalars, n, endian); // bigints are range-checked in there
  if (Array.isArray(scalars)) return scalars as readonly bigint[];
  const bad = firstScalarAtLeastR(words, be, n);
  if (bad >= 0) throw new ProverError('NON_CANONICAL', `scalar ${bad} is >= r; reduce it mod r`);
  return Array.from({ length: n }, (_, i) => scalarAt(words, be, i));
}

/** sum_i scalars[i]·points[i], pippenger chunk by chunk. */
async function cpuMsm(points: readonly G1Point[], scalars: readonly bigint[], step: (stage: string) => Promise<void>): Promise<G1Point> {
  let acc = G1.ZERO;
  for (let i = 0; i < points.length; i += CHUNK) {
    acc = acc.add(pippenger(G1, points.slice(i, i + CHUNK), scalars.slice(i, i + CHUNK)));
    await step('msm');
  }
  return acc;
}

export function cpuMsmMethods({ sched, alive }: CpuEnv): MsmMethods {
  const bases = (points: readonly G1Point[]): MsmBases => {
    const n = points.length;
    let live = true;
    /** Checked vectors of one length over points [offset, offset + m), as one job. */
    const run = async (list: readonly MsmScalars[], opts: unknown, batch: boolean): Promise<G1Point[]> => {
      alive();
      const call = requireMsmOptions(opts, n);
      if (!live) throw new ProverError('DESTROYED', 'this msmBases handle was destroyed; call prover.msmBases(points) again');
      const ks = list.map((s, i) => {
        try {
          const m = scalarCount(s);
          requireSlice(m, call.offset, n);
          return cpuScalars(s, m, call.endian);
        } catch (e) {
          if (batch && e instanceof ProverError) throw new ProverError(e.code, `scalars[${i}]: ${e.message}`);
          throw e;
        }
      });
      const other = ks.findIndex((k) => k.length !== ks[0].length);
      if (other >= 0)
        throw new ProverError(
          'INVALID_LENGTH',
          `scalars[${other}] has ${ks[other].length} scalars, scalars[0] ${ks[0].length}; msmBatch takes vectors of one length`,
        );
      const pts = points.slice(call.offset, call.offset + ks[0].length);
      return sched.run('msm', call.job, async (control) => {
        const out: G1Point[] = [];
        for (const k of ks) out.push(await cpuMsm(pts, k, cpuSteps(control)));
        return out;
      });
    };
    return {
      n,
      msm: async (scalars, opts) => (await run([scalars], opts, false))[0],
      msmBatch: (list, opts) => run(requireBatch(list), opts, true),
      // The CPU path has no plan or GPU passes to report.
      msmProfiled: async (scalars, _tuning, opts) => ({
        point: (await run([scalars], opts, false))[0],
        plans: [],
        profiles: [],
        engines: [],
        poolBytes: 0,
        hostMs: 0,
      }),
      stats: () => ({ n, basesBytes: 0, precomputedBytes: 0, peakBytes: 0, runs: 0 }),
      destroy() {
        live = false;
      },
    };
  };
  return {
    async msmBases(points, job) {
      alive();
      const jobOpts: JobOptions = requireJobOptions('msmBases job options', job);
      const pts = await sched.run('msmBases', jobOpts, async () => cpuPoints(points));
      return bases(pts);
    },
    async msm(points, scalars, opts) {
      alive();
      const n = pointCount(points);
      const call = requireOneShotOptions(opts, n);
      const ks = cpuScalars(scalars, n, call.endian);
      const pts = cpuPoints(points);
      return sched.run('msm', call.job, (control) => cpuMsm(pts, ks, cpuSteps(control)));
    },
  };
}
