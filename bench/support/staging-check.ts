/**
 * Uploads that stream: the staging ring's chunks each carry GPU work on what has landed (Merkle
 * leaves hashed per chunk, the range check per chunk, read back with the job's result). On a
 * context whose ring has 64 KiB chunks (the prover's are 16 MiB, too large for CI), so a table
 * of a few hundred thousand values crosses many chunk boundaries, rows straddle them, and
 * subtrees complete mid-chunk:
 * - merkleCommit's root and an opening equal the same tree built from a plain upload;
 * - a value >= p in a later chunk is NON_CANONICAL at its index, for merkleCommit and commit,
 *   and nothing stays in the pool;
 * - poseidon2 over states permuted chunk by chunk equals the plain upload's result, and a bad
 *   value fails the call with the caller's states (also its `out`) untouched.
 * Run by the `merkle-check` mode (test/e2e/hash.spec.ts).
 * @module
 */
import { GpuContext } from '../../src/gpu/context.js';
import { StagingRing } from '../../src/gpu/staging.js';
import { Scheduler } from '../../src/sched/scheduler.js';
import { merkleMethods, commitOnGpu } from '../../src/api/merkle.js';
import { commitMethods } from '../../src/api/commit.js';
import { poseidon2Methods } from '../../src/api/poseidon2.js';
import { planMerkle } from '../../src/kernels/merkle.js';
import { isProverError } from '../../src/errors.js';
import { BB_P } from '../../src/params/babybear.js';
import { SplitMix64 } from './splitmix.js';
import type { CheckRow } from './poseidon2-check.js';

/** 64 KiB: 16384 words a chunk. */
const SMALL_CHUNK_BYTES = 1 << 16;

/** `limits`: the page prover's (same-limits.ts), so a `--limits default` run tests that device. */
export async function checkStreamedUploads(gpu: GPU, limits: { limits?: 'default' } = {}, rows = 1 << 13, width = 33): Promise<CheckRow[]> {
  const base = await GpuContext.create(gpu, limits);
  const submit = (enc: GPUCommandEncoder, stage: string) => base.submit(enc, stage);
  const ring = new StagingRing(base.device, submit, SMALL_CHUNK_BYTES);
  // The ring for uploads too (a browser's context uploads by writeBuffer: RING_UPLOADS).
  const ctx = Object.create(base, { staging: { value: ring }, ringUploads: { value: true } }) as GpuContext;
  const sched = new Scheduler(ctx);
  const env = { ctx, sched, alive: () => {} };
  const merkle = merkleMethods(env);
  const commit = commitMethods(env);
  const p2 = poseidon2Methods(env);
  const out: CheckRow[] = [];
  const row = async (step: string, body: () => Promise<string>) => {
    const t0 = performance.now();
    let detail: string;
    try {
      detail = await body();
    } catch (e) {
      detail = `threw ${e instanceof Error ? e.message : String(e)}`;
    }
    out.push({ step, ok: detail.startsWith('ok'), n: 1, ms: performance.now() - t0, detail });
  };
  try {
    const values = new SplitMix64(0x57a6).fieldArray(rows * width);
    const chunks = Math.ceil(values.length / ring.chunkWords);
    await row(`merkleCommit ${rows} x ${width} over ${chunks} upload chunks (leaves hashed as they land)`, async () => {
      const streamed = await merkle.merkleCommit(values, { width });
      const plain = await sched.run('plain merkle', {}, async () => {
        const buf = ctx.upload(values, 'plain rows');
        return commitOnGpu(ctx, sched, await planMerkle(ctx, buf, rows, width, () => ctx.pool.release(buf)));
      });
      try {
        if (streamed.root.join() !== plain.root.join()) return `root ${streamed.root.join()} vs plain upload ${plain.root.join()}`;
        const i = rows - 3;
        const [a, b] = [await streamed.tree.open(i), await plain.tree.open(i)];
        if (a.row.join() !== b.row.join() || a.siblings.map((d) => d.join()).join() !== b.siblings.map((d) => d.join()).join())
          return `opening ${i} differs`;
        return `ok: root and opening ${i} equal the plain upload's`;
      } finally {
        streamed.tree.dispose();
        plain.tree.dispose();
      }
    });
    const at = 12 * ring.chunkWords + 77;
    const bad = values.slice();
    bad[at] = BB_P;
    const expectBad = async (call: () => Promise<unknown>, name: string): Promise<string> => {
      const before = ctx.pool.stats().bytesInUse;
      try {
        await call();
        return 'no error';
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (!isProverError(e) || e.code !== 'NON_CANONICAL' || !message.startsWith(`${name}[${at}] = ${BB_P} `))
          return `${isProverError(e) ? e.code : 'raw'}: ${message}`;
        const after = ctx.pool.stats().bytesInUse;
        return after === before
          ? `ok: NON_CANONICAL at ${name}[${at}] (chunk 12 of ${chunks}); pool unchanged`
          : `pool bytes in use ${before} -> ${after}`;
      }
    };
    await row('merkleCommit: a value >= p in a later chunk', () => expectBad(() => merkle.merkleCommit(bad, { width }), 'matrix'));
    const coeffs = bad.subarray(0, 2 ** Math.floor(Math.log2(bad.length / 16)) * 16);
    await row('commit: a value >= p in a later chunk', () => expectBad(() => commit.commit(coeffs, { width: 16, addedBits: 1 }), 'coeffs'));
    // poseidon2 permutes each chunk's whole states as they land (kernels/poseidon2.ts streamPoseidon2,
    // from RING_MIN_BYTES on), after the chunk's range check: width 24's states straddle chunks.
    const plainP2 = poseidon2Methods({ ctx: base, sched: new Scheduler(base), alive: () => {} });
    for (const [w, k] of [
      [16, 1 << 14],
      [24, 11000],
    ] as const) {
      const states = new SplitMix64(0x9e37 + w).fieldArray(w * k);
      await row(
        `poseidon2 width ${w}, ${k} states over ${Math.ceil(states.length / ring.chunkWords)} chunks (permuted as they land)`,
        async () => {
          const [streamed, plain] = [await p2.poseidon2(states, { width: w }), await plainP2.poseidon2(states, { width: w })];
          const differ = streamed.findIndex((v, i) => v !== plain[i]);
          return differ < 0 ? `ok: equals the plain upload's ${k} states` : `value ${differ} differs from the plain upload's`;
        },
      );
      const badStates = states.slice();
      badStates[at] = BB_P;
      const copy = badStates.slice();
      await row(`poseidon2 width ${w}: a value >= p in a later chunk, in place`, async () => {
        const r = await expectBad(() => p2.poseidon2(badStates, { width: w, out: badStates }), 'states');
        return r.startsWith('ok') && badStates.some((v, i) => v !== copy[i]) ? 'the states were overwritten' : r;
      });
    }
  } finally {
    ring.destroy();
    base.destroy();
  }
  return out;
}
