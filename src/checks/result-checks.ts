/**
 * Run-time checks of one GPU result against the CPU references (docs/checks.md).
 * sample: spot checks that are sound for what they look at: NTT, a few output values evaluated
 * from their definition (ntt-entry.ts); batchField and poseidon2, a few elements recomputed;
 * Merkle and commit, a few leaves opened and hashed up to the root (commit also checks the
 * opened codeword value); tree.open, its path up to the root; msm, a fresh random small MSM on
 * the GPU against noble (one large MSM result has no cheap sound check).
 * full: the whole result recomputed on the CPU path.
 * Each returns a description of the first difference found, or undefined.
 * @module
 */
import { isNttMatrix } from '../api/is-ntt-matrix.js';
import { poseidon2 } from '../ref/poseidon2.js';
import { verifyMerklePath } from '../api/verify.js';
import type { NttLdeOptions, NttMatrix } from '../api/ntt.js';
import type { MerkleOpening, MerkleTree } from '../api/merkle.js';
import type { G1Point, MsmOptions, MsmPoints, MsmScalars } from '../api/msm-encode.js';
import type { DuplexChallenger } from '../ref/challenger.js';
import type { NttOp } from '../kernels/ntt/job.js';
import { BB_P } from '../params/babybear.js';
import { MONTY31_FIELDS } from '../params/fields.js';
import type { Backend, Jobs } from '../prover.js';
import { loadPart } from '../lazy.js';
import { knownMultiples, msmOfKnownLogs } from '../field/known-logs.js';
import type { FileBytes, Groth16Key, Groth16Output, Groth16Witness } from '../groth16/key.js';

/** A finished GPU call: a Prover method, or a handle's ('open' on a tree, 'basesMsm' on msmBases). */
export interface CheckedCall {
  method: string;
  args: readonly unknown[];
  result: unknown;
  /** grind: a copy of the challenger before the job. basesMsm: the bases' points (full checks). */
  before?: DuplexChallenger;
  points?: MsmPoints;
  /** open: the tree's root. */
  root?: Uint32Array;
  /** groth16Prove: the key that made the proof, and its zkey (the CPU path proves the witness again when the proof fails). */
  key?: Groth16Key;
  zkey?: FileBytes;
}

export interface CheckPaths {
  cpu: Backend;
  /** The GPU path as calls use it (msm's sample runs its small instance there). */
  gpu: Jobs;
}

const NTT_OPS = new Set(['dft', 'idft', 'lde', 'encode']);
const pick = (n: number) => Math.floor(Math.random() * n);
const equal = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => v === b[i]);
const differ = (what: string) => `${what} differs from the CPU reference`;

/**
 * A family's validation code, loaded by its first check: the checks module is in every page's
 * worker, each family's host code only where that family runs (src/lazy.ts).
 */
const code = <T>(family: string, load: () => Promise<T>) => loadPart(`webgpu-prover's ${family} code (checks)`, load);

/** The check's cost in units its family's budget measures (NTT and commit checks grow with the height). */
export function checkUnits(call: CheckedCall): number {
  const values = call.args[0];
  if ((NTT_OPS.has(call.method) || call.method === 'commit') && values instanceof Uint32Array) {
    const opts = call.args[1] as { width?: number };
    return Math.max(1, values.length / (opts?.width ?? 1));
  }
  return 1;
}

async function openAndVerify(tree: MerkleTree, root: Uint32Array, index: number): Promise<MerkleOpening | string> {
  const o = await tree.open(index, { check: 'off' });
  return verifyMerklePath(root, index, o.row, o.siblings) ? o : differ(`the path of leaf ${index}`);
}

/**
 * The bases of the sampled MSMs: 32 consecutive multiples of G from a random one, made once (one
 * multiplication and 31 additions), and their discrete logs: the CPU's answer is then one more
 * multiplication (field/known-logs.ts), not a pippenger, and the first MSM result's check is on its
 * caller's wait.
 */
let sampleBases: { points: G1Point[]; logs: bigint[] } | undefined;

/** A small MSM with fresh random scalars on the GPU path against noble's answer (the self-check's size: no new pipelines). */
async function smallMsm(gpu: Jobs): Promise<string | undefined> {
  // noble loads with the MSM's first check, not with the checks of every family.
  const { bn254 } = await loadPart("noble's BN254", () => import('@noble/curves/bn254.js'));
  const G1 = bn254.G1.Point;
  const n = 32;
  if (!sampleBases) {
    sampleBases = knownMultiples(G1, BigInt(1 + pick(2 ** 30)), 1n, n);
  }
  const scalars = Array.from({ length: n }, () => (BigInt(pick(2 ** 30)) << 200n) + BigInt(pick(2 ** 30)) * BigInt(pick(2 ** 30)));
  const got = gpu.msm(sampleBases.points, scalars, { check: 'off' });
  // The CPU's answer while the GPU works.
  const want = msmOfKnownLogs(G1, sampleBases.logs, scalars);
  return (await got).equals(want) ? undefined : differ('a random 32-point MSM');
}

