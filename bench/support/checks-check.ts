/**
 * The self-check, the run-time checks and the CPU fallback, wherever a Prover runs (dev page
 * `checks-check` on the GPU, `fallback-check` on a page without WebGPU; Chromium in CI):
 * - one job of every family on the page's prover equals src/ref or noble, and every family stays
 *   on the GPU; each family's answers are summarized as a digest, which the fallback page's CPU
 *   path must reproduce exactly (test/e2e/checks.spec.ts compares them);
 * - every family forced wrong (the CORRUPT_FAMILY hook) on a fresh prover is caught by its
 *   self-check and moves to the CPU, whose answers are right;
 * - with the self-check off, check 'sample' catches each forced-wrong family with CHECK_FAILED,
 *   moves it, and the next job is right.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { knownGroth16 } from '../../src/checks/known-answer.js';
import { outputVerifies, verifyingKeyFromJson } from '../../src/groth16/proof-check.js';
import { sameLimits } from './same-limits.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { createProver, DuplexChallenger, isProverError, verifyMerklePath, type Prover } from '../../src/index.js';
import { CORRUPT_FAMILY } from '../../src/checks/corrupt.js';
import { FAMILIES, type Family } from '../../src/methods.js';
import * as ref from '../../src/ref/ntt.js';
import { bbMul, bbPow7 } from '../../src/field/babybear.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { merkleTree } from '../../src/ref/merkle.js';
import { SplitMix64 } from './splitmix.js';
import type { RuntimeRow } from './runtime-check.js';

const G = bn254.G1.Point;
const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

/** FNV-1a (32-bit) of a string, hex: equal answers give equal digests. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** One job of `family` (inputs from `seed`): its answer as a string, and whether it equals the reference. */
async function familyJob(p: Prover, family: Family, seed: number): Promise<{ answer: string; right: boolean }> {
  const rng = new SplitMix64(seed);
  const v = (n: number) => rng.fieldArray(n);
  const join = (...xs: ArrayLike<number>[]) => xs.map((x) => Array.from(x).join(',')).join('|');
  switch (family) {
    case 'field': {
      const a = v(256),
        b = v(256);
      const mul = await p.batchField('mul', a, b),
        pow = await p.batchField('pow7', a),
        inv = await p.batchField('ext4Inv', a);
      return {
        answer: join(mul, pow, inv),
        right:
          same(
            mul,
            Array.from(a, (x, i) => bbMul(x, b[i])),
          ) && same(pow, Array.from(a, bbPow7)),
      };
    }
    case 'ntt': {
      const x = v(128 * 4);
      const lde = await p.lde(x, { width: 4, addedBits: 1, shift: 31, bitReversedOutput: true });
      const kept = await p.encode(x, { width: 4, addedBits: 2, gpu: true });
      const enc = await kept.read();
      kept.destroy();
      const idft = await p.idft(x, { width: 4 });
      return {
        answer: join(lde, enc, idft),
        right: same(lde, ref.bitReverseRows(ref.cosetLde(x, 4, 1, 31), 4)) && same(enc, ref.encode(x, 4, 2)) && same(idft, ref.idft(x, 4)),
      };
    }
    case 'poseidon2': {
      const s16 = v(64),
        s24 = v(24);
      const a = await p.poseidon2(s16, { width: 16 }),
        b = await p.poseidon2(s24, { width: 24 });
      return {
        answer: join(a, b),
        right:
          same(
            a,
            [0, 16, 32, 48].flatMap((o) => Array.from(poseidon2(s16.subarray(o, o + 16)))),
          ) && same(b, poseidon2(s24)),
      };
    }
    case 'merkle': {
      const m = v(64 * 8);
      const { root, tree } = await p.merkleCommit(m, { width: 8 });
      const o = await tree.open(37);
      tree.dispose();
      return {
        answer: join(root, o.row, ...o.siblings),
        right: same(root, merkleTree([{ values: m, width: 8 }]).root) && verifyMerklePath(root, 37, o.row, o.siblings),
      };
    }
    case 'commit': {
      const c = v(32 * 4);
      const { root, tree } = await p.commit(c, { width: 4, addedBits: 2 });
      const o = await tree.open(100);
      tree.dispose();
      return {
        answer: join(root, o.row),
        right:
          same(root, merkleTree([{ values: ref.encode(c, 4, 2), width: 4 }]).root) && same(o.row, ref.encode(c, 4, 2).subarray(400, 404)),
      };
    }
    case 'grind': {
      const ch = new DuplexChallenger();
      ch.observeSlice(v(3));
      const twin = ch.clone();
      const w = await p.grind(ch, 8);
      return {
        answer: `${w}|${ch.sample()}`,
        right: w === twin.grind(8) && ch.snapshot().state.join() === (twin.sample(), twin.snapshot().state.join()),
      };
    }
    case 'msm': {
      const pts = Array.from({ length: 64 }, (_, i) => G.BASE.multiply(BigInt(rng.nextField() + i + 1)));
      const ks = pts.map(() => (rng.next() << 150n) % bn254.fields.Fr.ORDER);
      const q = await p.msm(pts, ks);
      const bases = await p.msmBases(pts);
      const q2 = await bases.msm(ks.map((k) => (k * 3n) % bn254.fields.Fr.ORDER));
      bases.destroy();
      return { answer: `${q.toHex()}|${q2.toHex()}`, right: q.equals(pippenger(G, pts, ks)) && q2.equals(q.multiply(3n)) };
    }
    case 'groth16': {
      // Proofs are blinded afresh: the answer is what is fixed (the public signals) and the verdict.
      const { zkey, wtns } = await knownGroth16();
      const key = await p.groth16(zkey);
      try {
        const out = await key.prove(wtns);
        const verifies = outputVerifies(verifyingKeyFromJson(key.verificationKey()), out);
        return { answer: `${out.publicSignals.join(',')}|${verifies}`, right: verifies };
      } finally {
        key.destroy();
      }
    }
  }
}

