// The CPU path (src/cpu/) and the family router (src/families.ts) in Node, no GPU: the CPU
// fallback against the references for every family, its codes, aborts and progress; and the
// router's self-check and run-time checks, with a second CPU path standing in for the GPU and
// the CORRUPT_FAMILY hook making that stand-in's answers wrong.
import { knownGroth16 } from '../../src/checks/known-answer.js';
import { outputVerifies, verifyingKeyFromJson } from '../../src/groth16/proof-check.js';
import type { Groth16Output } from '../../src/groth16/key.js';
import type { Groth16VerifyingKey } from '../../src/groth16/verify.js';
import { describe, it, expect } from 'vitest';
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { createProver, DuplexChallenger, isProverError, verifyMerklePath, type Prover } from '../../src/index.js';
import { routeFamilies } from '../../src/families.js';
import { cpuProver } from '../../src/cpu/prover.js';
import { CORRUPT_FAMILY } from '../../src/checks/corrupt.js';
import { FAMILIES, type Family } from '../../src/methods.js';
import * as ntt from '../../src/ref/ntt.js';
import { bbInv, bbMul, bbPow7, ext4Mul, type Ext4 } from '../../src/field/babybear.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { merkleTree } from '../../src/ref/merkle.js';
import { BB_P } from '../../src/params/babybear.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';
import type { JobProgress } from '../../src/sched/job.js';
import { nttEntry } from '../../src/checks/ntt-entry.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';

const G = bn254.G1.Point;
const rng = new SplitMix64(0x5eed_c0de_2026n);
const values = (n: number) => Uint32Array.from({ length: n }, () => Number(rng.next() % BigInt(BB_P)));
const same = (a: ArrayLike<number>, b: ArrayLike<number>) => expect(Array.from(a)).toEqual(Array.from(b));
const noAdapter = { requestAdapter: async () => null };

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isProverError(e) ? e.code : `raw ${String(e)}`;
  }
}

