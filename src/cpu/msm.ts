/**
 * The CPU path of msm and msmBases: @noble/curves' pippenger over chunks of points (a boundary
 * after each), inputs checked as the GPU path checks them: the same encoders for types, lengths
 * and ranges, then every point on the curve (the GPU path checks that during its upload).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { ProverError } from '../errors.js';
import { fromBeBytes32, fromLimbs } from '../params/bn254.js';
import { encodePoints, encodeScalars, pointCount, type G1Point, type MsmPoints, type MsmScalars } from '../api/msm-encode.js';
import type { MsmBases, MsmMethods } from '../api/msm.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { isTypedArray } from '../validate.js';
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

/** Checked scalars as bigints. */
export function cpuScalars(scalars: MsmScalars, n: number): readonly bigint[] {
  encodeScalars(scalars, n); // types, length, range: the GPU path's checks and codes
  if (!isTypedArray(scalars, 'Uint8Array')) return scalars;
  return Array.from({ length: n }, (_, i) => fromBeBytes32(scalars, 32 * i));
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
    let live = true;
    const run = async (scalars: MsmScalars, job: unknown) => {
      alive();
      const jobOpts = requireJobOptions('msm job options', job);
      if (!live) throw new ProverError('DESTROYED', 'this msmBases handle was destroyed; call prover.msmBases(points) again');
      const ks = cpuScalars(scalars, points.length);
      return sched.run('msm', jobOpts, (control) => cpuMsm(points, ks, cpuSteps(control)));
    };
    return {
      n: points.length,
      msm: (scalars, job) => run(scalars, job),
      // The CPU path has no plan or GPU passes to report.
      msmProfiled: async (scalars, _tuning, job) => ({ point: await run(scalars, job), plans: [], profiles: [], poolBytes: 0 }),
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
    async msm(points, scalars, job) {
      alive();
      const jobOpts = requireJobOptions('msm job options', job);
      const ks = cpuScalars(scalars, pointCount(points));
      const pts = cpuPoints(points);
      return sched.run('msm', jobOpts, (control) => cpuMsm(pts, ks, cpuSteps(control)));
    },
  };
}
