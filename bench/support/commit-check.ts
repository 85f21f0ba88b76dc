/**
 * GPU encode-and-commit (prover.commit) against Plonky3: encode_batch then MerkleTreeMmcs::commit
 * (test/vectors/encode_commit.json: h in {1, 8, 64, 1024} x w in {1, 8, 16} x addedBits 1..2),
 * root and the opening at ⌊5H/8⌋, plus bad-input codes. Also the same codewords made by
 * prover.encode({ gpu: true }) and committed in place by merkleCommit(NttMatrix), opened after the
 * handle is destroyed (the tree keeps its rows). Run by `commit-check` and `bench commit`.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { verifyMerklePath } from '../../src/api/verify.js';
import { inputValues, type SeededInput } from './hash-vectors.js';
import { expectCode, type CheckRow } from './poseidon2-check.js';

type CommitCase = {
  log_h: number;
  width: number;
  added_bits: number;
  input: SeededInput;
  root: number[];
  opening: { index: number; opened_values: number[][]; proof: number[][] };
};

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

export async function checkCommit(prover: Prover, vectors: { cases: CommitCase[] }, maxLogH = 10): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  for (const c of vectors.cases.filter((c) => c.log_h <= maxLogH)) {
    const t0 = performance.now();
    const { root, tree } = await prover.commit(inputValues(c.input), { width: c.width, addedBits: c.added_bits });
    const o = await tree.open(c.opening.index);
    tree.dispose();
    const problems = [
      same(root, c.root) ? '' : 'root differs',
      same(o.row, c.opening.opened_values[0]) ? '' : 'opened codeword row differs',
      o.siblings.length === c.opening.proof.length && o.siblings.every((s, l) => same(s, c.opening.proof[l])) ? '' : 'siblings differ',
      verifyMerklePath(root, c.opening.index, o.row, o.siblings) ? '' : 'opening does not verify',
    ].filter(Boolean);
    rows.push({
      step: `commit 2^${c.log_h} x ${c.width} +${c.added_bits}`,
      ok: problems.length === 0,
      n: 2 ** (c.log_h + c.added_bits),
      ms: performance.now() - t0,
      detail: problems.length ? problems.join('; ') : 'root and opening equal Plonky3 encode + MerkleTreeMmcs',
    });
  }
  return rows;
}

/** encode -> NttMatrix -> merkleCommit in place: Plonky3's root and opening, the opening taken after handle.destroy(). */
export async function checkCommitNttMatrix(prover: Prover, vectors: { cases: CommitCase[] }, maxLogH = 6): Promise<CheckRow> {
  const t0 = performance.now();
  const bad: string[] = [];
  let n = 0;
  for (const c of vectors.cases.filter((c) => c.log_h <= maxLogH)) {
    const tag = `2^${c.log_h} x ${c.width} +${c.added_bits}`;
    const m = await prover.encode(inputValues(c.input), { width: c.width, addedBits: c.added_bits, gpu: true });
    const { root, tree } = await prover.merkleCommit(m);
    m.destroy(); // the tree still holds the rows...
    // ...so a job of the same shape, which would reuse a released buffer from the pool, must not overwrite them.
    const other = await prover.encode(new Uint32Array(2 ** c.log_h * c.width), { width: c.width, addedBits: c.added_bits, gpu: true });
    const o = await tree.open(c.opening.index);
    other.destroy();
    tree.dispose();
    if (!same(root, c.root)) bad.push(`${tag}: root differs`);
    if (!same(o.row, c.opening.opened_values[0]) || !o.siblings.every((s, l) => same(s, c.opening.proof[l])))
      bad.push(`${tag}: opening after destroy() differs`);
    n++;
  }
  const m = await prover.encode(new Uint32Array(8), { width: 2, addedBits: 1, gpu: true });
  const width = await expectCode(prover, 'merkleCommit NttMatrix width mismatch', 'INVALID_ARGUMENT', () =>
    prover.merkleCommit(m, { width: 4 }),
  );
  m.destroy();
  const gone = await expectCode(prover, 'merkleCommit destroyed NttMatrix', 'DESTROYED', () => prover.merkleCommit(m));
  for (const r of [width, gone]) if (!r.ok) bad.push(`${r.step}: ${r.detail}`);
  return {
    step: 'commit NttMatrix in place',
    ok: bad.length === 0 && n > 0,
    n,
    ms: performance.now() - t0,
    detail: bad.length
      ? bad.join('; ')
      : `${n} encode(gpu) -> merkleCommit(NttMatrix) roots and openings (after destroy) equal Plonky3; width mismatch and destroyed handle rejected`,
  };
}

export async function checkCommitErrors(prover: Prover): Promise<CheckRow[]> {
  return [
    await expectCode(prover, 'commit height 3', 'INVALID_LENGTH', () => prover.commit(new Uint32Array(3), { width: 1, addedBits: 1 })),
    await expectCode(prover, 'commit addedBits -1', 'INVALID_ARGUMENT', () =>
      prover.commit(new Uint32Array(4), { width: 1, addedBits: -1 }),
    ),
    await expectCode(prover, 'commit addedBits 26 at height 4', 'TOO_LARGE', () =>
      prover.commit(new Uint32Array(4), { width: 1, addedBits: 26 }),
    ),
    await expectCode(prover, 'commit non-canonical', 'NON_CANONICAL', () =>
      prover.commit(new Uint32Array([5, 2013265921]), { width: 1, addedBits: 1 }),
    ),
  ];
}