describe('fallback: cpu without WebGPU', () => {
  it('says where every family runs and why', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    expect(p.info.backend).toBe('cpu');
    const caps = p.capabilities();
    expect(Object.keys(caps).sort()).toEqual([...FAMILIES].sort());
    for (const f of FAMILIES) {
      expect(caps[f].path).toBe('cpu');
      expect(caps[f].reason).toMatch(/no WebGPU/);
    }
    p.destroy();
    expect(await code(p.batchField('add', values(4), values(4)))).toBe('DESTROYED');
  });

  it('equals the references for every family', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const a = values(64),
      b = values(64);
    same(
      await p.batchField('mul', a, b),
      Array.from(a, (v, i) => bbMul(v, b[i])),
    );
    same(await p.batchField('pow7', a), Array.from(a, bbPow7));
    const withZero = Uint32Array.from([0, ...a.subarray(1, 8)]);
    same(
      await p.batchField('inv', withZero),
      Array.from(withZero, (v) => (v === 0 ? 0 : bbInv(v))),
    );
    const e4 = (await p.batchField('ext4Mul', a, b)).subarray(0, 4);
    same(e4, ext4Mul(Array.from(a.subarray(0, 4)) as Ext4, Array.from(b.subarray(0, 4)) as Ext4));

    const m = values(32 * 4);
    same(await p.dft(m, { width: 4 }), ntt.dft(m, 4));
    same(await p.idft(m, { width: 4 }), ntt.idft(m, 4));
    same(await p.lde(m, { width: 4, addedBits: 2, shift: 31 }), ntt.cosetLde(m, 4, 2, 31));
    same(await p.lde(m, { width: 4, addedBits: 1, shift: 7, bitReversedOutput: true }), ntt.bitReverseRows(ntt.cosetLde(m, 4, 1, 7), 4));
    const kept = await p.encode(m, { width: 4, addedBits: 1, gpu: true });
    same(await kept.read(), ntt.encode(m, 4, 1));
    same(await p.dft(kept, {} as never), ntt.dft(ntt.encode(m, 4, 1), 4));

    const states = values(48);
    same(
      await p.poseidon2(states, { width: 16 }),
      [0, 16, 32].flatMap((o) => Array.from(poseidon2(states.subarray(o, o + 16)))),
    );
    const s24 = values(24);
    same(await p.poseidon2(s24, { width: 24 }), poseidon2(s24));

    const rows = values(16 * 5);
    const { root, tree } = await p.merkleCommit(rows, { width: 5 });
    same(root, merkleTree([{ values: rows, width: 5 }]).root);
    const o = await tree.open(11);
    same(o.row, rows.subarray(55, 60));
    expect(verifyMerklePath(root, 11, o.row, o.siblings)).toBe(true);
    const committed = await p.merkleCommit(kept);
    same(committed.root, merkleTree([{ values: ntt.encode(m, 4, 1), width: 4 }]).root);

    const coeffs = values(8 * 3);
    const c = await p.commit(coeffs, { width: 3, addedBits: 2 });
    same(c.root, merkleTree([{ values: ntt.encode(coeffs, 3, 2), width: 3 }]).root);

    const ch = new DuplexChallenger();
    ch.observeSlice(values(3));
    const twin = ch.clone();
    expect(await p.grind(ch, 8)).toBe(twin.grind(8));
    expect(ch.sample()).toBe(twin.sample());

    const pts = Array.from({ length: 40 }, (_, i) => G.BASE.multiply(BigInt(i * 97 + 5)));
    const ks = Array.from({ length: 40 }, () => (rng.next() * rng.next()) % bn254.fields.Fr.ORDER);
    expect((await p.msm(pts, ks)).equals(pippenger(G, pts, ks))).toBe(true);
    const bases = await p.msmBases(pts);
    expect((await bases.msm(ks)).equals(pippenger(G, pts, ks))).toBe(true);
    // The handle's newer calls, as the GPU path takes them: a slice, a batch, packed LE / BE scalars.
    const le = (xs: bigint[]) => {
      const b = new Uint8Array(32 * xs.length);
      xs.forEach((x, i) => {
        for (let j = 0; j < 32; j++) b[32 * i + j] = Number((x >> BigInt(8 * j)) & 0xffn);
      });
      return b;
    };
    const part = ks.slice(0, 9);
    const at = pts.slice(30, 39);
    expect((await bases.msm(le(part), { offset: 30 })).equals(pippenger(G, at, part))).toBe(true);
    expect((await bases.msm(new Uint32Array(le(part).buffer), { offset: 30 })).equals(pippenger(G, at, part))).toBe(true);
    expect((await bases.msm(le(part).reverse(), { offset: 30, endian: 'be' })).equals(pippenger(G, at, [...part].reverse()))).toBe(true);
    const two = await bases.msmBatch([part, [...part].reverse()], { offset: 30 });
    expect(two.map((q, i) => q.equals(pippenger(G, at, i ? [...part].reverse() : part)))).toEqual([true, true]);
    expect(await code(bases.msm(part, { offset: 35 }))).toBe('INVALID_LENGTH');
    expect(await code(bases.msm(le([1n, bn254.fields.Fr.ORDER])))).toBe('NON_CANONICAL');
    expect(await code(bases.msmBatch([part, part.slice(1)]))).toBe('INVALID_LENGTH');
    expect(await code(p.msm(pts, ks, { offset: 1 }))).toBe('INVALID_ARGUMENT');
    p.destroy();
  });

  it('gives the GPU path codes for bad input, and stays usable', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    expect(await code(p.batchField('mul', Uint32Array.of(BB_P), Uint32Array.of(1)))).toBe('NON_CANONICAL');
    expect(await code(p.dft(values(12), { width: 4 }))).toBe('INVALID_LENGTH');
    expect(await code(p.poseidon2(values(15), { width: 16 }))).toBe('INVALID_LENGTH');
    expect(await code(p.merkleCommit(values(8), { width: 0 }))).toBe('INVALID_ARGUMENT');
    const offCurve = new G(1n, 1n, 1n);
    expect(await code(p.msm([offCurve], [1n]))).toBe('NOT_ON_CURVE');
    expect(await code(p.msm([G.BASE], [bn254.fields.Fr.ORDER]))).toBe('NON_CANONICAL');
    expect(await code(p.grind({} as DuplexChallenger, 4))).toBe('INVALID_ARGUMENT');
    same(await p.batchField('add', Uint32Array.of(1), Uint32Array.of(2)), [3]);
    p.destroy();
  });

  it('writes results into out, also in place, and checks out as the GPU path does', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const m = values(16 * 2);
    const out = new Uint32Array(64);
    expect(await p.lde(m, { width: 2, addedBits: 1, shift: 31, out })).toBe(out);
    same(out, ntt.cosetLde(m, 2, 1, 31));
    const x = m.slice();
    expect(await p.dft(x, { width: 2, out: x })).toBe(x);
    same(x, ntt.dft(m, 2));
    const a = values(8),
      b = values(8),
      a0 = a.slice();
    await p.batchField('mul', a, b, { out: a });
    same(
      a,
      Array.from(a0, (v, i) => bbMul(v, b[i])),
    );
    const s = values(32),
      s0 = s.slice();
    await p.poseidon2(s, { width: 16, out: s });
    same(s, [...poseidon2(s0.subarray(0, 16)), ...poseidon2(s0.subarray(16))]);
    expect(await code(p.dft(m, { width: 2, out: new Uint32Array(31) }))).toBe('INVALID_LENGTH');
    expect(await code(p.dft(m, { width: 2, out: [] as never }))).toBe('INVALID_ARGUMENT');
    expect(await code(p.dft(m, { width: 2, out: new Uint32Array(32), gpu: true }))).toBe('INVALID_ARGUMENT');
    expect(await code(p.batchField('add', a, b, { out: new Uint32Array(7) }))).toBe('INVALID_LENGTH');
    p.destroy();
  });

  it('aborts a queued and a running job, reports progress in order, and runs the next job', async () => {
    const p = await createProver({ gpu: noAdapter, fallback: 'cpu' });
    const events: JobProgress[] = [];
    const ac = new AbortController();
    const running = p.grind(new DuplexChallenger(), 24, { signal: ac.signal, onProgress: (e) => events.push(e) });
    const queued = new AbortController();
    const behind = p.dft(values(64), { width: 1, signal: queued.signal });
    queued.abort();
    setTimeout(() => ac.abort(), 150);
    const [r1, r2] = await Promise.allSettled([running, behind]);
    for (const r of [r1, r2]) {
      expect(r.status).toBe('rejected');
      const e = (r as PromiseRejectedResult).reason as Error & { code?: string };
      expect(e.name).toBe('AbortError');
      expect(e.code).toBe('ABORTED');
    }
    expect(events.length).toBeGreaterThan(1);
    for (const [i, e] of events.entries()) {
      expect(e.done).toBeLessThanOrEqual(e.total);
      if (i > 0) expect(e.done).toBeGreaterThanOrEqual(events[i - 1].done);
    }
    same(await p.batchField('add', Uint32Array.of(5), Uint32Array.of(6)), [11]);
    p.destroy();
  });
});

