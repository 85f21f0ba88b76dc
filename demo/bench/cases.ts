/**
 * The bench cases, one per kernel family, on seeded inputs (SplitMix64): what each times, what
 * elements/s counts, how far the CPU path runs, and how a size past it is still checked.
 * cpuMaxLogn values keep one CPU-path run near a second on a laptop core. On SwiftShader the
 * "GPU" is the same CPU cores emulating one, so the CPU path usually wins there: the crossover is
 * a property of each device, which is why the page measures it where it runs.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { DuplexChallenger, verifyMerklePath, type MerkleTree, type Prover } from '../../src/index.js';
import { GpuContext } from '../../src/gpu/context.js';
import type { ProfileReport } from '../../src/gpu/profiler.js';
import { twoAdicGenerator } from '../../src/ref/ntt.js';
import { bbAdd, bbMul, bbPow } from '../../src/field/babybear.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import { seededPoints, seededScalar } from '../../bench/support/msm-check.js';
import { profileNttRun } from '../../bench/support/ntt-profile.js';
import type { BenchCase, Verdict } from './harness.js';

const OFF = { check: 'off' } as const;
const SAMPLES = 4;

function sameWords(a: Uint32Array, b: Uint32Array, what: string): Verdict {
  if (a.length !== b.length) return { ok: false, full: true, detail: `${what}: ${a.length} values, CPU path ${b.length}` };
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return { ok: false, full: true, detail: `${what}: value ${i} is ${a[i]}, CPU path ${b[i]}` };
  }
  return { ok: true, full: true, detail: `${a.length} values equal the CPU path (src/ref)` };
}

/** Rows to spot-check: the first, the last and a few from the seed. */
function sampleRows(height: number, seed: number): number[] {
  const rng = new SplitMix64(seed);
  return [0, height - 1, ...Array.from({ length: SAMPLES }, () => Number(rng.next() % BigInt(height)))];
}

/** Forward DFT of the columns of a 2^logn x width matrix (Plonky3 dft_batch). */
export function nttCase(logn: number, width: number): BenchCase<Uint32Array, Uint32Array> {
  const height = 2 ** logn;
  return {
    kernel: 'ntt dft',
    family: 'ntt',
    size: `2^${logn} x ${width}`,
    logn,
    elements: height * width,
    cpuMaxLogn: 16,
    nativeKey: { bench: 'dft', op: 'dft', log_n: logn, width },
    input: () => new SplitMix64(0x17).fieldArray(height * width),
    gpu: (p, x) => p.dft(x, { width, ...OFF }),
    cpu: (c, x) => c.dft(x, { width }),
    equal: (g, c) => sameWords(g, c, 'dft'),
    async sampled(out, x) {
      // Row i of column col is Σ_j x[j][col]·ω^(ij): direct evaluation, O(height) per value.
      const omega = twoAdicGenerator(logn);
      for (const i of sampleRows(height, 0x5a)) {
        const z = bbPow(omega, i);
        let zj = 1;
        const acc = new Array<number>(width).fill(0);
        for (let j = 0; j < height; j++) {
          for (let col = 0; col < width; col++) acc[col] = bbAdd(acc[col], bbMul(x[j * width + col], zj));
          zj = bbMul(zj, z);
        }
        for (let col = 0; col < width; col++) {
          if (out[i * width + col] !== acc[col])
            return { ok: false, full: false, detail: `row ${i} col ${col}: GPU ${out[i * width + col]}, direct evaluation ${acc[col]}` };
        }
      }
      return { ok: true, full: false, detail: `${SAMPLES + 2} rows equal direct evaluation (the CPU path is not run past this size)` };
    },
    profile: (_p, x) => profileNtt(x, height, width),
  };
}

/** One dft on a GpuContext of the page's own, one compute pass per NTT pass (timestamp-query where granted). */
async function profileNtt(x: Uint32Array, height: number, width: number): Promise<ProfileReport> {
  const ctx = await GpuContext.create(navigator.gpu);
  try {
    const input = ctx.upload(x, 'bench input');
    const once = () => profileNttRun(ctx, { op: 'dft', height, width }, input);
    await once(); // compiles this device's pipelines
    return await once();
  } finally {
    ctx.destroy();
  }
}

