/**
 * `npm run bench -- checks`: what `check: 'sample'` costs against `'off'` per family at 2^16
 * and 2^20 (Node + Dawn, in-thread), end to end as the caller waits: the same job, off and
 * sample alternating after a warm-up, the median of each; the checks the sample runs ran (its
 * budget, docs/checks.md) and their time; the first sampled job (always checked) apart; WHIR opens
 * at n = 20-24 (every proof verified at 'sample': the verifier's price). Every
 * answer is compared with `check: 'full'` once first. CHECKS_FIRST=selfcheck|plain instead times
 * each family's first job on a fresh prover with or without the self-check (a process each).
 * @module
 */
import { createProver, DuplexChallenger, type Prover } from '../src/index.js';
import { FAMILIES, type Family } from '../src/methods.js';
import type { CheckMode } from '../src/sched/job.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { knownGroth16 } from '../src/checks/known-answer.js';
import { tiledBases } from './msm.js';
import { withClock, type ClockSampler } from './gpu-clock.js';
import type { BenchOutput } from './field.js';
import { checkThreadStats } from '../src/checks/check-thread-state.js';

const RUNS = 9;
type Job = (check: CheckMode) => Promise<unknown>;

/** The family's job at size 2^logN (rows, states, points; grinding bits), its inputs made once. */
function jobOf(p: Prover, family: Family | 'ntt-dft', logN: number): { label: string; run: Job } {
  const rng = new SplitMix64(0xc8ec + logN);
  const n = 2 ** logN;
  switch (family) {
    case 'field': {
      const a = rng.fieldArray(n),
        b = rng.fieldArray(n);
      return { label: `batchField mul 2^${logN}`, run: (check) => p.batchField('mul', a, b, { check }) };
    }
    case 'ntt': {
      const x = rng.fieldArray(n * 8);
      return { label: `lde 2^${logN} x 8 +1`, run: (check) => p.lde(x, { width: 8, addedBits: 1, shift: 31, check }) };
    }
    case 'ntt-dft': {
      const x = rng.fieldArray(n);
      return { label: `dft 2^${logN} x 1`, run: (check) => p.dft(x, { width: 1, check }) };
    }
    case 'poseidon2': {
      const s = rng.fieldArray(n * 16);
      return { label: `poseidon2 2^${logN} x 16`, run: (check) => p.poseidon2(s, { width: 16, check }) };
    }
    case 'merkle': {
      const m = rng.fieldArray(n * 8);
      return { label: `merkleCommit 2^${logN} x 8`, run: async (check) => (await p.merkleCommit(m, { width: 8, check })).tree.dispose() };
    }
    case 'commit': {
      const c = rng.fieldArray((n / 2) * 8);
      return {
        label: `commit 2^${logN - 1} x 8 +1`,
        run: async (check) => (await p.commit(c, { width: 8, addedBits: 1, check })).tree.dispose(),
      };
    }
    case 'grind': {
      // The same transcript every run: grinding time depends on where the witness falls.
      return {
        label: `grind ${logN} bits`,
        run: (check) => {
          const ch = new DuplexChallenger();
          ch.observe(logN);
          return p.grind(ch, logN, { check });
        },
      };
    }
    case 'msm': {
      const points = tiledBases(n).bytes;
      // 32-byte big-endian scalars below 2^248 < r (leading byte 0).
      const scalars = new Uint8Array(32 * n).map((_, i) => (i % 32 === 0 ? 0 : Number(rng.next() & 0xffn)));
      return { label: `msm 2^${logN}`, run: (check) => p.msm(points, scalars, { check, endian: 'be' }) };
    }
    case 'groth16': {
      // The self-check's circuit at every size (the groth16 suite times real circuits' checks).
      const known = knownGroth16();
      return {
        label: 'groth16 prove (3 constraints)',
        run: async (check) => {
          const { zkey, wtns } = await known;
          const key = await p.groth16(zkey);
          try {
            return await key.prove(wtns, { check });
          } finally {
            key.destroy();
          }
        },
      };
    }
  }
}

/** RUNS rounds of `run` with check 'off' then 'sample' (they share the clock): each mode's times. */
async function alternate(run: Job): Promise<{ off: number[]; sample: number[] }> {
  const off: number[] = [],
    sample: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    for (const [mode, out] of [
      ['off', off],
      ['sample', sample],
    ] as const) {
      const t = performance.now();
      await run(mode);
      out.push(performance.now() - t);
    }
  }
  return { off, sample };
}

