/**
 * Bad calls of the MSM, the standalone functions (verifyMerklePath, DuplexChallenger, createProver) and every job's options (fast-check arbitraries; bad-input-cases.ts joins every family's).
 * @module
 */
import fc from 'fast-check';
import { createProver, DuplexChallenger, verifyMerklePath, type ProverErrorCode } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { beBytes32, FQ_P, FR_R } from '../../src/params/bn254.js';
import { type BadCall, canon, type Fixtures, G, notBool, notInt, notTyped, TREE_ROWS, TREE_WIDTH } from './bad-input-shared.js';

export function msm(f: Fixtures): fc.Arbitrary<BadCall>[] {
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

export function standalone(f: Fixtures): fc.Arbitrary<BadCall>[] {
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
export function jobOptions(f: Fixtures): fc.Arbitrary<BadCall>[] {
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
