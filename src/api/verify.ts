/**
 * The public Merkle path verifier. A verifier's one job is to say no: it returns false for any
 * opening that does not verify, including rows, siblings or a root holding a value that is not
 * a canonical BabyBear element (a value raised by p hashes like the original once reduced, so a
 * verifier that reduced would accept a tampered opening). It throws a ProverError only for a call
 * that is malformed in type (an argument that is not an array, an index that is not a number,
 * constants of the wrong shape); see docs/errors.md.
 * @module
 */
import { ProverError } from '../errors.js';
import { BB_P } from '../params/babybear.js';
import { compress, DIGEST, hashRow } from '../ref/merkle.js';
import { constantsProblem, type Poseidon2Constants } from '../params/poseidon2.js';
import { show } from '../validate.js';

/** A list of numbers: a dense array or a typed array (not a DataView). */
function isList(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

function requireList(name: string, v: unknown): ArrayLike<unknown> {
  if (!isList(v))
    throw new ProverError(
      'INVALID_ARGUMENT',
      `verifyMerklePath: ${name} must be an array or typed array of BabyBear values, got ${show(v)}`,
    );
  return v;
}

/** Every element a canonical BabyBear value (holes, non-integers, negatives, >= p: no). */
function canonical(v: ArrayLike<unknown>): v is ArrayLike<number> {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= BB_P) return false;
  }
  return true;
}

const isDigest = (d: ArrayLike<unknown>): d is ArrayLike<number> => d.length === DIGEST && canonical(d);

/**
 * What the verifier knows of the committed matrix, as Plonky3's verify_batch takes its dimensions.
 * Give both: a padding-free sponge hashes a row and the same row with trailing zeros (within its
 * last chunk of 8) alike, and a path's length is the tree's height only if the verifier says so.
 */
export interface MerkleVerifyOptions {
  /** Values per row of the committed matrix. */
  width?: number;
  /** Rows of the committed matrix (a power of two). */
  height?: number;
  /** Poseidon2 constants other than Plonky3's defaults. */
  constants?: Poseidon2Constants;
}

function readOptions(o: unknown): MerkleVerifyOptions {
  if (o === undefined) return {};
  if (typeof o !== 'object' || o === null)
    throw new ProverError('INVALID_ARGUMENT', `verifyMerklePath: options must be { width, height, constants }, got ${show(o)}`);
  // Earlier releases took the constants themselves as the fifth argument.
  if (Object.hasOwn(o, 'externalInitial')) return { constants: o as Poseidon2Constants };
  const { width, height, constants } = o as MerkleVerifyOptions;
  for (const [k, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (v !== undefined && (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)) {
      throw new ProverError('INVALID_ARGUMENT', `verifyMerklePath: ${k} must be a positive integer, got ${show(v)}`);
    }
  }
  return { width, height, constants };
}

/**
 * Verify a single-matrix opening against `root` (Plonky3 MerkleTreeMmcs, cap height 0, the
 * default Poseidon2 constants or `options.constants`): the leaf is H(row) and at level l the
 * running digest is the left child when bit l of `index` is 0. True only if the root and every
 * sibling are 8 canonical values, the row's values are canonical, `index` addresses a leaf of a
 * tree of height 2^siblings.length, the row has `options.width` values and the path fits
 * `options.height` rows where given, and the recomputed root equals `root`.
 * @throws ProverError INVALID_ARGUMENT when an argument has the wrong type (see docs/errors.md)
 * @example verifyMerklePath(root, 5, row, siblings, { width: 8, height: 1024 }) // from merkleCommit and tree.open(5)
 */
export function verifyMerklePath(
  root: ArrayLike<number>,
  index: number,
  row: ArrayLike<number>,
  siblings: readonly ArrayLike<number>[],
  options?: MerkleVerifyOptions | Poseidon2Constants,
): boolean {
  const r = requireList('root', root);
  const values = requireList('row', row);
  if (typeof index !== 'number') throw new ProverError('INVALID_ARGUMENT', `verifyMerklePath: index must be a number, got ${show(index)}`);
  if (!Array.isArray(siblings))
    throw new ProverError('INVALID_ARGUMENT', `verifyMerklePath: siblings must be an array of digests, got ${show(siblings)}`);
  const sibs: ArrayLike<unknown>[] = [];
  for (let l = 0; l < siblings.length; l++) sibs.push(requireList(`siblings[${l}]`, Object.hasOwn(siblings, l) ? siblings[l] : undefined));
  const { width, height, constants } = readOptions(options);
  if (constants !== undefined) {
    const problem = constantsProblem(16, constants);
    if (problem) throw new ProverError(problem.code, `verifyMerklePath: constants: ${problem.message}`);
  }
  if (!isDigest(r) || !canonical(values) || !sibs.every(isDigest)) return false;
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** sibs.length) return false;
  if (width !== undefined && values.length !== width) return false;
  if (height !== undefined && 2 ** sibs.length !== height) return false;
  let cur = hashRow(values, constants);
  // Bits by division: `>>` wraps past 2^31, and a path may be longer than 31 levels.
  for (let l = 0, at = index; l < sibs.length; l++, at = Math.floor(at / 2)) {
    cur = at % 2 === 0 ? compress(cur, sibs[l] as ArrayLike<number>, constants) : compress(sibs[l] as ArrayLike<number>, cur, constants);
  }
  for (let k = 0; k < DIGEST; k++) if (cur[k] !== r[k]) return false;
  return true;
}
