/**
 * The CPU path of the hash families: poseidon2, merkleCommit and commit (CpuTree, this path's
 * MerkleTree), and grind, on src/ref (Plonky3's Poseidon2, MerkleTreeMmcs and DuplexChallenger).
 * @module
 */
import { isNttMatrix, requireBabyBearMatrix } from '../api/is-ntt-matrix.js';
import { ProverError } from '../errors.js';
import { poseidon2Batch, poseidon2Permute } from '../ref/poseidon2.js';
import { compress, DIGEST, hashRow } from '../ref/merkle.js';
import { grindBaseState, type DuplexChallenger } from '../ref/challenger.js';
import { BB_P } from '../params/babybear.js';
import { MONTY31_FIELDS } from '../params/fields.js';
import { requirePoseidon2Job, type Poseidon2Methods } from '../api/poseidon2.js';
import {
  requireMerkleJob,
  requireRowIndices,
  requireRowWidth,
  requireTreeHeight,
  type MerkleMethods,
  type MerkleOpening,
  type MerkleTree,
} from '../api/merkle.js';
import type { CommitMethods } from '../api/commit.js';
import { requireGrindJob, type GrindMethods } from '../api/grind.js';
import { requireInt, requireOptions, show } from '../validate.js';
import { requireJobOptions } from '../sched/job.js';
import type { Scheduler } from '../sched/scheduler.js';
import { loadPart } from '../lazy.js';
import { cpuSteps } from './queue.js';
import type { CpuEnv } from './env.js';

type Step = (stage: string) => Promise<void>;

/** Digest layers of Plonky3's MerkleTreeMmcs over one matrix (cap height 0), leaves first, 8 values a node. */
async function buildLayers(values: Uint32Array, height: number, width: number, step: Step): Promise<Uint32Array[]> {
  let layer = new Uint32Array(height * DIGEST);
  for (let i = 0; i < height; i++) {
    layer.set(hashRow(values.subarray(i * width, (i + 1) * width)), i * DIGEST);
    if ((i & 255) === 255) await step('merkle leaves');
  }
  const layers = [layer];
  while (layer.length > DIGEST) {
    const prev = layer;
    layer = new Uint32Array(prev.length / 2);
    for (let i = 0; i < layer.length / DIGEST; i++) {
      const at = 2 * i * DIGEST;
      layer.set(compress(prev.subarray(at, at + DIGEST), prev.subarray(at + DIGEST, at + 2 * DIGEST)), i * DIGEST);
      if ((i & 1023) === 1023) await step('merkle nodes');
    }
    layers.push(layer);
  }
  return layers;
}

/** A MerkleTree of the CPU path: the committed rows and every digest layer. */
function cpuTree(sched: Scheduler, values: Uint32Array, height: number, width: number, layers: Uint32Array[]): MerkleTree {
  let rows: Uint32Array | undefined = values;
  return {
    height,
    width,
    root: layers[layers.length - 1].slice(),
    async open(index, job) {
      const jobOpts = requireJobOptions('open job options', job);
      if (!rows) throw new ProverError('DESTROYED', 'this Merkle tree was disposed; commit again to open it');
      requireInt('open(index): index', index, 0, height - 1, 'a row of the tree');
      const v = rows;
      return sched.run('merkle open', jobOpts, async (): Promise<MerkleOpening> => ({
        row: v.slice(index * width, (index + 1) * width),
        siblings: layers.slice(0, -1).map((l, k) => {
          const sib = (index >> k) ^ 1;
          return l.slice(sib * DIGEST, (sib + 1) * DIGEST);
        }),
      }));
    },
    async openMany(indices, job) {
      const list = requireRowIndices(indices, height);
      const jobOpts = requireJobOptions('openMany job options', job);
      const out: MerkleOpening[] = [];
      for (const i of list) out.push(await this.open(i, { signal: jobOpts.signal }));
      return out;
    },
    dispose() {
      rows = undefined;
      layers = [];
    },
  };
}