/** Output entries of an NTT call evaluated from its input (ntt-entry.ts): rows, columns, values. */
export interface NttSample {
  width: number;
  rows: number[];
  cols: number[];
  want: number[];
  /** what evaluating `want` cost (ms): part of the check's price for the family's budget */
  ms: number;
}

/**
 * Two output entries of an NTT call, evaluated from its input alone (O(h) each: ~25 ms at 2^17
 * rows on the H100's host), so they can be computed while the call's GPU work runs: the router
 * does that for a family's first result, which is always checked (a first lde's check was ~50 ms
 * between its result and its caller). Undefined for other calls and for an input on the GPU.
 */
export async function nttSample(method: string, args: readonly unknown[]): Promise<NttSample | undefined> {
  const values = args[0];
  if (!NTT_OPS.has(method) || !(values instanceof Uint32Array)) return undefined;
  const [{ requireNttSpec }, { nttEntry }, { outputHeight }] = await code('ntt', () =>
    Promise.all([import('../api/ntt.js'), import('./ntt-entry.js'), import('../kernels/ntt/job.js')]),
  );
  const t0 = performance.now();
  const { spec } = requireNttSpec(method as NttOp, values, args[1] as NttLdeOptions, undefined, true);
  const rows = [pick(outputHeight(spec)), pick(outputHeight(spec))];
  const cols = rows.map(() => pick(spec.width));
  const want = rows.map((r, k) => nttEntry(spec, values, r, cols[k]));
  return { width: spec.width, rows, cols, want, ms: performance.now() - t0 };
}

/** `early`: the call's NTT sample, computed while it ran (nttSample); else computed here. */
export async function sampleCheck(call: CheckedCall, paths: CheckPaths, early?: NttSample): Promise<string | undefined> {
  const { method, args, result } = call;
  if (method === 'batchField') {
    const [{ requireFieldJob }, { fieldRange }] = await code('field', () =>
      Promise.all([import('../api/field.js'), import('../cpu/field.js')]),
    );
    const f = requireFieldJob(args[0], args[1], args[2], args[3], true); // validated by the job: no second scan
    const out = result as Uint32Array;
    const step = f.op.startsWith('ext4') ? 4 : 1;
    const scratch = new Uint32Array(out.length === 0 ? 0 : step);
    for (let k = 0; k < 4 && out.length > 0; k++) {
      const i = pick(out.length / step) * step;
      fieldRange(f.op, f.a.subarray(i, i + step), f.b?.subarray(i, i + step), scratch, 0, step, f.field);
      if (!equal(scratch, out.subarray(i, i + step))) return differ(`batchField ${f.op} element ${i / step}`);
    }
    return undefined;
  }
  if (NTT_OPS.has(method)) {
    const sample = early ?? (await nttSample(method, args));
    if (!sample) return undefined; // an input on the GPU: checked at 'full' only
    const { readMatrixRows } = await code('ntt', () => import('../api/ntt.js'));
    const width = sample.width;
    const got =
      result instanceof Uint32Array
        ? sample.rows.map((r) => result.subarray(r * width, (r + 1) * width))
        : await readMatrixRows(result as NttMatrix, sample.rows);
    if (!got) return undefined;
    for (const [k, r] of sample.rows.entries()) {
      if (got[k][sample.cols[k]] !== sample.want[k]) return differ(`${method} row ${r} column ${sample.cols[k]}`);
    }
    return undefined;
  }
  if (method === 'poseidon2') {
    const { requirePoseidon2Job } = await code('poseidon2', () => import('../api/poseidon2.js'));
    const { states, width, field, constants } = requirePoseidon2Job(args[0], args[1] as never, true);
    const out = result as Uint32Array;
    for (let k = 0; k < 2; k++) {
      const i = pick(states.length / width) * width;
      if (!equal(poseidon2(states.subarray(i, i + width), constants, MONTY31_FIELDS[field]), out.subarray(i, i + width)))
        return differ(`poseidon2 state ${i / width}`);
    }
    return undefined;
  }
  if (method === 'merkleCommit' || method === 'commit') {
    const { root, tree } = result as { root: Uint32Array; tree: MerkleTree };
    const commitCode =
      method === 'commit' ? await code('commit', () => Promise.all([import('../api/commit.js'), import('./ntt-entry.js')])) : undefined;
    const job = commitCode?.[0].requireCommitJob(args[0], args[1], true);
    for (let k = 0; k < 2; k++) {
      const i = pick(tree.height);
      const o = await openAndVerify(tree, root, i);
      if (typeof o === 'string') return o;
      if (
        args[0] instanceof Uint32Array &&
        method === 'merkleCommit' &&
        !equal(o.row, args[0].subarray(i * tree.width, (i + 1) * tree.width))
      )
        return differ(`the committed row ${i}`);
      if (job) {
        const c = pick(job.width);
        const spec = { op: 'encode' as const, height: job.height, width: job.width, addedBits: job.addedBits, bitReversed: false };
        if (o.row[c] !== commitCode![1].nttEntry(spec, job.coeffs, i, c)) return differ(`the codeword at row ${i} column ${c}`);
      }
    }
    return undefined;
  }
  if (method === 'open') {
    const o = result as MerkleOpening;
    return verifyMerklePath(call.root!, args[0] as number, o.row, o.siblings) ? undefined : differ(`the path of leaf ${String(args[0])}`);
  }
  if (method === 'grind') return grindCheck(call, false);
  if (method === 'msm' || method === 'basesMsm') return smallMsm(paths.gpu);
  if (method === 'groth16Prove') return groth16Check(call, paths);
  return undefined;
}