const SEED = 0xc4ec;

async function timed(step: string, f: () => Promise<string>): Promise<RuntimeRow> {
  const t0 = performance.now();
  try {
    const problem = await f();
    return { step, ok: problem.startsWith('ok: '), ms: performance.now() - t0, detail: problem.replace(/^ok: /, '') };
  } catch (e) {
    return { step, ok: false, ms: performance.now() - t0, detail: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
  }
}

/**
 * Every family's job on `prover`: right answers on the path it reports. Digests go into the
 * detail as `family=digest` pairs (the fallback comparison reads them).
 */
export async function checkFamilyAnswers(prover: Prover, path: 'gpu' | 'cpu'): Promise<RuntimeRow> {
  return timed(`every family's answers are right on the ${path} path`, async () => {
    const digests: string[] = [];
    const wrong: string[] = [];
    for (const f of FAMILIES) {
      const { answer, right } = await familyJob(prover, f, SEED + FAMILIES.indexOf(f));
      if (!right) wrong.push(f);
      digests.push(`${f}=${fnv(answer)}`);
    }
    const caps = prover.capabilities();
    const moved = FAMILIES.filter((f) => caps[f].path !== path);
    if (wrong.length) return `wrong: ${wrong.join(', ')}`;
    if (moved.length) return `not on the ${path} path: ${moved.map((f) => `${f} (${caps[f].reason ?? caps[f].path})`).join(', ')}`;
    return `ok: ${digests.join(' ')}`;
  });
}

const corrupt = (p: Prover, f: Family) => (p as unknown as Record<symbol, (f: Family) => void>)[CORRUPT_FAMILY](f);

export async function checkFamilies(prover: Prover): Promise<RuntimeRow[]> {
  const rows = [await checkFamilyAnswers(prover, 'gpu')];
  const worker = { ...(prover.info.worker ? {} : { worker: false }), ...sameLimits(prover) };

  rows.push(
    await timed('a family forced wrong is caught by its self-check and runs on the CPU', async () => {
      const p = await createProver(worker);
      try {
        for (const f of FAMILIES) corrupt(p, f);
        const bad: string[] = [];
        for (const f of FAMILIES) {
          if (!(await familyJob(p, f, SEED)).right) bad.push(`${f}: wrong answer`);
          const c = p.capabilities()[f];
          if (c.path !== 'cpu' || !/self-check/.test(c.reason ?? '')) bad.push(`${f}: ${c.path} (${c.reason})`);
        }
        return bad.length ? bad.join('; ') : `ok: all ${FAMILIES.length} families moved; e.g. ntt: ${p.capabilities().ntt.reason}`;
      } finally {
        p.destroy();
      }
    }),
  );

  rows.push(
    await timed("check 'sample' catches a family forced wrong with CHECK_FAILED; the next job is right", async () => {
      const p = await createProver({ ...worker, selfCheck: false });
      try {
        for (const f of FAMILIES) corrupt(p, f);
        const bad: string[] = [];
        for (const f of FAMILIES) {
          const first = await familyJob(p, f, SEED).then(
            () => 'resolved',
            (e: unknown) => (isProverError(e) ? e.code : String(e)),
          );
          if (first !== 'CHECK_FAILED') bad.push(`${f}: first job ${first}`);
          const c = p.capabilities()[f];
          if (c.path !== 'cpu' || !/run-time check/.test(c.reason ?? '')) bad.push(`${f}: ${c.path} (${c.reason})`);
          if (!(await familyJob(p, f, SEED)).right) bad.push(`${f}: next job wrong`);
        }
        return bad.length ? bad.join('; ') : `ok: all ${FAMILIES.length} families; e.g. merkle: ${p.capabilities().merkle.reason}`;
      } finally {
        p.destroy();
      }
    }),
  );
  return rows;
}
