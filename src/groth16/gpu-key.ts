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
import { nextTask } from '../gpu/next-task.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';
import { QapStage } from '../kernels/qap/stage.js';
import { G2Bases } from '../kernels/g2msm/bases.js';
import { readZkey, type Groth16Zkey, type PointSection } from './zkey.js';
import { assembleProof, blinder } from './assemble.js';
import { EarlyCheck, checkStartedEarly } from './early-check.js';
import { registerVerifyingKey } from './proof-check.js';
import { alphaBetaLoop } from './verify.js';
import { addOffsetsModR, offsetScalars, randomOffsets } from '../field/fr-words.js';
import type { WitnessWords } from './wtns.js';
import { proofToJson, publicSignals, verificationKey, type Groth16Proof, type SnarkjsVerificationKey } from './proof-json.js';
import { keyStats, requireWitness, type FileBytes, type Groth16Key, type Groth16Witness } from './key.js';

const G1 = bn254.G1.Point;
type G1Point = InstanceType<typeof G1>;

/*
 * OFFSETS. A circom witness is mostly bits and small values: as MSM scalars they pile into a few
 * buckets of the low windows (H200, 2^20 signals, 60% bits: 1.26 s an MSM against 29 ms for random
 * scalars), and the G1 MSM adds a bucket's pieces across workgroups slowly. So the A, B1 and C MSMs
 * take s_i = w_i + t_i with a fixed random 64-bit t_i per signal, made with the key, and subtract
 * T = Σ t_i·P_i (made once): Σ w_i·P_i = Σ s_i·P_i − T exactly (mod r). The low windows' digits are
 * then spread evenly and the high windows of small values stay zero (no entries).
 */

/**
 * Benchmarks' view of where the time goes: with `enabled`, prove() runs its stages one after
 * another (no overlap) and leaves each one's wall time (ms) in `last`; the last key opened leaves
 * its steps' wall times in `open` (always: a few clock reads per key).
 */
export const stageTimes: { enabled: boolean; last?: Record<string, number>; open?: Record<string, number> } = { enabled: false };

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

/**
 * `p`, marked handled: a stage that fails while prove() awaits an earlier one is not an unhandled
 * rejection (Node ends the process on one); prove() still awaits it and throws its error.
 */
function awaitedLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** How long a new key holds the background compiles back for its first proof (see openGpuKey). */
const FIRST_PROOF_HOLD_MS = 2000;

/** A promise that settles on release() or after `ms`, whichever comes first; its timer keeps no process alive. */
function releasedOrAfter(ms: number): { done: Promise<void>; release: () => void } {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  const timer: unknown = setTimeout(() => release(), ms);
  (timer as { unref?: () => void }).unref?.();
  return { done, release };
}

/** Signals a slice of addOffsetsModR's work at a time. */
const OFFSET_SLICE = 1 << 16;

/**
 * s = w + t mod r (fr-words.ts), a slice at a time with the event loop run between slices: the jobs
 * queued ahead need it to upload their input (staging ring mappings) and to submit.
 */
async function addOffsetsInSlices(w: Uint32Array, t: Uint32Array): Promise<Uint32Array> {
  const out = new Uint32Array(w.length);
  const n = w.length >> 3;
  for (let at = 0; at < n; at += OFFSET_SLICE) {
    const end = Math.min(n, at + OFFSET_SLICE);
    addOffsetsModR(w.subarray(8 * at, 8 * end), t.subarray(2 * at, 2 * end), out.subarray(8 * at, 8 * end));
    if (end < n) await nextTask();
  }
  return out;
}