/** Width-16 Poseidon2 permutations of 2^logn states. */
export function poseidon2Case(logn: number): BenchCase<Uint32Array, Uint32Array> {
  const n = 2 ** logn;
  return {
    kernel: 'poseidon2 w16',
    family: 'poseidon2',
    size: `2^${logn} states`,
    logn,
    elements: n,
    cpuMaxLogn: 14,
    nativeKey: { bench: 'poseidon2', width: 16, count: n },
    input: () => new SplitMix64(0x29).fieldArray(16 * n),
    gpu: (p, x) => p.poseidon2(x, { width: 16, ...OFF }),
    cpu: (c, x) => c.poseidon2(x, { width: 16 }),
    equal: (g, c) => sameWords(g, c, 'poseidon2'),
    async sampled(out, x) {
      for (const i of sampleRows(n, 0x5b)) {
        const want = poseidon2(x.subarray(16 * i, 16 * i + 16));
        if (want.some((v, k) => v !== out[16 * i + k]))
          return { ok: false, full: false, detail: `state ${i} differs from src/ref poseidon2` };
      }
      return { ok: true, full: false, detail: `${SAMPLES + 2} states equal src/ref poseidon2` };
    },
  };
}

interface Committed {
  root: Uint32Array;
  tree: MerkleTree;
}

function sameRoot(g: Committed, c: Committed, reference: string): Verdict {
  const ok = g.root.length === c.root.length && g.root.every((v, i) => v === c.root[i]);
  return { ok, full: true, detail: `root ${ok ? 'equals' : 'differs from'} the CPU path (${reference})` };
}

/** Openings of sampled rows verify against the root, and the opened row is `rowOf(i)` where given. */
async function openingsVerify(t: Committed, height: number, width: number, rowOf?: (i: number) => ArrayLike<number>): Promise<Verdict> {
  for (const i of sampleRows(height, 0x5c)) {
    const o = await t.tree.open(i);
    if (!verifyMerklePath(t.root, i, o.row, o.siblings, { width, height }))
      return { ok: false, full: false, detail: `opening of row ${i} does not verify` };
    const want = rowOf?.(i);
    if (want && Array.from(want).some((v, k) => v !== o.row[k]))
      return { ok: false, full: false, detail: `opened row ${i} is not the committed row` };
  }
  return {
    ok: true,
    full: false,
    detail: `${SAMPLES + 2} openings verify against the root${rowOf ? ' and hold the input rows' : ''} (the CPU path is not run past this size)`,
  };
}

/** Merkle commitment of a 2^logn x 8 matrix (Plonky3 MerkleTreeMmcs). */
export function merkleCase(logn: number, width = 8): BenchCase<Uint32Array, Committed> {
  const height = 2 ** logn;
  return {
    kernel: 'merkle commit',
    family: 'merkle',
    size: `2^${logn} x ${width}`,
    logn,
    elements: height,
    cpuMaxLogn: 13,
    nativeKey: { bench: 'merkle', log_n: logn, width },
    input: () => new SplitMix64(0x3d).fieldArray(height * width),
    gpu: (p, x) => p.merkleCommit(x, { width, ...OFF }),
    cpu: (c, x) => c.merkleCommit(x, { width }),
    equal: (g, c) => sameRoot(g, c, 'src/ref merkleTree'),
    sampled: (g, x) => openingsVerify(g, height, width, (i) => x.subarray(i * width, (i + 1) * width)),
    release: (t) => t.tree.dispose(),
  };
}