/** A router whose "GPU" is a second CPU path (its answers right unless corrupted). */
function routed(opts: { check: 'off' | 'sample' | 'full'; selfCheck: boolean }): Prover & { [CORRUPT_FAMILY]: (f: Family) => void } {
  return routeFamilies(cpuProver(), cpuProver(), opts) as never;
}

describe('the family router', () => {
  it('asks the GPU path to prefetch once per family, saying whether the self-check will run', async () => {
    for (const selfCheck of [true, false]) {
      const seen: Array<[string, boolean]> = [];
      const gpu = Object.assign(cpuProver(), { prefetch: (m: string, _a: readonly unknown[], sc: boolean) => seen.push([m, sc]) });
      const p = routeFamilies(gpu as never, cpuProver(), { check: 'off', selfCheck }) as unknown as Prover;
      const m = values(16);
      await p.lde(m, { width: 1, addedBits: 1, shift: 31 });
      await p.dft(m, { width: 1 });
      expect(seen).toEqual([['lde', selfCheck]]);
      p.destroy();
    }
  });

  it('hands prefetch a promise that settles once the first call has, also when it fails', async () => {
    const done: Promise<unknown>[] = [];
    const gpu = Object.assign(cpuProver(), {
      prefetch: (_m: string, _a: readonly unknown[], _sc: boolean, d?: Promise<unknown>) => void done.push(d!),
    });
    const p = routeFamilies(gpu as never, cpuProver(), { check: 'off', selfCheck: false }) as unknown as Prover;
    let settled = false;
    const call = p.dft(values(16), { width: 1 });
    await Promise.resolve();
    expect(done.length).toBe(1);
    void done[0].then(() => (settled = true));
    await call;
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toBe(true);
    expect(await code(p.poseidon2(values(5), { width: 16 }))).toBe('INVALID_LENGTH'); // a first call that fails
    expect(done.length).toBe(2);
    await expect(Promise.race([done[1].then(() => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 50))])).resolves.toBe(
      'settled',
    );
    p.destroy();
  });

  it("a first call's bad input fails that call, not its family's self-check (shaped after the call, it falls back to the fixed jobs)", async () => {
    const p = routed({ check: 'off', selfCheck: true });
    // A commit of 4 rows x 5000: its self-check's job, shaped after it, is refused as the call is
    // (width > MAX_ROW_WIDTH), so the fixed 8 x 4 job runs instead.
    expect(await code(p.commit(values(4 * 5000), { width: 5000, addedBits: 1 }))).toBe('INVALID_ARGUMENT');
    // An lde with a shift of 0: screened before any job runs (knownNttJobs keeps the fixed jobs).
    expect(await code(p.lde(values(16), { width: 1, addedBits: 1, shift: 0 }))).toBe('INVALID_ARGUMENT');
    // A poseidon2 of width 12: not understood, both widths are checked.
    expect(await code(p.poseidon2(values(16), { width: 12 as 16 }))).toBe('INVALID_ARGUMENT');
    expect(p.capabilities().commit).toEqual({ path: 'gpu' });
    expect(p.capabilities().ntt).toEqual({ path: 'gpu' });
    expect(p.capabilities().poseidon2).toEqual({ path: 'gpu' });
    const m = values(16 * 2);
    same(await p.lde(m, { width: 2, addedBits: 1, shift: 31 }), ntt.cosetLde(m, 2, 1, 31));
    p.destroy();
  });

  it('keeps every family on the GPU path while its answers are right', async () => {
    const p = routed({ check: 'full', selfCheck: true });
    const m = values(16 * 2);
    same(await p.lde(m, { width: 2, addedBits: 1, shift: 31 }), ntt.cosetLde(m, 2, 1, 31));
    const { tree } = await p.commit(m, { width: 2, addedBits: 1 });
    await tree.open(3);
    expect(Object.values(p.capabilities()).every((c) => c.path === 'gpu' && c.reason === undefined)).toBe(true);
  });

  it("check 'sample' passes every right result (no false alarms)", async () => {
    const p = routed({ check: 'sample', selfCheck: true });
    for (let round = 0; round < 3; round++) {
      for (const f of FAMILIES) {
        const job = familyJob(p, f);
        expect(job.right(await job.run())).toBe(true);
      }
      const m = values(64 * 3);
      for (const o of [{}, { bitReversedOutput: true }, { gpu: true }]) {
        const x = (await p.lde(m, { width: 3, addedBits: 2, shift: 31, ...o })) as Uint32Array | { destroy(): void };
        if (!(x instanceof Uint32Array)) x.destroy();
        await p.idft(m, { width: 3, ...o });
        await p.dft(m, { width: 3, ...o });
      }
    }
    expect(Object.values(p.capabilities()).every((c) => c.path === 'gpu')).toBe(true);
  });

  it('moves a family whose self-check fails to the CPU, and its results are right', async () => {
    const p = routed({ check: 'off', selfCheck: true });
    p[CORRUPT_FAMILY]('ntt');
    const m = values(16 * 2);
    same(await p.dft(m, { width: 2 }), ntt.dft(m, 2));
    expect(p.capabilities().ntt.path).toBe('cpu');
    expect(p.capabilities().ntt.reason).toMatch(/self-check/);
    expect(p.capabilities().field.path).toBe('gpu');
  });

  it("hands a Groth16 key out before its self-check; a failed check moves the key's proofs to the CPU", async () => {
    const p = routed({ check: 'off', selfCheck: true });
    p[CORRUPT_FAMILY]('groth16');
    const job = familyJob(p, 'groth16');
    expect(job.right(await job.run())).toBe(true);
    expect(p.capabilities().groth16.path).toBe('cpu');
    expect(p.capabilities().groth16.reason).toMatch(/self-check/);
  });

  it('serves a checked first Groth16 proof from the CPU when its family fails the self-check meanwhile', async () => {
    const p = routed({ check: 'sample', selfCheck: true });
    p[CORRUPT_FAMILY]('groth16');
    const job = familyJob(p, 'groth16');
    expect(job.right(await job.run())).toBe(true);
    expect(p.capabilities().groth16.path).toBe('cpu');
    expect(p.stats().checks.failed).toBeGreaterThan(0);
  });

  for (const family of FAMILIES) {
    it(`check 'sample' catches a wrong ${family} result with CHECK_FAILED and moves the family`, async () => {
      const p = routed({ check: 'sample', selfCheck: false });
      p[CORRUPT_FAMILY](family);
      const job = familyJob(p, family);
      expect(await code(job.run())).toBe('CHECK_FAILED');
      expect(p.capabilities()[family].path).toBe('cpu');
      expect(p.capabilities()[family].reason).toMatch(/run-time check/);
      expect(await job.run().then(job.right)).toBe(true);
    });
  }

  it("check 'full' on a result written over its input still compares with the input as it was", async () => {
    const p = routed({ check: 'full', selfCheck: false });
    const a = values(16),
      b = values(16),
      a0 = a.slice();
    await p.batchField('mul', a, b, { out: a });
    same(
      a,
      Array.from(a0, (v, i) => bbMul(v, b[i])),
    );
    p[CORRUPT_FAMILY]('field');
    expect(await code(p.batchField('mul', a, b, { out: a }))).toBe('CHECK_FAILED');
  });

  it("check 'off' lets a wrong result through (except grind's witness), 'full' per call catches it", async () => {
    const p = routed({ check: 'off', selfCheck: false });
    p[CORRUPT_FAMILY]('poseidon2');
    const s = values(16);
    const wrong = await p.poseidon2(s, { width: 16 });
    expect(Array.from(wrong)).not.toEqual(Array.from(poseidon2(s)));
    expect(await code(p.poseidon2(s, { width: 16, check: 'full' }))).toBe('CHECK_FAILED');
    p[CORRUPT_FAMILY]('grind');
    expect(await code(p.grind(new DuplexChallenger(), 6))).toBe('CHECK_FAILED');
    expect(await code(p.poseidon2(s, { width: 16, check: 'fast' as never }))).toBe('INVALID_ARGUMENT');
  });
});

