/**
 * The runtime's device-loss recovery and (in a worker) its boundary, as runtime-check.ts runs
 * them: a lost device rebuilt and the interrupted job run again; the page thread responsive while
 * the worker works.
 * @module
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import { createProver, isProverError } from '../../src/index.js';
import { LOSE_DEVICE } from '../../src/device-recovery.js';
import * as ref from '../../src/ref/ntt.js';
import { poseidon2 } from '../../src/ref/poseidon2.js';
import { BB_P } from '../../src/params/babybear.js';
import { SplitMix64 } from './splitmix.js';
import { sameLimits } from './same-limits.js';
import { type RuntimeRow, G, same, values, timed, rejection } from './runtime-helpers.js';

/** The test hook behind a driver reset: device.destroy() on the prover's current device. */
const loseDevice = (prover: Prover) => (prover as unknown as Record<symbol, () => void>)[LOSE_DEVICE]();

export async function checkDeviceLoss(prover: Prover, rng: SplitMix64): Promise<RuntimeRow[]> {
  const rows: RuntimeRow[] = [];
  const x = values(rng, 64);
  const kept = await prover.dft(x, { width: 2, gpu: true });
  const losses = () => prover.stats().deviceLosses;
  rows.push(
    await timed('a device lost mid-job is recreated and the job run again', async () => {
      const step = G.BASE.multiply(777n);
      const pts: InstanceType<typeof G>[] = [G.BASE];
      while (pts.length < 1024) pts.push(pts[pts.length - 1].add(step));
      const ks = pts.map(() => rng.next() % (1n << 250n));
      await prover.msm(pts.slice(0, 4), ks.slice(0, 4)); // pipelines compiled: the next job's first submission is its GPU work
      const before = losses();
      let lostAt = '';
      const got = await prover.msm(pts, ks, {
        onProgress: (p) => {
          if (!lostAt && p.stage === 'msm batch') {
            lostAt = p.stage;
            loseDevice(prover);
          }
        },
      });
      const midJob = losses() - before;
      const right = got.equals(pippenger(G, pts, ks));
      if (!right) return 'wrong result after the loss';
      if (!lostAt) return 'the test never reached a submission to lose the device at';
      if (!midJob) return `the device was lost at "${lostAt}" but the job finished on it: no loss mid-job to recover from`;
      const next = await prover.dft(x, { width: 2 });
      if (!same(next, ref.dft(x, 2))) return 'the next job is wrong';
      return losses() - before === 1
        ? `ok: MSM 2^10 equals noble; device lost at "${lostAt}", the job retried on the new device`
        : `deviceLosses ${before} -> ${losses()}`;
    }),
  );
  rows.push(
    await timed('a loss between jobs is recovered on the next call', async () => {
      const before = losses();
      loseDevice(prover);
      await new Promise((r) => setTimeout(r, 50));
      const got = await prover.poseidon2(
        Uint32Array.from({ length: 16 }, (_, i) => i),
        { width: 16 },
      );
      const want = poseidon2(Uint32Array.from({ length: 16 }, (_, i) => i));
      return same(got, want) && losses() === before + 1
        ? `ok: deviceLosses ${before} -> ${losses()}`
        : `result ${same(got, want) ? 'right' : 'wrong'}, deviceLosses ${before} -> ${losses()}`;
    }),
  );
  rows.push(
    await timed('a handle from a lost device fails with DEVICE_LOST, in place and as input', async () => {
      const read = await rejection(kept.read());
      const asInput = await rejection(prover.merkleCommit(kept));
      const code = (e: unknown) => (isProverError(e) ? e.code : String(e));
      return code(read) === 'DEVICE_LOST' && code(asInput) === 'DEVICE_LOST'
        ? `ok: read() and merkleCommit(handle) both DEVICE_LOST: ${(read as Error).message}`
        : `read ${code(read)}, as input ${code(asInput)}`;
    }),
  );
  return rows;
}

/** Long tasks (the page's own JS running over 50 ms) are observable here: Chromium's Long Tasks API. */
const LONG_TASKS = typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('longtask');

/**
 * While `work` runs: the largest gap between ticks of a 10 ms interval, and the page's longest
 * task. The gap also counts time the OS gave other processes (on CI, SwiftShader's threads in
 * the GPU process fill both cores: gaps of 170 ms were seen with no page task over 50 ms); the
 * longest task is what the page's own code blocked.
 */
