/**
 * GPU Merkle commitments (prover.merkleCommit, tree.open) against Plonky3 MerkleTreeMmcs
 * outputs (test/vectors/merkle.json: heights 2^0..2^12 x widths 1, 8, 16, 64) and the sponge
 * digests of sponge.json (read back as level-0 siblings); openings verified with
 * verifyMerklePath; plus bad-input codes. Run by the `merkle-check` mode and `bench merkle`.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import { verifyMerklePath } from '../../src/api/verify.js';
import { inputValues, type SeededInput } from './hash-vectors.js';
import { expectCode, type CheckRow } from './poseidon2-check.js';

type MerkleCase = {
  id?: string;
  log_h?: number;
  width?: number;
  cap_height: number;
  root?: number[];
  inputs: Array<SeededInput & { width: number; height: number }>;
  openings: Array<{ index: number; opened_values: number[][]; proof: number[][] }>;
};
type SpongeCase = { op: string; id?: string; width?: number; input: SeededInput & { rows?: number[][] }; digests: number[][] };

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

/** Single-matrix, cap-0, power-of-two cases whose log height is at most maxLogH. */
export async function checkMerkle(prover: Prover, vectors: { cases: MerkleCase[] }, maxLogH = 12): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  const cases = vectors.cases.filter(
    (c) =>
      c.inputs.length === 1 &&
      c.cap_height === 0 &&
      c.root &&
      (c.inputs[0].height & (c.inputs[0].height - 1)) === 0 &&
      Math.log2(c.inputs[0].height) <= maxLogH,
  );
  for (const c of cases) {
    const m = c.inputs[0];
    const t0 = performance.now();
    const { root, tree } = await prover.merkleCommit(inputValues(m), { width: m.width });
    const problems: string[] = [];
    if (!same(root, c.root!)) problems.push(`root ${Array.from(root).join(',')} != ${c.root!.join(',')}`);
    for (const o of c.openings) {
      const { row, siblings } = await tree.open(o.index);
      if (!same(row, o.opened_values[0])) problems.push(`open(${o.index}) row differs`);
      if (siblings.length !== o.proof.length || siblings.some((s, l) => !same(s, o.proof[l])))
        problems.push(`open(${o.index}) siblings differ`);
      if (!verifyMerklePath(root, o.index, row, siblings)) problems.push(`open(${o.index}) does not verify`);
    }
    // openMany: Plonky3's openings in any order and repeated, plus enough rows for the GPU gather
    // pass (8 or more), each equal to its single open().
    const many = [
      ...c.openings.map((o) => o.index),
      ...Array.from({ length: 12 }, (_, k) => (k * 7919) % m.height),
      c.openings[0]?.index ?? 0,
    ];
    const batch = await tree.openMany(many);
    for (const [k, index] of many.entries()) {
      const single = await tree.open(index);
      if (
        !same(batch[k].row, single.row) ||
        batch[k].siblings.length !== single.siblings.length ||
        batch[k].siblings.some((s, l) => !same(s, single.siblings[l]))
      ) {
        problems.push(`openMany[${k}] (row ${index}) differs from open(${index})`);
        break;
      }
    }
    tree.dispose();
    rows.push({
      step: `merkle ${c.id ?? `2^${Math.log2(m.height)} x ${m.width}`}`,
      ok: problems.length === 0,
      n: m.height,
      ms: performance.now() - t0,
      detail: problems.length
        ? problems[0]
        : `root + ${c.openings.length} openings equal Plonky3; openMany of ${c.openings.length + 13} rows equals open`,
    });
  }
  return rows;
}

/** sponge.json rows of width >= 1 (4 rows each): the GPU leaf digests, read back as level-0 siblings, equal Plonky3's. */
export async function checkSponge(prover: Prover, vectors: { cases: SpongeCase[] }): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  for (const c of vectors.cases.filter((c) => c.op === 'hash_rows' && c.width !== undefined && c.width > 0)) {
    const w = c.width!;
    const t0 = performance.now();
    const { tree } = await prover.merkleCommit(inputValues(c.input), { width: w });
    const digests: Uint32Array[] = [];
    for (let i = 0; i < c.digests.length; i++) digests.push((await tree.open(i ^ 1)).siblings[0]);
    tree.dispose();
    const ok = digests.every((d, i) => same(d, c.digests[i]));
    rows.push({
      step: `sponge width ${w}`,
      ok,
      n: c.digests.length,
      ms: performance.now() - t0,
      detail: ok ? `${c.digests.length} digests equal Plonky3` : 'a digest differs',
    });
  }
  return rows;
}

export async function checkMerkleErrors(prover: Prover): Promise<CheckRow[]> {
  const { tree } = await prover.merkleCommit(new Uint32Array([1, 2, 3, 4]), { width: 1 });
  const out = [
    await expectCode(prover, 'merkle height 3 (not a power of two)', 'INVALID_LENGTH', () =>
      prover.merkleCommit(new Uint32Array(3), { width: 1 }),
    ),
    await expectCode(prover, 'merkle length not a multiple of width', 'INVALID_LENGTH', () =>
      prover.merkleCommit(new Uint32Array(10), { width: 4 }),
    ),
    await expectCode(prover, 'merkle width 0', 'INVALID_ARGUMENT', () => prover.merkleCommit(new Uint32Array(4), { width: 0 })),
    await expectCode(prover, 'merkle width 4097', 'INVALID_ARGUMENT', () => prover.merkleCommit(new Uint32Array(4097), { width: 4097 })),
    await expectCode(prover, 'merkle non-canonical', 'NON_CANONICAL', () =>
      prover.merkleCommit(new Uint32Array([0, 2013265921]), { width: 1 }),
    ),
    await expectCode(prover, 'merkle open index 4 of 4', 'INVALID_ARGUMENT', () => tree.open(4)),
    await expectCode(prover, 'merkle open index -1', 'INVALID_ARGUMENT', () => tree.open(-1)),
  ];
  tree.dispose();
  out.push(await expectCode(prover, 'merkle open after dispose', 'DESTROYED', () => tree.open(0)));
  return out;
}