/** The smallest grinding witness for `ch` (Plonky3's serial order), without advancing it. */
async function grindWitness(ch: DuplexChallenger, bits: number, step: Step): Promise<number> {
  const { base, slot } = grindBaseState(ch);
  const mask = 2 ** bits - 1;
  const s = new Uint32Array(16);
  for (let w = 0; w < BB_P; w++) {
    s.set(base);
    s[slot] = w;
    poseidon2Permute(s);
    if ((s[7] & mask) === 0) return w;
    if ((w & 4095) === 4095) await step('grind');
  }
  throw new ProverError('INVALID_ARGUMENT', `no witness for ${bits} bits`);
}

// The NTT's code loads with the first commit or NttMatrix input (a page that only hashes never needs it).
const nttCode = () => loadPart("webgpu-prover's ntt code (CPU path)", () => import('./ntt.js'));
const commitCode = () => loadPart("webgpu-prover's commit code", () => import('../api/commit.js'));

export function cpuHashMethods({ sched, alive }: CpuEnv): Poseidon2Methods & MerkleMethods & CommitMethods & GrindMethods {
  return {
    async poseidon2(given, options) {
      alive();
      const { states, width, field, constants, out: into } = requirePoseidon2Job(given, options);
      return sched.run('poseidon2', requireJobOptions('poseidon2 options', options), async (job) => {
        const step = cpuSteps(job);
        // Each chunk is permuted from a copy before it is written: in place (out = states) is safe.
        const out = into ?? new Uint32Array(states.length);
        const chunk = 256 * width;
        for (let i = 0; i < states.length; i += chunk) {
          out.set(poseidon2Batch(states.subarray(i, i + chunk), width, constants, MONTY31_FIELDS[field]), i);
          await step('poseidon2');
        }
        return out;
      });
    },

    async merkleCommit(matrix, options) {
      alive();
      const m = isNttMatrix(matrix) ? matrix : undefined;
      const opts = requireOptions<{ width: number }>('merkleCommit options', options, m !== undefined);
      const jobOpts = requireJobOptions('merkleCommit options', opts);
      let shape: { values?: Uint32Array; width: number; height: number };
      if (m) {
        if (opts.width !== undefined && opts.width !== m.width) {
          throw new ProverError(
            'INVALID_ARGUMENT',
            `width ${show(opts.width)} does not match the NttMatrix's ${m.width} columns; leave width out`,
          );
        }
        requireBabyBearMatrix(m);
        shape = { width: requireRowWidth(m.width), height: m.height };
        requireTreeHeight(m.height);
      } else {
        shape = requireMerkleJob(matrix, opts.width);
      }
      return sched.run('merkleCommit', jobOpts, async (job) => {
        const values = shape.values ?? (await (await nttCode()).matrixValues(m!)).slice();
        const layers = await buildLayers(values, shape.height, shape.width, cpuSteps(job));
        const tree = cpuTree(sched, values, shape.height, shape.width, layers);
        return { root: tree.root.slice(), tree };
      });
    },

    async commit(given, options) {
      alive();
      const [{ requireCommitJob }, { cpuNtt }] = await Promise.all([commitCode(), nttCode()]);
      const { coeffs, width, height, addedBits } = requireCommitJob(given, options);
      return sched.run('commit', requireJobOptions('commit options', options), async (job) => {
        const step = cpuSteps(job);
        const codeword = await cpuNtt({ op: 'encode', height, width, addedBits, bitReversed: false }, coeffs, step);
        const n = height * 2 ** addedBits;
        const tree = cpuTree(sched, codeword, n, width, await buildLayers(codeword, n, width, step));
        return { root: tree.root.slice(), tree };
      });
    },

    async grind(given, bitsGiven, job) {
      alive();
      const { challenger, bits, jobOpts } = requireGrindJob(given, bitsGiven, job);
      if (bits === 0) return 0;
      const w = await sched.run(`grind ${bits} bits`, jobOpts, (control) => grindWitness(challenger.clone(), bits, cpuSteps(control)));
      challenger.checkWitness(bits, w);
      return w;
    },
  };
}
