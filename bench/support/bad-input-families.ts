/**
 * Bad calls of the field, NTT, handle and hashing methods (fast-check arbitraries; bad-input-cases.ts joins every family's).
 * @module
 */
import fc from 'fast-check';
import { DuplexChallenger, type ProverErrorCode } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import {
  type BadCall,
  badLength,
  canon,
  detached,
  type Fixtures,
  nonCanonical,
  notBool,
  notInt,
  notOptions,
  notTyped,
  TREE_ROWS,
} from './bad-input-shared.js';

export function field(f: Fixtures): fc.Arbitrary<BadCall>[] {
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

export function ntt(f: Fixtures): fc.Arbitrary<BadCall>[] {
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
    // The field option: validated as poseidon2's and batchField's; KoalaBear's range and 2^24 rows.
    fc
      .tuple(op, fc.constantFrom<unknown>('goldilocks', 'KoalaBear', 'BabyBear', '', null, 5, Symbol('f'), {}, ['koalabear']))
      .map(([o, k]) => c(o, `field ${String(k)}`, 'INVALID_ARGUMENT', canon(8), { ...good(o), field: k })),
    fc
      .tuple(op, fc.integer({ min: KOALA_BEAR.p, max: 2 ** 32 - 1 }))
      .map(([o, v]) => c(o, `KoalaBear value ${v}`, 'NON_CANONICAL', Uint32Array.from([1, 2, 3, v]), { ...good(o), field: 'koalabear' })),
    fc
      .tuple(fc.constantFrom('lde', 'encode'), fc.integer({ min: 23, max: 24 }))
      .map(([o, a]) =>
        c(o, `KoalaBear addedBits ${a} at height 4`, 'TOO_LARGE', canon(8), { ...good(o), addedBits: a, field: 'koalabear' }),
      ),
    fc
      .constantFrom('lde', 'encode')
      .map((o) => c(o, 'KoalaBear addedBits 25', 'INVALID_ARGUMENT', canon(8), { ...good(o), addedBits: 25, field: 'koalabear' })),
    op.map((o) => c(o, 'a destroyed NttMatrix', 'DESTROYED', f.destroyedMatrix, good(o))),
    op.map((o) => c(o, "another prover's NttMatrix", 'INVALID_ARGUMENT', f.foreignMatrix, good(o))),
    fc
      .tuple(op, fc.constantFrom(1, 3, 4))
      .map(([o, w]) => c(o, `width ${w} for a 2-column NttMatrix`, 'INVALID_ARGUMENT', f.matrix, { ...good(o), width: w })),
  ];
}

/** Handles in every state: destroyed, disposed, of a destroyed prover (weighted as a family of its own). */
export function handles(f: Fixtures): fc.Arbitrary<BadCall>[] {
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

export function hash(f: Fixtures): fc.Arbitrary<BadCall>[] {
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