/** A Groth16 proof must verify (the check and its CPU fallback: groth16/proof-check.ts, loaded with the first proof's check). */
async function groth16Check(call: CheckedCall, paths: CheckPaths): Promise<string | undefined> {
  const { checkGroth16Proof } = await loadPart("webgpu-prover's Groth16 check", () => import('../groth16/proof-check.js'));
  return checkGroth16Proof(call.key!, call.args[0] as Groth16Witness, call.result as Groth16Output, () => paths.cpu.groth16(call.zkey!));
}

/** The witness must pass check_witness; at 'full' it must also be the smallest (Plonky3's serial order). */
function grindCheck(call: CheckedCall, smallest: boolean): string | undefined {
  const bits = call.args[1] as number;
  const w = call.result as number;
  if (!Number.isInteger(w) || w < 0 || w >= BB_P || !call.before!.clone().checkWitness(bits, w)) return differ(`the grinding witness ${w}`);
  if (smallest && w !== call.before!.clone().grind(bits)) return differ(`the grinding witness ${w} (not the smallest)`);
  return undefined;
}

export async function fullCheck(call: CheckedCall, paths: CheckPaths): Promise<string | undefined> {
  const { method, args, result } = call;
  const cpu = paths.cpu as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const host = async (v: unknown) => (isNttMatrix(v) ? v.read() : (v as Uint32Array));
  if (method === 'batchField' || method === 'poseidon2' || NTT_OPS.has(method)) {
    // The CPU's own result: never into the caller's `out` (that holds the result under test).
    const own = (o: unknown) =>
      o ? { ...(o as object), gpu: false, out: undefined, signal: undefined, onProgress: undefined } : undefined;
    const matrix = isNttMatrix(args[0]) ? args[0] : undefined;
    const opts =
      method === 'batchField' ? [args[1], args[2], own(args[3])] : [{ ...own(args[1]), ...(matrix ? { width: matrix.width } : {}) }];
    const input = matrix ? await matrix.read() : args[0];
    const expected = (await cpu[method](input, ...opts)) as Uint32Array;
    return equal(expected, await host(result)) ? undefined : differ(`the ${method} result`);
  }
  if (method === 'merkleCommit' || method === 'commit') {
    const input = isNttMatrix(args[0]) ? await args[0].read() : args[0];
    const width = isNttMatrix(args[0]) ? args[0].width : (args[1] as { width: number }).width;
    const expected = (await cpu[method](input, { ...(args[1] as object), width, signal: undefined, onProgress: undefined })) as {
      root: Uint32Array;
      tree: MerkleTree;
    };
    expected.tree.dispose();
    return equal(expected.root, (result as { root: Uint32Array }).root) ? undefined : differ(`the ${method} root`);
  }
  if (method === 'open' || method === 'groth16Prove') return sampleCheck(call, paths);
  if (method === 'grind') return grindCheck(call, true);
  if (method === 'msm' || method === 'basesMsm') {
    // The call's offset and byte order, none of its job options (signal, progress).
    const { offset, endian } = (args[method === 'msm' ? 2 : 1] ?? {}) as MsmOptions;
    const scalars = args[method === 'msm' ? 1 : 0] as MsmScalars;
    const expected =
      method === 'msm'
        ? await paths.cpu.msm(args[0] as MsmPoints, scalars, { endian })
        : await (await paths.cpu.msmBases(call.points!)).msm(scalars, { offset, endian });
    return expected.equals(result as G1Point) ? undefined : differ('the MSM');
  }
  return undefined;
}
