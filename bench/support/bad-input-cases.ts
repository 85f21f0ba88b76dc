/**
 * fast-check arbitraries of bad calls, one fault at a time, over every public method and
 * handle: wrong types, lengths, values, options, sparse arrays, symbols, typed arrays of every
 * kind, detached buffers, destroyed handles and provers, another prover's handles, aborted signals. Each case
 * carries the code docs/errors.md gives its fault (or `false` for a verifier that must refuse).
 * Used by bad-input-check.ts in the dev page (`errors-check`) and so in Chromium in CI.
 * @module
 */
import fc from 'fast-check';
import { bn254 } from '@noble/curves/bn254.js';
import type { Prover } from '../../src/prover.js';
import type { NttMatrix } from '../../src/api/ntt.js';
import type { MerkleTree } from '../../src/api/merkle.js';
import type { MsmBases } from '../../src/api/msm.js';
import { createProver, DuplexChallenger, verifyMerklePath, type ProverErrorCode } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { beBytes32, FQ_P, FR_R } from '../../src/params/bn254.js';

export interface BadCall {
  /** The public method called. */
  method: string;
  /** What is wrong with the call. */
  fault: string;
  /** The code docs/errors.md gives the fault, or false: a verifier must return false. */
  expect: ProverErrorCode | false;
  call: () => unknown;
}

/** Live and dead handles the cases use, made once before the property runs. */
export interface Fixtures {
  prover: Prover;
  matrix: NttMatrix;
  destroyedMatrix: NttMatrix;
  /** An NttMatrix of another prover, destroyed since (the handle itself never destroyed). */
  foreignMatrix: NttMatrix;
  deadProver: Prover;
  deadTree: MerkleTree;
  deadBases: MsmBases;
  tree: MerkleTree;
  disposedTree: MerkleTree;
  opening: { root: Uint32Array; index: number; row: Uint32Array; siblings: Uint32Array[] };
  bases: MsmBases;
  destroyedBases: MsmBases;
}

const G = bn254.G1.Point;
export const TREE_ROWS = 8;
export const TREE_WIDTH = 4;

export async function makeFixtures(prover: Prover): Promise<Fixtures> {
  const vals = (n: number, k = 1) => Uint32Array.from({ length: n }, (_, i) => (i * 7919 + k) % BB_P);
  const matrix = await prover.dft(vals(16), { width: 2, gpu: true });
  const destroyedMatrix = await prover.dft(vals(16, 2), { width: 2, gpu: true });
  destroyedMatrix.destroy();
  const { root, tree } = await prover.merkleCommit(vals(TREE_ROWS * TREE_WIDTH), { width: TREE_WIDTH });
  const { tree: disposedTree } = await prover.merkleCommit(vals(TREE_ROWS * TREE_WIDTH, 3), { width: TREE_WIDTH });
  disposedTree.dispose();
  const { row, siblings } = await tree.open(5);
  const pts = [G.BASE, G.BASE.double(), G.BASE.multiply(5n), G.ZERO];
  const bases = await prover.msmBases(pts);
  const destroyedBases = await prover.msmBases(pts);
  destroyedBases.destroy();
  const deadProver = await createProver();
  const foreignMatrix = await deadProver.dft(vals(8), { width: 1, gpu: true });
  const { tree: deadTree } = await deadProver.merkleCommit(vals(4), { width: 1 });
  const deadBases = await deadProver.msmBases(pts.slice(0, 2));
  deadProver.destroy();
  return {
    prover,
    matrix,
    destroyedMatrix,
    foreignMatrix,
    deadProver,
    deadTree,
    deadBases,
    tree,
    disposedTree,
    opening: { root, index: 5, row, siblings },
    bases,
    destroyedBases,
  };
}

/** Values that are not a Uint32Array (nor any array the method takes). */
const notTyped = fc.constantFrom<unknown>(
  null,
  undefined,
  0,
  1.5,
  NaN,
  'abc',
  true,
  {},
  Symbol('s'),
  7n,
  () => 1,
  [1, 2, 3, 4],
  [],
  new Uint8Array(16),
  new Int32Array(16),
  new Float64Array(16),
  new Uint16Array(16),
  new BigUint64Array(4),
  new DataView(new ArrayBuffer(64)),
  new Uint8ClampedArray(16),
  new Float32Array(16),
  new Map(),
  new ArrayBuffer(64),
);
/** A value for a field that wants an integer in a range: never an integer in that range. */
const notInt = fc.constantFrom<unknown>(null, '4', 1.5, -1, NaN, Infinity, -Infinity, Symbol('w'), {}, [4], 4n, true);
const notBool = fc.constantFrom<unknown>('yes', 1, 0, null, {}, Symbol('b'), 'false');
const notOptions = fc.constantFrom<unknown>(null, 5, 'opts', Symbol('o'), true, [1], 3n);