describe('nttEntry', () => {
  it('equals the reference transforms at every entry', () => {
    const m = values(16 * 3);
    const cases: [NttJob, Uint32Array][] = [
      [{ op: 'dft', height: 16, width: 3, bitReversed: false }, ntt.dft(m, 3)],
      [{ op: 'idft', height: 16, width: 3, bitReversed: false }, ntt.idft(m, 3)],
      [{ op: 'lde', height: 16, width: 3, bitReversed: false, addedBits: 2, shift: 31 }, ntt.cosetLde(m, 3, 2, 31)],
      [{ op: 'lde', height: 16, width: 3, bitReversed: true, addedBits: 1, shift: 7 }, ntt.bitReverseRows(ntt.cosetLde(m, 3, 1, 7), 3)],
      [{ op: 'encode', height: 16, width: 3, bitReversed: true, addedBits: 3 }, ntt.bitReverseRows(ntt.encode(m, 3, 3), 3)],
    ];
    for (const [spec, want] of cases) {
      const got = Array.from(want, (_, k) => nttEntry(spec, m, Math.floor(k / 3), k % 3));
      expect(got, spec.op).toEqual(Array.from(want));
    }
  });
});

/** One small job of `family` and whether its answer is right. */
function familyJob(p: Prover, family: Family): { run: () => Promise<unknown>; right: (v: unknown) => boolean } {
  const eq = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);
  const m = values(16 * 2);
  switch (family) {
    case 'field':
      return {
        run: () => p.batchField('add', m, m),
        right: (v) =>
          eq(
            v as Uint32Array,
            m.map((x) => (x * 2) % BB_P),
          ),
      };
    case 'ntt':
      return { run: () => p.encode(m, { width: 2, addedBits: 1 }), right: (v) => eq(v as Uint32Array, ntt.encode(m, 2, 1)) };
    case 'poseidon2':
      return {
        run: () => p.poseidon2(m, { width: 16 }),
        right: (v) => eq(v as Uint32Array, [...poseidon2(m.subarray(0, 16)), ...poseidon2(m.subarray(16))]),
      };
    case 'merkle':
      return {
        run: () => p.merkleCommit(m, { width: 2 }),
        right: (v) => eq((v as { root: Uint32Array }).root, merkleTree([{ values: m, width: 2 }]).root),
      };
    case 'commit':
      return {
        run: () => p.commit(m, { width: 2, addedBits: 1 }),
        right: (v) => eq((v as { root: Uint32Array }).root, merkleTree([{ values: ntt.encode(m, 2, 1), width: 2 }]).root),
      };
    case 'grind': {
      return { run: () => p.grind(new DuplexChallenger(), 10), right: (v) => v === new DuplexChallenger().grind(10) };
    }
    case 'msm': {
      const pts = [G.BASE, G.BASE.double()];
      return { run: () => p.msm(pts, [3n, 4n]), right: (v) => (v as InstanceType<typeof G>).equals(G.BASE.multiply(11n)) };
    }
    case 'groth16':
      return {
        run: async () => {
          const { zkey, wtns } = await knownGroth16();
          const key = await p.groth16(zkey);
          try {
            return { out: await key.prove(wtns), vk: verifyingKeyFromJson(key.verificationKey()) };
          } finally {
            key.destroy();
          }
        },
        right: (v) => {
          const { out, vk } = v as { out: Groth16Output; vk: Groth16VerifyingKey };
          return outputVerifies(vk, out);
        },
      };
  }
}
