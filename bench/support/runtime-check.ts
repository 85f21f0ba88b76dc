/**
 * The runtime as a dApp uses it, wherever a Prover runs (dev page `runtime-check`, so Chromium
 * in CI): 32 concurrent mixed jobs each equal to src/ref or noble; pool bytes bounded over 200
 * jobs; AbortSignal before a call, on a queued job and on a running one (each an AbortError that
 * is a ProverError ABORTED, the next job right, pool bytes back); progress in order with
 * done <= total; job counts in stats().
 * @module
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import type { JobProgress } from '../../src/sched/job.js';
import { DuplexChallenger, isProverError } from '../../src/index.js';
import * as ref from '../../src/ref/ntt.js';
import { bbMul } from '../../src/field/babybear.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { merkleTree } from '../../src/ref/merkle.js';
import { BB_P } from '../../src/params/babybear.js';
import { SplitMix64 } from './splitmix.js';
import { checkDeviceLoss, checkWorkerBoundary } from './runtime-device-check.js';
import { type RuntimeRow, G, same, values, timed, rejection, isAbort } from './runtime-helpers.js';

/** One job of each family with its expected answer (a thunk: some references cost CPU time). */
function mixedJob(prover: Prover, rng: SplitMix64, k: number): { name: string; run: () => Promise<boolean> } {
  switch (k % 6) {
    case 0: {
      const x = values(rng, 64 * 4);
      return { name: 'dft 64 x 4', run: async () => same(await prover.dft(x, { width: 4 }), ref.dft(x, 4)) };
    }
    case 1: {
      const x = values(rng, 16 * 2);
      return {
        name: 'lde 16 x 2',
        run: async () => same(await prover.lde(x, { width: 2, addedBits: 1, shift: 31 }), ref.cosetLde(x, 2, 1, 31)),
      };
    }
    case 2: {
      const s = values(rng, 32);
      return {
        name: 'poseidon2 x2',
        run: async () => same(await prover.poseidon2(s, { width: 16 }), [...poseidon2(s.subarray(0, 16)), ...poseidon2(s.subarray(16))]),
      };
    }
    case 3: {
      const m = values(rng, 16 * 4);
      return {
        name: 'merkle 16 x 4',
        run: async () => {
          const { root, tree } = await prover.merkleCommit(m, { width: 4 });
          tree.dispose();
          return same(root, merkleTree([{ values: m, width: 4 }]).root);
        },
      };
    }
    case 4: {
      const a = values(rng, 100),
        b = values(rng, 100);
      return {
        name: 'field mul 100',
        run: async () =>
          same(
            await prover.batchField('mul', a, b),
            Array.from(a, (v, i) => bbMul(v, b[i])),
          ),
      };
    }
    default: {
      // One affine point and one projective (Z != 1: through the worker, X, Y, Z words).
      const pts = [G.BASE.multiply(BigInt(k + 2)), G.BASE.multiply(BigInt(k + 7)).add(G.BASE)];
      const ks = [rng.next() % 1000n, rng.next() % 1000n];
      return { name: 'msm 2', run: async () => (await prover.msm(pts, ks)).equals(pippenger(G, pts, ks)) };
    }
  }
}