/** n canonical values, with the value at a drawn index replaced by a non-canonical one. */
const nonCanonical = (n: number) =>
  fc.tuple(fc.nat({ max: n - 1 }), fc.integer({ min: BB_P, max: 2 ** 32 - 1 }), fc.nat({ max: BB_P - 1 })).map(([at, bad, seed]) => {
    const a = Uint32Array.from({ length: n }, (_, i) => (seed + i) % BB_P);
    a[at] = bad;
    return a;
  });
const canon = (n: number) => Uint32Array.from({ length: n }, (_, i) => (i * 31 + 1) % BB_P);
/** A Uint32Array whose buffer was transferred away: it reads as length 0. */
function detached(n: number): Uint32Array {
  const a = new Uint32Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}
const badLength = (ok: (n: number) => boolean) => fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })).filter((n) => !ok(n));

function field(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const p = f.prover;
  const m = 'batchField';
  const binary = fc.constantFrom('add', 'sub', 'mul');
  return [
    fc
      .constantFrom<unknown>('toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'div', '', 'MUL', 5, null, Symbol('op'))
      .map((op) => ({
        method: m,
        fault: `op ${String(op)}`,
        expect: 'INVALID_ARGUMENT' as const,
        call: () => p.batchField(op as never, canon(4), canon(4)),
      })),
    notTyped.map((a) => ({
      method: m,
      fault: 'a not a Uint32Array',
      expect: 'INVALID_ARGUMENT' as const,
      call: () => p.batchField('square', a as never),
    })),
    fc.constant({
      method: m,
      fault: 'a empty',
      expect: 'INVALID_LENGTH' as const,
      call: () => p.batchField('mul', new Uint32Array(0), new Uint32Array(0)),
    }),
    fc.constant({ method: m, fault: 'a detached', expect: 'INVALID_LENGTH' as const, call: () => p.batchField('inv', detached(8)) }),
    nonCanonical(9).map((a) => ({
      method: m,
      fault: 'a non-canonical',
      expect: 'NON_CANONICAL' as const,
      call: () => p.batchField('pow7', a),
    })),
    badLength((n) => n % 4 === 0).map((n) => ({
      method: m,
      fault: `ext4 length ${n}`,
      expect: 'INVALID_LENGTH' as const,
      call: () => p.batchField('ext4Inv', canon(n)),
    })),
    binary.map((op) => ({
      method: m,
      fault: `${op} without b`,
      expect: 'INVALID_ARGUMENT' as const,
      call: () => p.batchField(op, canon(4)),
    })),
    fc
      .tuple(
        binary,
        notTyped.filter((b) => b !== undefined),
      )
      .map(([op, b]) => ({
        method: m,
        fault: `${op} b not a Uint32Array`,
        expect: 'INVALID_ARGUMENT' as const,
        call: () => p.batchField(op, canon(4), b as never),
      })),
    fc
      .tuple(
        binary,
        fc.integer({ min: 1, max: 9 }).filter((n) => n !== 4),
      )
      .map(([op, n]) => ({
        method: m,
        fault: `${op} b of ${n}`,
        expect: 'INVALID_LENGTH' as const,
        call: () => p.batchField(op, canon(4), canon(n)),
      })),
    fc.tuple(binary, nonCanonical(4)).map(([op, b]) => ({
      method: m,
      fault: `${op} b non-canonical`,
      expect: 'NON_CANONICAL' as const,
      call: () => p.batchField(op, canon(4), b),
    })),
  ];
}

function ntt(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const p = f.prover;
  const op = fc.constantFrom('dft', 'idft', 'lde', 'encode') as fc.Arbitrary<'dft' | 'idft' | 'lde' | 'encode'>;
  const good = (o: string) =>
    o === 'lde' ? { width: 2, addedBits: 1, shift: 31 } : o === 'encode' ? { width: 2, addedBits: 1 } : { width: 2 };
  const run = (o: string, v: unknown, opts: unknown) =>
    (p as unknown as Record<string, (v: unknown, o: unknown) => Promise<unknown>>)[o](v, opts);
  const c = (o: string, fault: string, expect: ProverErrorCode, v: unknown, opts: unknown): BadCall => ({
    method: o,
    fault,
    expect,
    call: () => run(o, v, opts),
  });
  return [
    fc
      .tuple(
        op,
        notOptions.filter((x) => x !== undefined),
      )
      .map(([o, x]) => c(o, 'options not an object', 'INVALID_ARGUMENT', canon(8), x)),
    op.map((o) => c(o, 'no options', 'INVALID_ARGUMENT', canon(8), undefined)),
    fc
      .tuple(op, fc.oneof(notInt, fc.constantFrom(0, 1025, 2 ** 40)))
      .map(([o, w]) => c(o, `width ${String(w)}`, 'INVALID_ARGUMENT', canon(8), { ...good(o), width: w })),
    fc.tuple(op, notTyped).map(([o, v]) => c(o, 'values not a Uint32Array', 'INVALID_ARGUMENT', v, good(o))),
    op.map((o) => c(o, 'values empty', 'INVALID_LENGTH', new Uint32Array(0), good(o))),
    op.map((o) => c(o, 'values detached', 'INVALID_LENGTH', detached(8), good(o))),
    fc
      .tuple(
        op,
        fc.integer({ min: 1, max: 33 }).filter((n) => n % 2 === 1 || ((n / 2) & (n / 2 - 1)) !== 0),
      )
      .map(([o, n]) => c(o, `${n} values in 2 columns`, 'INVALID_LENGTH', canon(n), good(o))),
    fc.tuple(op, nonCanonical(8)).map(([o, v]) => c(o, 'a non-canonical value', 'NON_CANONICAL', v, good(o))),
    fc
      .tuple(op, fc.constantFrom('bitReversedOutput', 'gpu'), notBool)
      .map(([o, k, v]) => c(o, `${k} not a boolean`, 'INVALID_ARGUMENT', canon(8), { ...good(o), [k]: v })),
    fc
      .tuple(fc.constantFrom('lde', 'encode'), fc.oneof(notInt, fc.constant(28), fc.constant(-1)))
      .map(([o, a]) => c(o, `addedBits ${String(a)}`, 'INVALID_ARGUMENT', canon(8), { ...good(o), addedBits: a })),
    fc
      .tuple(fc.constantFrom('lde', 'encode'), fc.integer({ min: 26, max: 27 }))
      .map(([o, a]) => c(o, `addedBits ${a} at height 4`, 'TOO_LARGE', canon(8), { ...good(o), addedBits: a })),
    fc.oneof(notInt, fc.constant(0)).map((s) => c('lde', `shift ${String(s)}`, 'INVALID_ARGUMENT', canon(8), { ...good('lde'), shift: s })),
    fc.integer({ min: BB_P, max: 2 ** 40 }).map((s) => c('lde', `shift ${s}`, 'NON_CANONICAL', canon(8), { ...good('lde'), shift: s })),
    op.map((o) => c(o, 'a destroyed NttMatrix', 'DESTROYED', f.destroyedMatrix, good(o))),
    op.map((o) => c(o, "another prover's NttMatrix", 'INVALID_ARGUMENT', f.foreignMatrix, good(o))),
    fc
      .tuple(op, fc.constantFrom(1, 3, 4))
      .map(([o, w]) => c(o, `width ${w} for a 2-column NttMatrix`, 'INVALID_ARGUMENT', f.matrix, { ...good(o), width: w })),
  ];
}

/** Handles in every state: destroyed, disposed, of a destroyed prover (weighted as a family of its own). */
function handles(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const c = (method: string, fault: string, call: () => unknown): BadCall => ({ method, fault, expect: 'DESTROYED', call });
  return [
    fc.constantFrom(
      c('NttMatrix.read', 'destroyed', () => f.destroyedMatrix.read()),
      c('NttMatrix.read', 'its prover destroyed', () => f.foreignMatrix.read()),
      c('MerkleTree.open', 'disposed', () => f.disposedTree.open(0)),
      c('MerkleTree.open', 'its prover destroyed', () => f.deadTree.open(0)),
      c('MsmBases.msm', 'destroyed', () => f.destroyedBases.msm([1n, 2n, 3n, 4n])),
      c('MsmBases.msm', 'its prover destroyed', () => f.deadBases.msm([1n, 2n])),
    ),
  ];
}

function hash(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const p = f.prover;
  const P16 = { width: 16 as const };
  const c = (method: string, fault: string, expect: ProverErrorCode, call: () => unknown): BadCall => ({ method, fault, expect, call });
  const rows4 = (k: number) => Array.from({ length: 4 }, () => Array.from({ length: k }, () => 1));
  const constants = { externalInitial: rows4(16), internal: Array.from({ length: 13 }, () => 1), externalFinal: rows4(16) };
  return [
    notOptions.map((o) => c('poseidon2', 'options not an object', 'INVALID_ARGUMENT', () => p.poseidon2(canon(16), o as never))),
    fc
      .oneof(notInt, fc.constantFrom(8, 12, 32, 0))
      .map((w) => c('poseidon2', `width ${String(w)}`, 'INVALID_ARGUMENT', () => p.poseidon2(canon(16), { width: w as never }))),
    notTyped.map((s) => c('poseidon2', 'states not a Uint32Array', 'INVALID_ARGUMENT', () => p.poseidon2(s as never, P16))),
    badLength((n) => n % 16 === 0).map((n) => c('poseidon2', `${n} values`, 'INVALID_LENGTH', () => p.poseidon2(canon(n), P16))),
    nonCanonical(32).map((s) => c('poseidon2', 'non-canonical state', 'NON_CANONICAL', () => p.poseidon2(s, P16))),
    fc
      .constantFrom<unknown>(null, 5, 'c', Symbol('c'))
      .map((k) =>
        c('poseidon2', 'constants not an object', 'INVALID_ARGUMENT', () => p.poseidon2(canon(16), { width: 16, constants: k as never })),
      ),
    fc.constant(
      c('poseidon2', 'constants of width 24 rows', 'INVALID_LENGTH', () =>
        p.poseidon2(canon(16), { width: 16, constants: { ...constants, externalInitial: rows4(24) } }),
      ),
    ),
    fc
      .integer({ min: BB_P, max: 2 ** 32 })
      .map((v) =>
        c('poseidon2', 'constant >= p', 'NON_CANONICAL', () =>
          p.poseidon2(canon(16), { width: 16, constants: { ...constants, internal: [...constants.internal.slice(1), v] } }),
        ),
      ),
    notOptions.map((o) => c('merkleCommit', 'options not an object', 'INVALID_ARGUMENT', () => p.merkleCommit(canon(8), o as never))),
    fc
      .oneof(notInt, fc.constantFrom(0, 4097))
      .map((w) => c('merkleCommit', `width ${String(w)}`, 'INVALID_ARGUMENT', () => p.merkleCommit(canon(8), { width: w as never }))),
    notTyped.map((v) => c('merkleCommit', 'matrix not a Uint32Array', 'INVALID_ARGUMENT', () => p.merkleCommit(v as never, { width: 1 }))),
    badLength((n) => n > 0 && n % 2 === 0 && ((n / 2) & (n / 2 - 1)) === 0).map((n) =>
      c('merkleCommit', `${n} values in rows of 2`, 'INVALID_LENGTH', () => p.merkleCommit(canon(n), { width: 2 })),
    ),
    nonCanonical(8).map((v) => c('merkleCommit', 'non-canonical value', 'NON_CANONICAL', () => p.merkleCommit(v, { width: 2 }))),
    fc.constant(c('merkleCommit', 'a destroyed NttMatrix', 'DESTROYED', () => p.merkleCommit(f.destroyedMatrix))),
    fc.constant(c('merkleCommit', "another prover's NttMatrix", 'INVALID_ARGUMENT', () => p.merkleCommit(f.foreignMatrix))),
    fc
      .oneof(notInt, fc.constantFrom(-1, TREE_ROWS, 2 ** 32))
      .map((i) => c('MerkleTree.open', `index ${String(i)}`, 'INVALID_ARGUMENT', () => f.tree.open(i as never))),
    notOptions.map((o) => c('commit', 'options not an object', 'INVALID_ARGUMENT', () => p.commit(canon(8), o as never))),
    fc
      .oneof(notInt, fc.constant(28))
      .map((a) => c('commit', `addedBits ${String(a)}`, 'INVALID_ARGUMENT', () => p.commit(canon(8), { width: 2, addedBits: a as never }))),
    fc
      .integer({ min: 26, max: 27 })
      .map((a) => c('commit', `addedBits ${a} at height 4`, 'TOO_LARGE', () => p.commit(canon(8), { width: 2, addedBits: a }))),
    notTyped.map((v) =>
      c('commit', 'coeffs not a Uint32Array', 'INVALID_ARGUMENT', () => p.commit(v as never, { width: 2, addedBits: 1 })),
    ),
    badLength((n) => n > 0 && n % 2 === 0 && ((n / 2) & (n / 2 - 1)) === 0).map((n) =>
      c('commit', `${n} coeffs in rows of 2`, 'INVALID_LENGTH', () => p.commit(canon(n), { width: 2, addedBits: 1 })),
    ),
    nonCanonical(8).map((v) => c('commit', 'non-canonical coefficient', 'NON_CANONICAL', () => p.commit(v, { width: 2, addedBits: 1 }))),
    notTyped.map((ch) => c('grind', 'not a DuplexChallenger', 'INVALID_ARGUMENT', () => p.grind(ch as never, 4))),
    fc
      .oneof(notInt, fc.constantFrom(31, 64))
      .map((b) => c('grind', `bits ${String(b)}`, 'INVALID_ARGUMENT', () => p.grind(new DuplexChallenger(), b as never))),
  ];
}

function msm(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const p = f.prover;
  const pts = [G.BASE, G.BASE.double()];
  const c = (method: string, fault: string, expect: ProverErrorCode, call: () => unknown): BadCall => ({ method, fault, expect, call });
  const sparse = () => {
    const a = [G.BASE, G.BASE];
    delete (a as unknown[])[1];
    return a;
  };
  const packedAt = (x: bigint, y: bigint) => beBytes32(y, beBytes32(x, new Uint8Array(64)), 32);
  // Uint8Arrays are a legal type for points and scalars (packed bytes): their faults are lengths.
  const wrongType = notTyped.filter((v) => !(v instanceof Uint8Array));
  const pointFaults = fc.oneof(
    wrongType
      .filter((v) => !Array.isArray(v) || v.length > 0)
      .map((v) => ({
        fault: `points ${Array.isArray(v) ? 'of numbers' : 'not an array'}`,
        expect: 'INVALID_ARGUMENT' as ProverErrorCode,
        v,
      })),
    fc.constant({ fault: 'points sparse', expect: 'INVALID_ARGUMENT' as ProverErrorCode, v: sparse() as unknown }),
    fc.constant({ fault: 'no points', expect: 'INVALID_LENGTH' as ProverErrorCode, v: [] as unknown }),
    fc
      .integer({ min: 1, max: 200 })
      .filter((n) => n % 64 !== 0)
      .map((n) => ({ fault: `${n} packed bytes`, expect: 'INVALID_LENGTH' as ProverErrorCode, v: new Uint8Array(n) as unknown })),
    fc
      .bigInt({ min: FQ_P, max: (1n << 256n) - 1n })
      .map((x) => ({ fault: 'coordinate >= p', expect: 'NON_CANONICAL' as ProverErrorCode, v: packedAt(x, 2n) as unknown })),
    fc
      .bigInt({ min: 1n, max: 1000n })
      .map((x) => ({ fault: 'not on the curve', expect: 'NOT_ON_CURVE' as ProverErrorCode, v: packedAt(x, 5n) as unknown })),
  );
  /**
   * Scalar faults for n points, one at a time (every other scalar a valid bigint); over a handle
   * (`slice`) fewer scalars than points are a legal slice, so its length faults are all too many.
   */
  const scalarFaults = (n: number, slice = false) => {
    const ones = () => Array.from({ length: n }, () => 1n as unknown);
    const withAt = (v: unknown) => {
      const a = ones();
      a[n - 1] = v;
      return a;
    };
    const holey = () => {
      const a = ones();
      delete a[0];
      return a;
    };
    return fc.oneof(
      wrongType
        .filter((v) => !Array.isArray(v))
        .map((v) => ({ fault: 'scalars of the wrong type', expect: 'INVALID_ARGUMENT' as ProverErrorCode, v })),
      fc.constant({ fault: 'a hole in the scalars', expect: 'INVALID_ARGUMENT' as ProverErrorCode, v: holey() as unknown }),
      fc
        .constantFrom<unknown>(1, '1', null, undefined, 1.5)
        .map((k) => ({ fault: `scalar ${String(k)}`, expect: 'INVALID_ARGUMENT' as ProverErrorCode, v: withAt(k) as unknown })),
      fc
        .oneof(fc.bigInt({ min: FR_R, max: (1n << 256n) - 1n }), fc.bigInt({ min: -(1n << 256n), max: -1n }))
        .map((k) => ({ fault: 'scalar outside [0, r)', expect: 'NON_CANONICAL' as ProverErrorCode, v: withAt(k) as unknown })),
      fc.constantFrom(slice ? n + 2 : n - 1, n + 1).map((m) => ({
        fault: `${m} scalars for ${n} points`,
        expect: 'INVALID_LENGTH' as ProverErrorCode,
        v: Array.from({ length: m }, () => 1n) as unknown,
      })),
      fc.constantFrom(0, 32 * n - 1, 32 * n + 1, 64 * n, ...(slice ? [] : [32 * n - 32])).map((b) => ({
        fault: `${b} packed scalar bytes for ${n} points`,
        expect: 'INVALID_LENGTH' as ProverErrorCode,
        v: new Uint8Array(b) as unknown,
      })),
    );
  };
  const tuning = fc.oneof(
    fc.oneof(notInt, fc.constantFrom(0, 1, 3, 17, 32)).map((v) => ({ c: v })),
    fc.oneof(notInt, fc.constantFrom(0, 3, 32)).map((v) => ({ S: v })),
    fc.oneof(notInt, fc.constantFrom(0, 65)).map((v) => ({ slice: v })),
    fc.tuple(fc.constantFrom('mul13', 'wgInv', 'riders', 'lowMemory'), notBool).map(([k, v]) => ({ [k]: v })),
    fc.oneof(notInt, fc.constantFrom(0, 100)).map((v) => ({ pairBytes: v })),
    fc.oneof(notInt, fc.constant(0)).map((v) => ({ scratchBytes: v })),
    fc.oneof(notInt, fc.constantFrom(0, 32, 100, 1 << 16)).map((v) => ({ walkWg: v })),
    fc.oneof(notInt, fc.constantFrom(0, 48, 1 << 16)).map((v) => ({ fixWg: v })),
    fc.oneof(notInt, fc.constantFrom(0, 65)).map((v) => ({ parts: v })),
    fc.constantFrom<unknown>({ C: 8 }, { foo: 1 }, { [Symbol('k')]: 1 }, null, 5, 'fast'),
  );
  return [
    // One scalar per point the fault leaves countable, so the scalars are never the fault.
    pointFaults.map((x) =>
      c('msm', x.fault, x.expect, () =>
        p.msm(
          x.v as never,
          Array.from({ length: scalarCount(x.v) }, () => 1n),
        ),
      ),
    ),
    pointFaults.map((x) => c('msmBases', x.fault, x.expect, () => p.msmBases(x.v as never))),
    scalarFaults(pts.length).map((x) => c('msm', x.fault, x.expect, () => p.msm(pts, x.v as never))),
    scalarFaults(f.bases.n, true).map((x) => c('MsmBases.msm', x.fault, x.expect, () => f.bases.msm(x.v as never))),
    // A vector of a batch at fault gives the code it gives alone; a batch of no vectors or of two lengths, INVALID_LENGTH.
    scalarFaults(f.bases.n, true).map((x) => c('MsmBases.msmBatch', x.fault, x.expect, () => f.bases.msmBatch([[1n, 2n], x.v as never]))),
    fc
      .constantFrom<[string, ProverErrorCode, unknown]>(
        ['no vectors', 'INVALID_LENGTH', []],
        ['vectors of two lengths', 'INVALID_LENGTH', [[1n], [1n, 2n]]],
        ['not an array', 'INVALID_ARGUMENT', new Uint8Array(32)],
        ['a hole', 'INVALID_ARGUMENT', [, [1n]]],
      )
      .map(([fault, expect, v]) => c('MsmBases.msmBatch', fault, expect, () => f.bases.msmBatch(v as never))),
    // Slices: an offset outside the bases or not an integer; a slice past the end; a byte order that is neither.
    fc
      .oneof(notInt, fc.constantFrom(f.bases.n, 2 ** 32))
      .map((o) => c('MsmBases.msm', `offset ${String(o)}`, 'INVALID_ARGUMENT', () => f.bases.msm([1n], { offset: o as number }))),
    fc.integer({ min: 0, max: f.bases.n - 1 }).map((o) =>
      c('MsmBases.msm', `slice past the end from ${o}`, 'INVALID_LENGTH', () =>
        f.bases.msm(
          Array.from({ length: f.bases.n - o + 1 }, () => 1n),
          { offset: o },
        ),
      ),
    ),
    fc
      .constantFrom<unknown>('LE', 'little', 1, null, true)
      .map((e) =>
        c('MsmBases.msm', `endian ${String(e)}`, 'INVALID_ARGUMENT', () => f.bases.msm(new Uint8Array(32), { endian: e as 'le' })),
      ),
    fc.constant(
      c('msm', 'an offset on the one-shot msm', 'INVALID_ARGUMENT', () =>
        p.msm(
          pts,
          pts.map(() => 1n),
          { offset: 1 },
        ),
      ),
    ),
    tuning.map((t) =>
      c(
        'MsmBases.msmProfiled',
        `tuning ${typeof t === 'object' && t ? Object.keys(t).join(',') || 'symbol key' : String(t)}`,
        'INVALID_ARGUMENT',
        () => f.bases.msmProfiled([1n, 2n, 3n, 4n], t as never),
      ),
    ),
  ];
}

/** Scalars msm() needs for `points` to get past the count check. */
function scalarCount(points: unknown): number {
  if (points instanceof Uint8Array) return Math.max(1, Math.floor(points.length / 64));
  return Array.isArray(points) && points.length > 0 ? points.length : 2;
}

function standalone(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const { root, index, row, siblings } = f.opening;
  const c = (method: string, fault: string, expect: ProverErrorCode | false, call: () => unknown): BadCall => ({
    method,
    fault,
    expect,
    call,
  });
  const verify = 'verifyMerklePath';
  const edit = fc.tuple(fc.nat(), fc.constantFrom(1, -1, BB_P, 2 ** 32));
  const bump = (xs: ArrayLike<number>, at: number, d: number) => Array.from(xs, (x, i) => (i === at % xs.length ? x + d : x));
  const ch = () => new DuplexChallenger();
  return [
    edit.map(([at, d]) =>
      c(verify, `row value ${d > 0 ? '+' : ''}${d}`, false, () =>
        verifyMerklePath(root, index, bump(row, at, d === -1 && row[at % row.length] === 0 ? 1 : d), siblings),
      ),
    ),
    fc.tuple(fc.nat({ max: siblings.length - 1 }), edit).map(([l, [at, d]]) =>
      c(verify, `sibling ${l} value ${d}`, false, () =>
        verifyMerklePath(
          root,
          index,
          row,
          siblings.map((s, k) => (k === l ? bump(s, at, d === -1 && s[at % 8] === 0 ? 1 : d) : s)),
        ),
      ),
    ),
    edit.map(([at, d]) =>
      c(verify, `root value ${d}`, false, () =>
        verifyMerklePath(bump(root, at, d === -1 && root[at % 8] === 0 ? 1 : d), index, row, siblings),
      ),
    ),
    fc
      .integer({ min: -4, max: 20 })
      .filter((i) => i !== index)
      .map((i) => c(verify, `index ${i}`, false, () => verifyMerklePath(root, i, row, siblings))),
    fc.constant(
      c(verify, 'siblings swapped', false, () => verifyMerklePath(root, index, row, [siblings[1], siblings[0], ...siblings.slice(2)])),
    ),
    fc.constant(c(verify, 'a sibling dropped', false, () => verifyMerklePath(root, index, row, siblings.slice(1)))),
    fc.constant(
      c(verify, 'row padded with a zero, width given', false, () =>
        verifyMerklePath(root, index, [...row, 0], siblings, { width: TREE_WIDTH, height: TREE_ROWS }),
      ),
    ),
    fc.tuple(fc.nat({ max: 3 }), fc.constantFrom<unknown>(null, undefined, 5, 'x', Symbol('v'), {}, new Map())).map(([k, v]) =>
      c(verify, `argument ${k} of the wrong type`, 'INVALID_ARGUMENT', () => {
        const args: unknown[] = [root, index, row, siblings];
        args[k] = k === 1 && typeof v === 'number' ? 'x' : v;
        return (verifyMerklePath as (...a: unknown[]) => boolean)(...args);
      }),
    ),
    fc
      .oneof(
        notInt.filter((v) => typeof v !== 'number'),
        fc.constantFrom(-1, 1.5, NaN),
      )
      .map((x) => c('DuplexChallenger.observe', `value ${String(x)}`, 'INVALID_ARGUMENT', () => ch().observe(x as never))),
    fc.integer({ min: BB_P, max: 2 ** 40 }).map((x) => c('DuplexChallenger.observe', `value ${x}`, 'NON_CANONICAL', () => ch().observe(x))),
    fc
      .constantFrom<unknown>(null, undefined, 5, 'abc', Symbol('s'), {})
      .map((x) => c('DuplexChallenger.observeSlice', 'not a list', 'INVALID_ARGUMENT', () => ch().observeSlice(x as never))),
    fc.integer({ min: BB_P, max: 2 ** 32 - 1 }).map((x) =>
      c('DuplexChallenger.observeSlice', 'a non-canonical value', 'NON_CANONICAL', () => {
        const d = ch();
        const before = JSON.stringify(d.snapshot());
        try {
          d.observeSlice([1, 2, 3, x]);
        } finally {
          // Nothing may be absorbed from a slice that fails: the transcript is unchanged.
          if (JSON.stringify(d.snapshot()) !== before) throw new Error('observeSlice absorbed part of a bad slice');
        }
      }),
    ),
    fc
      .oneof(notInt, fc.constantFrom(31, 32))
      .map((b) => c('DuplexChallenger.sampleBits', `bits ${String(b)}`, 'INVALID_ARGUMENT', () => ch().sampleBits(b as never))),
    fc
      .oneof(notInt, fc.constantFrom(31))
      .map((b) => c('DuplexChallenger.checkWitness', `bits ${String(b)}`, 'INVALID_ARGUMENT', () => ch().checkWitness(b as never, 0))),
    fc
      .constantFrom<unknown>(
        null,
        5,
        'x',
        Symbol('o'),
        { gpu: 5 },
        { gpu: {} },
        { powerPreference: 'fast' },
        { forceFallbackAdapter: 'yes' },
        { check: 'fast' },
        { check: true },
        { selfCheck: 'no' },
        { fallback: 'gpu' },
        { fallback: true },
      )
      .map((o) => c('createProver', 'bad options', 'INVALID_ARGUMENT', () => createProver(o as never))),
    fc.constantFrom('batchField', 'dft', 'poseidon2', 'merkleCommit', 'msm', 'grind').map((k) =>
      c(k, 'prover destroyed', 'DESTROYED', () => {
        const d = f.deadProver as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        const args: Record<string, unknown[]> = {
          batchField: ['square', canon(4)],
          dft: [canon(4), { width: 1 }],
          poseidon2: [canon(16), { width: 16 }],
          merkleCommit: [canon(4), { width: 1 }],
          msm: [[G.BASE], [1n]],
          grind: [new DuplexChallenger(), 1],
        };
        return d[k](...args[k]);
      }),
    ),
  ];
}

/**
 * Every job method with valid input and one bad job option: a signal already aborted (ABORTED,
 * an AbortError), or a check mode that does not exist (INVALID_ARGUMENT).
 */
function jobOptions(f: Fixtures): fc.Arbitrary<BadCall>[] {
  const p = f.prover;
  type Job = { signal?: AbortSignal; check?: 'off' };
  const calls: [string, (o: Job) => Promise<unknown>][] = [
    ['batchField', (o) => p.batchField('mul', canon(4), canon(4), o)],
    ['dft', (o) => p.dft(canon(8), { width: 2, ...o })],
    ['idft', (o) => p.idft(canon(8), { width: 2, ...o })],
    ['lde', (o) => p.lde(canon(8), { width: 2, addedBits: 1, shift: 31, ...o })],
    ['encode', (o) => p.encode(canon(8), { width: 2, addedBits: 1, ...o })],
    ['poseidon2', (o) => p.poseidon2(canon(16), { width: 16, ...o })],
    ['merkleCommit', (o) => p.merkleCommit(canon(8), { width: 2, ...o })],
    ['commit', (o) => p.commit(canon(8), { width: 2, addedBits: 1, ...o })],
    ['grind', (o) => p.grind(new DuplexChallenger(), 4, o)],
    ['msm', (o) => p.msm([G.BASE], [3n], o)],
    ['msmBases', (o) => p.msmBases([G.BASE], o)],
    ['NttMatrix.read', (o) => f.matrix.read(o)],
    ['MerkleTree.open', (o) => f.tree.open(1, o)],
    ['MsmBases.msm', (o) => f.bases.msm([1n, 2n, 3n, 4n], o)],
    [
      'MsmBases.msmBatch',
      (o) =>
        f.bases.msmBatch(
          [
            [1n, 2n],
            [3n, 4n],
          ],
          o,
        ),
    ],
  ];
  const signal = () => {
    const c = new AbortController();
    c.abort();
    return c.signal;
  };
  return calls.flatMap(([method, call]) => [
    fc.constant<BadCall>({ method, fault: 'an aborted signal', expect: 'ABORTED', call: () => call({ signal: signal() }) }),
    fc.constantFrom<unknown>('fast', 'Sample', true, 0).map(
      (check) =>
        ({
          method,
          fault: `check ${String(check)}`,
          expect: 'INVALID_ARGUMENT',
          call: () => call({ check: check as 'off' }),
        }) satisfies BadCall,
    ),
  ]);
}

/**
 * Every kind of bad call, one arbitrary each. badCalls draws among them alike; the check also
 * draws a few of each first, so every kind (and every method) is exercised in every run, not
 * only most runs (300 draws over ~80 kinds missed one in about one run of twenty).
 */
export function badCallKinds(f: Fixtures): fc.Arbitrary<BadCall>[] {
  return [...field(f), ...ntt(f), ...handles(f), ...hash(f), ...msm(f), ...standalone(f), ...jobOptions(f)];
}

export function badCalls(f: Fixtures): fc.Arbitrary<BadCall> {
  return fc.oneof(...badCallKinds(f));
}

/** The methods badCalls covers: a run that misses one of them fails. */
export const COVERED_METHODS = [
  'batchField',
  'dft',
  'idft',
  'lde',
  'encode',
  'NttMatrix.read',
  'poseidon2',
  'merkleCommit',
  'MerkleTree.open',
  'commit',
  'grind',
  'msm',
  'msmBases',
  'MsmBases.msm',
  'MsmBases.msmBatch',
  'MsmBases.msmProfiled',
  'verifyMerklePath',
  'DuplexChallenger.observe',
  'DuplexChallenger.observeSlice',
  'DuplexChallenger.sampleBits',
  'DuplexChallenger.checkWitness',
  'createProver',
];