/** Coefficients 2^logn x width encoded at rate 1/2 and committed (WHIR's commit). */
export function commitCase(logn: number, width = 8): BenchCase<Uint32Array, Committed> {
  const height = 2 ** logn;
  return {
    kernel: 'commit',
    family: 'commit',
    size: `2^${logn} x ${width} -> 2^${logn + 1}`,
    logn,
    elements: height * width,
    cpuMaxLogn: 12,
    input: () => new SplitMix64(0x4e).fieldArray(height * width),
    gpu: (p, x) => p.commit(x, { width, addedBits: 1, ...OFF }),
    cpu: (c, x) => c.commit(x, { width, addedBits: 1 }),
    equal: (g, c) => sameRoot(g, c, 'src/ref encode + merkleTree'),
    sampled: (g) => openingsVerify(g, 2 * height, width),
    release: (t) => t.tree.dispose(),
  };
}

/** Proof-of-work grinding: `bits` leading zero bits of a DuplexChallenger sample (expected 2^bits hashes). */
export function grindCase(bits: number): BenchCase<DuplexChallenger, number> {
  const base = new DuplexChallenger();
  base.observeSlice(new SplitMix64(0x5f).fieldArray(8));
  return {
    kernel: 'grind',
    family: 'grind',
    size: `${bits} bits`,
    logn: bits,
    elements: 2 ** bits,
    cpuMaxLogn: 12,
    nativeKey: { bench: 'grind', bits },
    // grind advances the challenger it is given: each call gets a fresh copy of the same transcript.
    input: () => base,
    gpu: (p, ch) => p.grind(ch.clone(), bits, OFF),
    cpu: (c, ch) => c.grind(ch.clone(), bits),
    equal: (g, c) => ({
      ok: g === c,
      full: true,
      detail: g === c ? `witness ${g} equals the CPU path's (Plonky3's serial order)` : `witness ${g}, CPU path ${c}`,
    }),
    sampled: async (g, ch) => {
      const ok = ch.clone().checkWitness(bits, g);
      return { ok, full: true, detail: `witness ${g} ${ok ? 'passes' : 'fails'} check_witness(${bits})` };
    },
  };
}

type Pt = InstanceType<typeof bn254.G1.Point>;

/** BN254 G1 MSM of 2^logn seeded points and scalars, checked against noble's pippenger at every size. */
export function msmCase(logn: number): BenchCase<{ pts: Pt[]; ks: bigint[] }, Pt> {
  const n = 2 ** logn;
  return {
    kernel: 'msm bn254',
    family: 'msm',
    size: `2^${logn} points`,
    logn,
    elements: n,
    cpuMaxLogn: 12,
    nativeKey: { bench: 'msm', log_n: logn },
    input() {
      const rng = new SplitMix64(0xb1);
      const pts = seededPoints(rng, n);
      return { pts, ks: Array.from({ length: n }, () => seededScalar(rng)) };
    },
    gpu: (p, x) => p.msm(x.pts, x.ks, OFF),
    cpu: (c, x) => c.msm(x.pts, x.ks),
    equal: (g, c) => ({
      ok: g.equals(c),
      full: true,
      detail: g.equals(c) ? 'equals the CPU path (noble pippenger)' : 'differs from the CPU path (noble pippenger)',
    }),
    sampled: async (g, x) => {
      const ok = g.equals(pippenger(bn254.G1.Point, x.pts, x.ks));
      return { ok, full: true, detail: `${ok ? 'equals' : 'differs from'} noble pippenger (the CPU path is not timed at this size)` };
    },
    profile: (p, x) => profileMsm(p, x.pts, x.ks),
  };
}

/** One msmProfiled run on bases already on the GPU: its passes summed by label. */
async function profileMsm(p: Prover, pts: Pt[], ks: bigint[]): Promise<ProfileReport | null> {
  const h = await p.msmBases(pts);
  try {
    await h.msmProfiled(ks);
    const r = (await h.msmProfiled(ks)).profiles[0];
    if (!r) return null;
    const by = new Map<string, number | null>();
    for (const pass of r.passes) by.set(pass.label, pass.ms === null ? null : (by.get(pass.label) ?? 0) + pass.ms);
    return { ...r, passes: [...by].map(([label, ms]) => ({ label, ms })) };
  } finally {
    h.destroy();
  }
}
