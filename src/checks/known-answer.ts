/**
 * The self-check's known-answer jobs: one small job per family, run once on the GPU path and
 * once on the CPU path before the family's first job; a family whose answers differ runs on the
 * CPU from then on (drivers do miscompile: a GPU can be fast and wrong). Inputs are fixed
 * (SplitMix-like, not tuned to anything) and each answer is reduced to a string to compare.
 * @module
 */
import { DuplexChallenger } from '../ref/challenger.js';
import { BB_P } from '../params/babybear.js';
import type { Family } from '../methods.js';
import type { Jobs } from '../prover.js';
import { loadPart } from '../lazy.js';
import { knownMultiples, msmOfKnownLogs } from '../field/known-logs.js';
import { KNOWN_MSM_POINTS, knownCommitJob, knownNttJobs, knownPoseidon2Jobs, type FirstShape, type KnownNttJob } from './known-jobs.js';

/** n canonical values from a fixed 32-bit xorshift stream. */
function values(n: number, seed: number): Uint32Array {
  let x = seed >>> 0 || 1;
  return Uint32Array.from({ length: n }, () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % BB_P;
  });
}

const digest = (...parts: ArrayLike<number>[]) => parts.map((p) => Array.from(p).join(',')).join('|');
const off = { check: 'off' } as const;

/**
 * Each family's known-answer job on a path, as a string to compare between paths. `call`: the
 * family's first call as far as its jobs take it (the ntt, commit and poseidon2 families':
 * known-jobs.ts). `reference`: the answer the GPU's is compared with (the CPU path's run; the
 * msm family's comes from its points' discrete logs instead, ~1 ms against ~40 ms of pippenger).
 */
export const KNOWN_ANSWER: Record<Family, (p: Jobs, call?: FirstShape, reference?: boolean) => Promise<string>> = {
  field: async (p) =>
    digest(await p.batchField('mul', values(64, 1), values(64, 2), off), await p.batchField('ext4Inv', values(16, 3), undefined, off)),
  ntt: async (p, call) => {
    const out: Uint32Array[] = [];
    for (const [k, job] of knownNttJobs(call?.ntt).entries()) {
      // The four ops take (values, options) alike; the options fit the op (knownNttJobs).
      const run = (p[job.op] as (v: Uint32Array, o: KnownNttJob['options'] & typeof off) => Promise<Uint32Array>).bind(p);
      out.push(await run(values(job.height * job.options.width, 4 + k), { ...job.options, ...off }));
    }
    return digest(...out);
  },
  poseidon2: async (p, call) => {
    const out: Uint32Array[] = [];
    for (const { width, field } of knownPoseidon2Jobs(call?.poseidon2)) {
      // Two width-16 states, or one width-24 state.
      out.push(await p.poseidon2(width === 16 ? values(32, 6) : values(24, 7), { width, field, ...off }));
    }
    return digest(...out);
  },
  merkle: async (p) => {
    const { root, tree } = await p.merkleCommit(values(16 * 8, 8), { width: 8, ...off });
    try {
      const o = await tree.open(5, off);
      return digest(root, o.row, ...o.siblings);
    } finally {
      tree.dispose();
    }
  },
  grind: async (p) => {
    const ch = new DuplexChallenger();
    ch.observeSlice(values(5, 9));
    const w = await p.grind(ch, 6, off);
    return `${w}|${ch.sample()}`;
  },
  commit: async (p, call) => {
    const { height, width, addedBits } = knownCommitJob(call?.ntt);
    const { root, tree } = await p.commit(values(height * width, 10), { width, addedBits, ...off });
    tree.dispose();
    return digest(root);
  },
  msm: async (p, _call, reference) => {
    // noble loads with the MSM (the CPU path's pippenger uses it too), not with every family's self-check.
    const G1 = (await loadPart("noble's BN254", () => import('@noble/curves/bn254.js'))).bn254.G1.Point;
    // Points (3 + 7i)·G made by additions, so the reference answer is one multiplication (field/known-logs.ts).
    const { points, logs } = knownMultiples(G1, 3n, 7n, KNOWN_MSM_POINTS);
    const scalars = Array.from(values(KNOWN_MSM_POINTS, 11), (v, i) => (BigInt(v) << 200n) + BigInt(v * (i + 1)));
    return (reference ? msmOfKnownLogs(G1, logs, scalars) : await p.msm(points, scalars, off)).toHex();
  },
  groth16: async (p, _call, reference) => {
    // Proofs are blinded afresh each time, so the answer is the verdict: a GPU proof of the known
    // circuit must verify (sound: a wrong kernel cannot make one that does). The reference is that verdict.
    if (reference) return 'verifies';
    const { zkey, wtns } = await knownGroth16();
    const key = await p.groth16(zkey, off);
    try {
      const out = await key.prove(wtns, off);
      const { verifyingKeyOf, outputVerifies } = await loadPart("webgpu-prover's Groth16 check", () => import('../groth16/proof-check.js'));
      return outputVerifies(verifyingKeyOf(key), out) ? 'verifies' : 'does not verify';
    } finally {
      key.destroy();
    }
  },
};

/** The self-check circuit's zkey and witness (known-groth16.gen.ts), decoded once. */
export async function knownGroth16(): Promise<{ zkey: Uint8Array; wtns: Uint8Array }> {
  const { KNOWN_ZKEY_BASE64, KNOWN_WTNS_BASE64 } = await loadPart(
    "webgpu-prover's Groth16 self-check",
    () => import('./known-groth16.gen.js'),
  );
  const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return { zkey: bytes(KNOWN_ZKEY_BASE64), wtns: bytes(KNOWN_WTNS_BASE64) };
}