export async function checkRuntime(prover: Prover, seed = 0x5c4ed): Promise<RuntimeRow[]> {
  const rng = new SplitMix64(seed);
  const rows: RuntimeRow[] = [];
  const probeX = values(rng, 8);
  const probe = async () => same(await prover.dft(probeX, { width: 1 }), ref.dft(probeX, 1));

  rows.push(
    await timed('32 concurrent mixed jobs equal the references', async () => {
      const jobs = Array.from({ length: 32 }, (_, k) => mixedJob(prover, rng, k));
      const results = await Promise.all(jobs.map((j) => j.run()));
      const bad = jobs.filter((_, i) => !results[i]).map((j) => j.name);
      return bad.length ? `wrong: ${bad.join(', ')}` : `ok: ${jobs.length} jobs (${[...new Set(jobs.map((j) => j.name))].join(', ')})`;
    }),
  );

  rows.push(
    await timed('pool bytes bounded over 200 jobs', async () => {
      const held: number[] = [];
      for (let round = 0; round < 200 / 6; round++) {
        const batch = Array.from({ length: 6 }, (_, k) => mixedJob(prover, rng, k));
        const ok = await Promise.all(batch.map((j) => j.run()));
        if (ok.includes(false)) return `round ${round}: a wrong result`;
        held.push(prover.stats().bytesHeld);
      }
      const inUse = prover.stats().bytesInUse;
      const grew = held[held.length - 1] > held[5];
      return grew || inUse !== 0
        ? `held ${held[5]} after 36 jobs, ${held[held.length - 1]} after ${held.length * 6}; in use ${inUse}`
        : `ok: ${held[held.length - 1]} bytes held after ${held.length * 6} jobs (same as after 36), none in use`;
    }),
  );

  rows.push(
    await timed('an already-aborted signal rejects at once', async () => {
      const c = new AbortController();
      c.abort();
      const e = await rejection(prover.dft(probeX, { width: 1, signal: c.signal }));
      return isAbort(e) ? ((await probe()) ? 'ok: AbortError (ABORTED); next job right' : 'next job wrong') : `got ${String(e)}`;
    }),
  );

  rows.push(
    await timed('abort of a queued job: rejected before the job ahead ends, next job right', async () => {
      const before = prover.stats();
      const x = values(rng, 1024 * 8);
      const ahead = prover.lde(x, { width: 8, addedBits: 2, shift: 31 });
      const c = new AbortController();
      let aheadDone = false;
      void ahead.then(() => (aheadDone = true));
      const queued = prover.poseidon2(values(rng, 16), { width: 16, signal: c.signal });
      c.abort();
      const e = await rejection(queued);
      const early = !aheadDone;
      const aheadOk = same(await ahead, ref.cosetLde(x, 8, 2, 31));
      const after = prover.stats();
      if (!isAbort(e)) return `queued job got ${String(e)}`;
      if (!early) return 'the queued job was rejected only after the job ahead finished';
      if (!aheadOk) return 'the job ahead was wrong';
      if (after.bytesInUse !== before.bytesInUse) return `pool bytes in use ${before.bytesInUse} -> ${after.bytesInUse}`;
      return (await probe())
        ? `ok: AbortError before the job ahead finished; aborted jobs ${after.jobs.aborted - before.jobs.aborted}`
        : 'next job wrong';
    }),
  );

  rows.push(
    await timed('abort of a running job (grinding) at its next boundary', async () => {
      const before = prover.stats();
      const c = new AbortController();
      const events: JobProgress[] = [];
      const ch = new DuplexChallenger();
      ch.observeSlice([1, 2, 3]);
      const snapshot = JSON.stringify(ch.snapshot());
      // Aborted from its first submission's progress event: the GPU finishes that submission (2^14
      // candidates at 12 bits; a larger first batch would hold SwiftShader for minutes), then the job
      // stops at its readback boundary, and a witness it found is dropped, the challenger untouched.
      const job = prover.grind(ch, 12, {
        signal: c.signal,
        onProgress: (p) => {
          events.push(p);
          if (p.stage.startsWith('grind')) c.abort();
        },
      });
      const e = await rejection(job);
      const after = prover.stats();
      if (!isAbort(e)) return `got ${String(e)}`;
      if (JSON.stringify(ch.snapshot()) !== snapshot) return 'the challenger was advanced by an aborted grind';
      if (after.bytesInUse !== before.bytesInUse) return `pool bytes in use ${before.bytesInUse} -> ${after.bytesInUse}`;
      return (await probe())
        ? `ok: stopped after ${events.filter((p) => p.stage.startsWith('grind')).length} submission(s); next job right`
        : 'next job wrong';
    }),
  );

  rows.push(
    await timed('progress events in order, done <= total, ending done', async () => {
      const seen: Record<string, JobProgress[]> = { lde: [], msm: [], grind: [], merkleCommit: [] };
      const x = values(rng, 256 * 4);
      await prover.lde(x, { width: 4, addedBits: 1, shift: 31, onProgress: (p) => seen.lde.push(p) });
      await prover.msm([G.BASE, G.BASE.double()], [3n, 4n], { onProgress: (p) => seen.msm.push(p) });
      const ch = new DuplexChallenger();
      await prover.grind(ch, 6, { onProgress: (p) => seen.grind.push(p) });
      const { tree } = await prover.merkleCommit(x, { width: 4, onProgress: (p) => seen.merkleCommit.push(p) });
      tree.dispose();
      const bad: string[] = [];
      for (const [name, ev] of Object.entries(seen)) {
        if (ev.length < 2) bad.push(`${name}: ${ev.length} events`);
        ev.forEach((p, i) => {
          if (p.done > p.total || p.done < 0) bad.push(`${name}: done ${p.done} > total ${p.total}`);
          if (i > 0 && p.done < ev[i - 1].done) bad.push(`${name}: done went back ${ev[i - 1].done} -> ${p.done}`);
        });
        const last = ev[ev.length - 1];
        if (last && last.done !== last.total) bad.push(`${name}: ends at ${last.done}/${last.total}`);
      }
      return bad.length
        ? bad.slice(0, 4).join('; ')
        : `ok: ${Object.entries(seen)
            .map(([k, v]) => `${k} ${v.length} (${v.map((p) => p.stage).join(' > ')})`)
            .join('; ')}`;
    }),
  );

  rows.push(
    await timed('results written into out, and in place; a wrong out is refused', async () => {
      // 2^18 values: past the staging ring's threshold (1 MiB): the ring carries the readback (and,
      // in Node, the upload; a browser uploads by writeBuffer, RING_UPLOADS).
      const x = values(rng, 1 << 18);
      const out = new Uint32Array(x.length * 2);
      const lde = await prover.lde(x, { width: 1, addedBits: 1, shift: 31, out });
      if (lde !== out || !same(out, ref.cosetLde(x, 1, 1, 31))) return 'lde into out: wrong';
      const y = x.slice();
      const dft = await prover.dft(y, { width: 1, out: y });
      if (dft !== y || !same(y, ref.dft(x, 1))) return 'dft in place: wrong';
      const a = values(rng, 4096),
        b = values(rng, 4096),
        a0 = a.slice();
      await prover.batchField('mul', a, b, { out: a });
      if (
        !same(
          a,
          Array.from(a0, (v, i) => bbMul(v, b[i])),
        )
      )
        return 'batchField in place: wrong';
      const bad = await rejection(prover.dft(x, { width: 1, out: new Uint32Array(7) }));
      const code = isProverError(bad) ? bad.code : String(bad);
      return code === 'INVALID_LENGTH' && (await probe())
        ? `ok: lde 2^18 -> 2^19 into out, dft 2^18 in place, batchField in place; a 7-value out: ${code}`
        : `a wrong out gave ${code}`;
    }),
  );

  rows.push(
    await timed('a large input with one value >= p is NON_CANONICAL, found on the GPU at its index', async () => {
      // Past 1 MiB the range is checked on the GPU after the upload (kernels/canonical.ts).
      const big = (n: number, at: number, v: number) => {
        const x = values(rng, n);
        x[at] = v;
        return x;
      };
      const cases: [string, RegExp, () => Promise<unknown>][] = [
        ['dft', /^values\[200001\] = 2013265921 /, () => prover.dft(big(1 << 18, 200001, BB_P), { width: 1 })],
        [
          'lde',
          /^values\[262143\] = 4294967295 /,
          () => prover.lde(big(1 << 18, (1 << 18) - 1, 0xffffffff), { width: 2, addedBits: 1, shift: 31 }),
        ],
        ['poseidon2', /^states\[5\] = 2147483648 /, () => prover.poseidon2(big(1 << 18, 5, 2 ** 31), { width: 16 })],
        ['merkleCommit', /^matrix\[131072\] = 2013265921 /, () => prover.merkleCommit(big(1 << 18, 131072, BB_P), { width: 8 })],
        ['commit', /^coeffs\[70000\] = 2013265921 /, () => prover.commit(big(1 << 18, 70000, BB_P), { width: 16, addedBits: 1 })],
        ['batchField b', /^b\[0\] = 2013265922 /, () => prover.batchField('add', values(rng, 1 << 18), big(1 << 18, 0, BB_P + 1))],
      ];
      const before = prover.stats().bytesInUse;
      const bad: string[] = [];
      for (const [name, message, call] of cases) {
        const e = await rejection(call());
        if (!isProverError(e) || e.code !== 'NON_CANONICAL' || !message.test(e.message))
          bad.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (prover.stats().bytesInUse !== before) bad.push(`pool bytes in use ${before} -> ${prover.stats().bytesInUse}`);
      return bad.length
        ? bad.join('; ')
        : (await probe())
          ? `ok: ${cases.length} calls of 2^18 values, each NON_CANONICAL at the right index; nothing held; next job right`
          : 'next job wrong';
    }),
  );

  rows.push(
    await timed('a throwing onProgress does not break the job', async () => {
      const got = await prover.dft(probeX, {
        width: 1,
        onProgress: () => {
          throw new Error('caller bug');
        },
      });
      return same(got, ref.dft(probeX, 1)) ? '' : 'wrong result';
    }),
  );

  if (prover.info.worker) rows.push(...(await checkWorkerBoundary(prover, rng)));

  rows.push(
    await timed('stats() counts jobs', async () => {
      const j = prover.stats().jobs;
      return j.run > 200 && j.aborted >= 3 && j.queued === 0 ? `ok: ${JSON.stringify({ ...j, last: undefined })}` : JSON.stringify(j);
    }),
  );

  rows.push(
    await timed("stats() gives the last job's GPU time per submission", async () => {
      const x = values(rng, 1024 * 4);
      await prover.lde(x, { width: 4, addedBits: 1, shift: 31, check: 'off' });
      const last = prover.stats().jobs.last;
      if (!last || last.job !== 'lde') return `last job ${JSON.stringify(last)}`;
      const subs = last.submissions;
      if (subs.length < 1 || subs.some((s) => !(s.gpuMs >= 0) || typeof s.stage !== 'string')) return `submissions ${JSON.stringify(subs)}`;
      return `ok: ${subs.map((s) => `${s.stage} ${s.gpuMs.toFixed(2)} ms`).join(', ')}`;
    }),
  );
  // Last: these replace the prover's device (job counts start again on the new one).
  rows.push(...(await checkDeviceLoss(prover, rng)));
  return rows;
}

export type { RuntimeRow } from './runtime-helpers.js';
