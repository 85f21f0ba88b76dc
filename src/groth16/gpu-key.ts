/**
 * The Groth16 key on the GPU: the zkey read once (zkey.ts), its G1 point sections uploaded as MSM
 * bases in the words the zkey stores ('le-mont': converted and curve-checked on the GPU, no host
 * arithmetic), its B2 points as G2 bases, its coefficients as the QAP stage. A proof is then
 *   h        the QAP stage: A, B, C on the domain, to the coset and back, A·B − C (one submission)
 *   A, B1, C, H   four G1 MSMs over the resident bases (the witness's words as scalars, h for H)
 *   B2       the G2 MSM
 * each a job on the device's queue (host work of one overlaps the GPU work of the one ahead), then
 * the blinding and snarkjs's JSON on the host (assemble.ts, proof-json.ts).
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError, isProverError } from '../errors.js';
import type { ApiEnv } from '../api/env.js';
import { openMsmBases, type MsmBases } from '../api/msm.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { QapStage } from '../kernels/qap/stage.js';
import { G2Bases } from '../kernels/g2msm/bases.js';
import { readZkey, type Groth16Zkey, type PointSection } from './zkey.js';
import { assembleProof } from './assemble.js';
import { proofToJson, publicSignals, verificationKey } from './proof-json.js';
import { keyStats, requireWitness, type FileBytes, type Groth16Key } from './key.js';

const G1 = bn254.G1.Point;

/** The zkey's G1 sections by name: the MSM bases a proof runs over. */
const G1_SECTIONS = ['a', 'b1', 'c', 'h'] as const;
type G1Section = (typeof G1_SECTIONS)[number];

const SECTION_TITLES: Record<G1Section | 'b2', string> = { a: 'A', b1: 'B1', b2: 'B2', c: 'C', h: 'H' };

/** A bad point's error, its section named (the MSM's own message says "point i"). */
function inSection(e: unknown, section: G1Section | 'b2'): unknown {
  if (!isProverError(e) || (e.code !== 'NON_CANONICAL' && e.code !== 'NOT_ON_CURVE')) return e;
  return new ProverError(e.code, `zkey ${SECTION_TITLES[section]} points: ${e.message}`, { cause: e });
}

/** One G1 section's bases (none for an empty section: a circuit whose signals are all public has no C points). */
async function g1Bases(env: ApiEnv, s: PointSection, section: G1Section, job: JobOptions): Promise<MsmBases | undefined> {
  if (s.count === 0) return undefined;
  try {
    return await openMsmBases(env, { words: s.words, n: s.count, encoding: 'le-mont' }, job);
  } catch (e) {
    throw inSection(e, section);
  }
}

async function g2Bases(env: ApiEnv, zkey: Groth16Zkey, job: JobOptions): Promise<G2Bases> {
  const b2 = await env.sched.run('groth16 key', job, () => G2Bases.upload(env.ctx, zkey.b2.words, zkey.b2.count));
  const { big, bad } = b2.check;
  if (big < 0 && bad < 0) return b2;
  b2.destroy();
  throw big >= 0
    ? new ProverError('NON_CANONICAL', `zkey B2 points: point ${big} has a coordinate >= p; the file is corrupt, export it again`)
    : new ProverError('NOT_ON_CURVE', `zkey B2 points: point ${bad} is not on BN254's G2 twist; the file is corrupt, export it again`);
}

/** prover.groth16(zkey) on the GPU path. */
export async function openGpuKey(env: ApiEnv, zkeyBytes: FileBytes, jobIn?: JobOptions): Promise<Groth16Key> {
  env.alive();
  const job = requireJobOptions('groth16 job options', jobIn);
  const zkey = readZkey(zkeyBytes);
  const held: { destroy(): void }[] = [];
  const keep = <T extends { destroy(): void } | undefined>(x: T): T => (x && held.push(x), x);
  const bases = {} as Record<G1Section, MsmBases | undefined>;
  let b2: G2Bases, qap: QapStage;
  try {
    for (const s of G1_SECTIONS) bases[s] = keep(await g1Bases(env, zkey[s], s, job));
    b2 = keep(await g2Bases(env, zkey, job));
    qap = keep(await env.sched.run('groth16 key', job, () => QapStage.upload(env.ctx, zkey.coefficients, zkey.domainSize, zkey.nVars)));
  } catch (e) {
    for (const h of held) h.destroy();
    throw e;
  }
  const gpuBytes = G1_SECTIONS.reduce((sum, s) => sum + 64 * zkey[s].count, 0) + 128 * zkey.b2.count + qap.memory.total;
  const vk = verificationKey(zkey);
  let destroyed = false;
  const msm = (s: G1Section, scalars: Uint32Array, job: JobOptions) =>
    bases[s] ? bases[s].msm(scalars, { signal: job.signal, onProgress: job.onProgress }) : Promise.resolve(G1.ZERO);
  return {
    async prove(witness, proveJob) {
      env.alive();
      if (destroyed) throw new ProverError('DESTROYED', 'this Groth16 key was destroyed; call prover.groth16(zkey) again');
      const job = requireJobOptions('prove job options', proveJob);
      const w = requireWitness(witness, zkey);
      // Every job is queued now: each one's host work overlaps the GPU work of the one ahead.
      const h = env.sched.run('groth16 h', job, () => qap.h(w.words));
      const b2Sum = env.sched.run('groth16 b2', job, () => b2.msm(w.words));
      const [a, b1, c] = [msm('a', w.words, job), msm('b1', w.words, job), msm('c', w.words.subarray(8 * (zkey.nPublic + 1)), job)];
      const hSum = msm('h', await h, job);
      const sums = { a: await a, b1: await b1, b2: await b2Sum, c: await c, h: await hSum };
      return { proof: proofToJson(assembleProof(zkey, sums)), publicSignals: publicSignals(w, zkey.nPublic) };
    },
    verificationKey: () => structuredClone(vk),
    stats: () => keyStats(zkey, gpuBytes),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const h of held) h.destroy();
    },
  };
}