export async function benchChecks(gpu: GPU): Promise<BenchOutput> {
  return withClock((clock) => rowsOf(gpu, clock));
}

async function rowsOf(gpu: GPU, clock: ClockSampler): Promise<BenchOutput> {
  const rows: Record<string, unknown>[] = [];
  let ok = true;
  // Each family's first job on a fresh prover, with or without its self-check: one process per
  // setting (CHECKS_FIRST=selfcheck | plain), since Dawn reuses compiled shaders within a process.
  const first = process.env.CHECKS_FIRST;
  if (first) {
    const p = await createProver({ gpu, selfCheck: first === 'selfcheck', check: 'off' });
    for (const f of FAMILIES) {
      const { label, run } = jobOf(p, f, 10);
      const t0 = performance.now();
      await run('off');
      rows.push({
        suite: 'checks',
        row: 'first job',
        family: f,
        job: label,
        selfCheck: first === 'selfcheck',
        firstMs: +(performance.now() - t0).toFixed(1),
      });
    }
    p.destroy();
    return { rows, ok };
  }
  const p = await createProver({ gpu, check: 'off' });
  // CHECKS_FAMILIES=msm,grind: those rows alone.
  const only = process.env.CHECKS_FAMILIES?.split(',');
  for (const logN of [16, 20]) {
    for (const f of [...FAMILIES, 'ntt-dft'] as const) {
      if (only && !only.includes(f)) continue;
      const { label, run } = jobOf(p, f, logN);
      // Right first (the whole result against the CPU path) where that takes seconds, not minutes.
      if (logN === 16 && f !== 'msm') {
        try {
          await run('full');
        } catch (e) {
          ok = false;
          rows.push({ suite: 'checks', job: label, error: String(e) });
          continue;
        }
      }
      await run('off');
      const c0 = p.stats().checks;
      const t0 = performance.now();
      await run('sample');
      const first = { ms: performance.now() - t0, checkMs: p.stats().checks.ms - c0.ms };
      const before = p.stats().checks;
      const since = Date.now();
      const { off, sample } = await alternate(run);
      const after = p.stats().checks;
      const offMs = median(off),
        sampleMs = median(sample);
      rows.push({
        suite: 'checks',
        family: f === 'ntt-dft' ? 'ntt' : f,
        job: label,
        offMs: +offMs.toFixed(2),
        sampleMs: +sampleMs.toFixed(2),
        sampleOverOff: +(sampleMs / offMs).toFixed(3),
        checksRun: `${after.run - before.run}/${RUNS}`,
        checkMsPerJob: +((after.ms - before.ms) / RUNS).toFixed(2),
        firstSampleMs: +first.ms.toFixed(1),
        firstCheckMs: +first.checkMs.toFixed(1),
        smMHz: clock.median([[since, Date.now()]]),
      });
      console.error(JSON.stringify(rows[rows.length - 1]));
    }
  }
  // WHIR opens (fold 4, rate 1; n = 24 only with rsInitialReduction 3, which p3-whir needs there):
  // every proof is verified at 'sample', so this row is the verifier's price.
  for (const [n, rs] of [[20], [22], [22, 3], [24, 3]] as const) {
    if (only && !only.includes('whir')) break;
    const evals = new SplitMix64(0x3417 + n).fieldArray(2 ** n);
    const w = p.whir({ numVariables: n, foldingFactor: 4, startingLogInvRate: 1, ...(rs ? { rsInitialReduction: rs } : {}) });
    const run = async (check: CheckMode) => w.open((await w.commit(evals)).handle, { check });
    await run('sample');
    const before = p.stats().checks;
    const since = Date.now();
    const { off, sample } = await alternate(run);
    rows.push({
      suite: 'checks',
      family: 'whir',
      job: `whir n = ${n}, fold 4, rate 1${rs ? `, rs ${rs}` : ''}, commit + open`,
      offMs: +median(off).toFixed(2),
      sampleMs: +median(sample).toFixed(2),
      sampleOverOff: +(median(sample) / median(off)).toFixed(3),
      checksFailed: p.stats().checks.failed - before.failed,
      smMHz: clock.median([[since, Date.now()]]),
    });
    console.error(JSON.stringify(rows[rows.length - 1]));
  }
  if (p.stats().checks.failed > 0) ok = false;
  p.destroy();
  // Where the verification tasks ran (the check thread, or the prover's thread without one).
  rows.push({ suite: 'checks', family: 'check thread', ...checkThreadStats });
  console.error(JSON.stringify(rows[rows.length - 1]));
  return { rows, ok };
}