/** prover.groth16(zkey) on the GPU path. */
export async function openGpuKey(env: ApiEnv, zkeyBytes: FileBytes, jobIn?: JobOptions): Promise<Groth16Key> {
  env.alive();
  const job = requireJobOptions('groth16 job options', jobIn);
  const open: Record<string, number> = {};
  let since = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    open[name] = now - since;
    since = now;
  };
  const zkey = readZkey(zkeyBytes);
  step('read');
  const held: { destroy(): void }[] = [];
  const keep = <T extends { destroy(): void } | undefined>(x: T): T => (x && held.push(x), x);
  const bases = {} as Record<G1Section, MsmBases | undefined>;
  const msm = (s: G1Section, scalars: Uint32Array, job: JobOptions) =>
    bases[s] ? bases[s].msm(scalars, { signal: job.signal, onProgress: job.onProgress }) : Promise.resolve(G1.ZERO);
  const privates = (v: Uint32Array) => v.subarray(8 * (zkey.nPublic + 1));
  const offsets = randomOffsets(zkey.nVars);
  let b2: G2Bases, qap: QapStage, shift: Record<'a' | 'b1' | 'c', G1Point>;
  try {
    for (const s of G1_SECTIONS) bases[s] = keep(await g1Bases(env, zkey[s], s, job));
    step('g1Bases');
    b2 = keep(await g2Bases(env, zkey, job));
    step('g2Bases');
    qap = keep(await env.sched.run('groth16 key', job, () => QapStage.upload(env.ctx, zkey.coefficients, zkey.domainSize, zkey.nVars)));
    step('qap');
    // Σ t_i·P_i of A, B1 and C for the key's offsets (see OFFSETS): three MSMs of 64-bit scalars, once.
    const t = offsetScalars(offsets);
    const sums = awaitedLater(Promise.all([msm('a', t, job), msm('b1', t, job), msm('c', privates(t), job)]));
    // The check's (α1, β2) Miller loop, made while those run (on a fresh device: while their
    // pipelines compile) rather than in the first proof's check.
    await nextTask();
    alphaBetaLoop(zkey);
    const [a, b1, c] = await sums;
    shift = { a, b1, c };
    step('offsets');
    stageTimes.open = open;
  } catch (e) {
    for (const h of held) h.destroy();
    throw e;
  }
  // The pipelines requested behind the quick ones (the fast G2 and QAP kernels, the G1 walker)
  // compile once this key's first proof is out, so creating their modules and compiling them
  // does not share the thread and the driver's compile threads with that proof (with the builds
  // handed over one per macrotask: PipelineCache). Without a proof for FIRST_PROOF_HOLD_MS they
  // go ahead.
  const firstProof = releasedOrAfter(FIRST_PROOF_HOLD_MS);
  env.ctx.pipelines.holdBackground(firstProof.done);
  const gpuBytes = G1_SECTIONS.reduce((sum, s) => sum + 64 * zkey[s].count, 0) + 128 * zkey.b2.count + qap.memory.total;
  // snarkjs's verification key holds e(α1, β2): a pairing (H200 host: ~100 ms when the process's
  // first), made when first asked for. The check reads the zkey's points (registerVerifyingKey).
  let vk: SnarkjsVerificationKey | undefined;
  let destroyed = false;
  /** The proof's stages for witness w: h and B2 over w itself, A, B1 and C over s = w + offsets (OFFSETS). */
  const stagesOf = (w: WitnessWords, job: JobOptions) => {
    const shifted = (k: 'a' | 'b1' | 'c', v: Uint32Array) => msm(k, v, job).then((p) => p.subtract(shift[k]));
    return {
      h: () => env.sched.run('groth16 h', job, () => qap.h(w.words)),
      b2: () => env.sched.run('groth16 b2', job, () => b2.msm(w.words)),
      offsets: () => addOffsetsInSlices(w.words, offsets),
      a: (s: Uint32Array) => shifted('a', s),
      b1: (s: Uint32Array) => shifted('b1', s),
      c: (s: Uint32Array) => shifted('c', privates(s)),
      hMsm: (h: Uint32Array) => msm('h', h, job),
    };
  };
  const output = (signals: string[], proof: Groth16Proof) => ({ proof: proofToJson(proof), publicSignals: signals });
  /** prove() one stage at a time, each timed (stageTimes). */
  const staged = async (witness: Groth16Witness, job: JobOptions) => {
    const t: Record<string, number> = {};
    const time = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
      const t0 = performance.now();
      const out = await f();
      t[name] = performance.now() - t0;
      return out;
    };
    const w = await time('witness', () => requireWitness(witness, zkey));
    const st = stagesOf(w, job);
    const s = await time('offsets', st.offsets);
    const h = await time('h', st.h);
    const sums = {
      b2: await time('b2', st.b2),
      a: await time('a', () => st.a(s)),
      b1: await time('b1', () => st.b1(s)),
      c: await time('c', () => st.c(s)),
      h: await time('hMsm', () => st.hMsm(h)),
    };
    const out = await time('assemble', () => output(publicSignals(w, zkey.nPublic), assembleProof(zkey, sums)));
    stageTimes.last = t;
    return out;
  };
  const key: Groth16Key = {
    async prove(witness, proveJob) {
      env.alive();
      if (destroyed) throw new ProverError('DESTROYED', 'this Groth16 key was destroyed; call prover.groth16(zkey) again');
      const job = requireJobOptions('prove job options', proveJob);
      try {
        if (stageTimes.enabled) return await staged(witness, job);
        const w = requireWitness(witness, zkey);
        const signals = publicSignals(w, zkey.nPublic);
        // The family checks this proof unless its job says 'off' (families.ts passes the mode on).
        const early = job.check === 'off' ? undefined : new EarlyCheck(zkey, signals.map(BigInt));
        const st = stagesOf(w, job);
        // Each job is queued as soon as its input exists: its host work overlaps the GPU work of the
        // ones ahead. Once their pipelines are compiled, h and B2 go first and the offsets are
        // added while they upload and run (2^20 signals: 30-60 ms); on a fresh device they go
        // after the A, B1 and C MSMs, which run while they compile, B2 (the longer run, its
        // pipeline requested first: first-call.ts) ahead of h.
        const [hReady, b2Ready] = [qap.ready(), b2.ready()];
        const hEarly = hReady ? awaitedLater(st.h()) : undefined;
        const b2Early = b2Ready ? awaitedLater(st.b2()) : undefined;
        const s = await st.offsets();
        const [a, b1, c] = [awaitedLater(st.a(s)), awaitedLater(st.b1(s)), awaitedLater(st.c(s))];
        const b2Sum = b2Early ?? awaitedLater(st.b2());
        const h = hEarly ?? awaitedLater(st.h());
        // The blinding as the sums come in: πA and πB once the A and B2 MSMs are (and a checked
        // proof's pairing with them starts on the check thread), most of πC once B1 and C are,
        // while the H MSM, a proof's last, runs.
        const blind = blinder(zkey);
        const ab = awaitedLater(
          Promise.all([a, b2Sum]).then(([aSum, b2]) => {
            const points = { a: blind.a(aSum), b: blind.b(b2) };
            early?.proofPoints(points.a, points.b);
            return points;
          }),
        );
        const hSum = awaitedLater(st.hMsm(await h));
        const cWithoutH = blind.cWithoutH({ a: await a, b1: await b1, c: await c });
        const { a: piA, b: piB } = await ab;
        const out = output(signals, { a: piA, b: piB, c: cWithoutH.add(await hSum) });
        if (early) checkStartedEarly(out, early);
        return out;
      } finally {
        firstProof.release();
      }
    },
    verificationKey: () => structuredClone((vk ??= verificationKey(zkey))),
    stats: () => keyStats(zkey, gpuBytes),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      firstProof.release();
      for (const h of held) h.destroy();
    },
  };
  registerVerifyingKey(key, zkey);
  return key;
}