async function longestStall(work: () => Promise<unknown>): Promise<{ gap: number; longTask: number }> {
  // End the caller's task first: a long task is reported when it ends, and the caller's (making
  // 4096 noble points) would otherwise be counted as the job's.
  await new Promise((r) => setTimeout(r, 0));
  let last = performance.now(),
    gap = 0,
    longTask = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  const observer = LONG_TASKS
    ? new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longTask = Math.max(longTask, e.duration);
      })
    : undefined;
  observer?.observe({ type: 'longtask' });
  try {
    await work();
  } finally {
    clearInterval(timer);
    observer?.takeRecords().forEach((e) => (longTask = Math.max(longTask, e.duration)));
    observer?.disconnect();
  }
  return { gap: Math.max(gap, performance.now() - last), longTask };
}

/** What only a prover in a worker has to show: a free page thread, transfers, errors as in-thread. */
export async function checkWorkerBoundary(prover: Prover, rng: SplitMix64): Promise<RuntimeRow[]> {
  const rows: RuntimeRow[] = [];
  rows.push(
    await timed("the page's thread stays free during an MSM of 2^12 and an NTT of 2^16 x 8", async () => {
      const step = G.BASE.multiply(12345n);
      const pts: InstanceType<typeof G>[] = [G.BASE];
      while (pts.length < 4096) pts.push(pts[pts.length - 1].add(step));
      const ks = pts.map(() => rng.next() % (1n << 200n));
      const x = values(rng, (1 << 16) * 8);
      const t0 = performance.now();
      const msm = await longestStall(() => prover.msm(pts, ks));
      const t1 = performance.now();
      const ntt = await longestStall(() => prover.dft(x, { width: 8 }));
      const t2 = performance.now();
      const gap = Math.max(msm.gap, ntt.gap),
        task = Math.max(msm.longTask, ntt.longTask);
      const detail =
        `longest gap of a 10 ms interval ${msm.gap.toFixed(0)} ms during the MSM (${(t1 - t0).toFixed(0)} ms), ${ntt.gap.toFixed(0)} ms during the NTT (${(t2 - t1).toFixed(0)} ms); ` +
        (LONG_TASKS ? `longest page task ${task.toFixed(0)} ms (0: none over 50 ms)` : 'long tasks not observable here');
      // The page's own blocking decides where it is observable; the interval gap where it is not.
      return (LONG_TASKS ? task <= 100 : gap <= 100) ? `ok: ${detail}` : detail;
    }),
  );
  rows.push(
    await timed('inputs stay valid by default; { transfer: true } hands them over', async () => {
      const x = values(rng, 64);
      const want = ref.dft(x, 2);
      const kept = await prover.dft(x, { width: 2 });
      if (x.length !== 64 || !same(kept, want)) return 'default: the input changed or the result is wrong';
      const given = await prover.dft(x, { width: 2, transfer: true } as never);
      return (x.length as number) === 0 && same(given, want)
        ? 'ok: copied by default, detached with transfer: true, same result'
        : `transfer: input length ${x.length} after the call`;
    }),
  );
  rows.push(
    await timed("errors cross with the in-thread prover's code, name and message", async () => {
      const local = await createProver({ worker: false, ...sameLimits(prover) });
      try {
        const calls: [string, (p: Prover) => Promise<unknown>][] = [
          ['non-canonical', (p) => p.batchField('mul', Uint32Array.of(1, BB_P), Uint32Array.of(1, 1))],
          ['width 0', (p) => p.dft(new Uint32Array(8), { width: 0 })],
          ['shift >= p', (p) => p.lde(new Uint32Array(8), { width: 1, addedBits: 1, shift: BB_P })],
          ['a symbol op', (p) => p.batchField(Symbol('op') as never, new Uint32Array(4))],
          ['scalar >= r', (p) => p.msm([G.BASE], [1n << 255n])],
          [
            'sparse points',
            (p) => {
              const a = [G.BASE, G.BASE];
              delete (a as unknown[])[1];
              return p.msm(a, [1n, 2n]);
            },
          ],
          [
            'tuning c 0',
            async (p) => {
              const b = await p.msmBases([G.BASE]);
              try {
                return await b.msmProfiled([1n], { c: 0 });
              } finally {
                b.destroy();
              }
            },
          ],
        ];
        const bad: string[] = [];
        for (const [name, f] of calls) {
          const [a, b] = [await rejection(f(prover)), await rejection(f(local))] as Error[];
          const key = (e: Error & { code?: string }) => (e ? `${e.name}/${e.code}/${e.message}` : 'resolved');
          if (!isProverError(a) || key(a) !== key(b)) bad.push(`${name}: worker ${key(a)} vs in-thread ${key(b)}`);
        }
        return bad.length ? bad.join('; ') : `ok: ${calls.length} faults, identical`;
      } finally {
        local.destroy();
      }
    }),
  );
  return rows;
}
