/**
 * `npm run bench -- ntt`: forward DFT, coset LDE (shift 31) and WHIR encoding, addedBits 1, at
 * 2^20, 2^22, 2^24 rows × width 1 and 8, on the GPU through Dawn. Before timing: every Plonky3
 * dft.json case, random-data properties and bad-input codes (bench/support/ntt-check.ts), a full
 * comparison with src/ref at 2^20 (width 1; 2^16 wider), and at 2^24 a spot check (direct evaluation of 2 rows, and
 * the zero upper half of idft(lde)). Then per shape: GPU-resident time (timestamp-query around
 * NTT_BATCH back-to-back jobs, divided by NTT_BATCH; else submit-to-done), end-to-end time (Uint32Array -> Uint32Array via
 * the public API), elements/s, and ratios to
 *   t_limit = max((bytes_in + bytes_out) / copyBW, (N/2)·log2 N / montRate), N = output rows·width,
 * with copyBW and montRate from the ROOFLINE_PROBE module in the same run (null without it), and to the native CPU
 * anchor (Plonky3 p3-dft, all cores) when NTT_NATIVE names its JSON-lines output from the same
 * device command. NTT_LOGS=20,22 and NTT_WIDTHS=1 narrow the sweep.
 * Rows carry `staged` (the first pass of each transform stored through a workgroup
 * tile, the default; src/kernels/ntt/tuning.ts stageBelowWidth): at 2^24 × 1, encode / lde / dft also run with
 * the first pass unstaged (stageBelowWidth 0) on the same input (checked first: checkNttStaged, staged vs src/ref and
 * vs unstaged). NTT_PASS_PROFILE=1 adds `ntt-pass` rows there for encode and lde, staged on and
 * off: one compute pass per NTT pass, label (e.g. `r32 ns=1 staged`) and median ms of 10 reps.
 * NTT_AB=unstaged,radix16,... times only the default job against each change, alternating (jobAb).
 * KoalaBear: its vectors and src/ref checks first (bench/support/ntt-kb-check.ts), then its dft /
 * lde / encode at 2^24 output rows timed against BabyBear's on the same input (bench/ntt-koalabear.ts).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { createProver, type Prover } from '../src/index.js';
import { GpuContext } from '../src/gpu/context.js';
import type { NttJob } from '../src/kernels/ntt/job.js';
import { NTT_TUNING, withTuning, type NttTuning } from '../src/kernels/ntt/tuning.js';
import * as ref from '../src/ref/ntt.js';
import { bbAdd, bbInv, bbMul, bbPow } from '../src/field/babybear.js';
import { SplitMix64 } from './support/splitmix.js';
import { transferBoundMs, transferRates } from './transfer-bound.js';
import { median } from './support/stats.js';
import vectors from '../test/vectors/dft.json' with { type: 'json' };
import type { DftCase, DftOp } from './support/dft-vectors.js';
import {
  checkNttErrors,
  checkNttFusedLde,
  checkNttProperties,
  checkNttStaged,
  checkNttTables,
  checkNttTwoLevel,
  checkNttVectors,
} from './support/ntt-check.js';
import {
  checkNttKoalaBearErrors,
  checkNttKoalaBearLayouts,
  checkNttKoalaBearRandom,
  checkNttKoalaBearVectors,
} from './support/ntt-kb-check.js';
import koalaBearVectors from '../test/vectors/koalabear.json' with { type: 'json' };
import { twoLevelAt } from '../src/kernels/ntt/tuning.js';
import { koalaBearRows } from './ntt-koalabear.js';
import { roofline, warmUp } from './node-gpu.js';
import { withClock } from './gpu-clock.js';
import type { BenchOutput } from './field.js';
import { type Op, OPS, SHIFT, list, spec, NTT_BATCH, profiledRun, profileNttPasses, jobAb, setClock, currentClock } from './ntt-timing.js';

function callApi(prover: Prover, op: Op, x: Uint32Array, width: number): Promise<Uint32Array> {
  if (op === 'dft') return prover.dft(x, { width });
  if (op === 'lde') return prover.lde(x, { width, addedBits: 1, shift: SHIFT });
  return prover.encode(x, { width, addedBits: 1 });
}

/** Σ_j c[j·w + col]·root^(i·j): one output row of a dft of the columns, by direct evaluation. */
function evalRow(c: Uint32Array, w: number, col: number, root: number, i: number): number {
  const z = bbPow(root, i);
  let acc = 0,
    zj = 1;
  for (let j = col; j < c.length; j += w) {
    acc = bbAdd(acc, bbMul(c[j], zj));
    zj = bbMul(zj, z);
  }
  return acc;
}

/** Spot check at a large size: 2 rows of dft / encode directly; lde through idft(lde) on the GPU. */
async function spotCheck(prover: Prover, op: Op, x: Uint32Array, w: number, got: Uint32Array): Promise<string | null> {
  const h = x.length / w;
  const n = got.length / w;
  const root = ref.twoAdicGenerator(Math.round(Math.log2(n)));
  const rows = [n / 2 + 3, n - 1];
  if (op !== 'lde') {
    for (const i of rows) {
      const want = evalRow(x, w, w - 1, root, i);
      if (got[i * w + w - 1] !== want) return `row ${i}: ${got[i * w + w - 1]}, expected ${want}`;
    }
    return null;
  }
  // idft(lde) = coefficients·shift^j then zeros; undo the shift and evaluate them on the subgroup of size h.
  const c = await prover.idft(got, { width: w });
  for (let j = h * w; j < c.length; j++) if (c[j] !== 0) return `idft(lde)[${j}] = ${c[j]}, expected 0 (upper half)`;
  const sInv = bbInv(SHIFT);
  const coeffs = new Uint32Array(h * w);
  let s = 1;
  for (let j = 0; j < h; j++, s = bbMul(s, sInv)) for (let k = 0; k < w; k++) coeffs[j * w + k] = bbMul(c[j * w + k], s);
  const rootH = ref.twoAdicGenerator(Math.round(Math.log2(h)));
  for (const i of [h / 2 + 3, h - 1]) {
    const want = x[i * w + w - 1];
    const v = evalRow(coeffs, w, w - 1, rootH, i);
    if (v !== want) return `lde interpolant at ω^${i}: ${v}, expected input ${want}`;
  }
  return null;
}

function nativeAnchor(): Map<string, { ms: number; impl: string }> {
  const out = new Map<string, { ms: number; impl: string }>();
  const file = process.env.NTT_NATIVE;
  if (!file || !existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const r = JSON.parse(line) as {
      bench: string;
      op: string;
      impl: string;
      log_n: number;
      width: number;
      ms_median: number;
      threads: number;
    };
    if (r.bench !== 'dft') continue;
    const op = r.op === 'coset_lde' ? 'lde' : r.op;
    const key = `${op}:${r.log_n}:${r.width}`;
    const prev = out.get(key);
    if (!prev || r.ms_median < prev.ms) out.set(key, { ms: r.ms_median, impl: `${r.impl} (${r.threads} threads)` });
  }
  return out;
}

export function benchNtt(gpu: GPU): Promise<BenchOutput> {
  return withClock((c) => {
    setClock(c);
    return benchNttRows(gpu);
  });
}

async function benchNttRows(gpu: GPU): Promise<BenchOutput> {
  const rows: Record<string, unknown>[] = [];
  const logs = list(process.env.NTT_LOGS, [20, 22, 24]);
  const widths = list(process.env.NTT_WIDTHS, [1, 8]);
  // 1. Correctness on this adapter before any timing.
  const prover = await createProver({ gpu, check: 'off' });
  const cases = (vectors as { cases: DftCase[] }).cases;
  const ctx = await GpuContext.create(gpu);
  const checks = [];
  for (const op of ['dft', 'idft', 'coset_lde', 'encode'] as DftOp[]) checks.push(await checkNttVectors(prover, cases, op, 12));
  checks.push(
    await checkNttProperties(prover, [
      [0, 1],
      [3, 7],
      [10, 8],
      [14, 1],
      [16, 3],
    ]),
  );
  checks.push(await checkNttErrors(prover));
  // Staged first passes vs src/ref and unstaged, radix 32 at widths 1, 2, 8 and the radix-16 plan timed below.
  checks.push(
    await checkNttStaged(ctx, [
      [16, 1, 32],
      [14, 2, 32],
      [12, 8, 32],
      [16, 1, 16],
    ]),
  );
  checks.push(
    await checkNttTables(ctx, [
      [21, 1, 32],
      [16, 8, 32],
      [16, 1, 16],
    ]),
  );
  checks.push(
    await checkNttFusedLde(ctx, [
      [19, 1, 1],
      [14, 8, 1],
      [13, 4, 2],
    ]),
  );
  // Two-level passes: the default radix 256 (16 lanes: 16 groups at width 1, 2 at width 8), 1024 (the 2^14 lde fuses), 16.
  checks.push(
    await checkNttTwoLevel(ctx, [
      [20, 1, 8],
      [16, 8, 8],
      [14, 1, 10],
      [13, 2, 4],
    ]),
  );
  // KoalaBear (field: 'koalabear'): the crate's vectors, src/ref at up to 2^20, the 2^24 layout (two-level, folded scale) at 2^16.
  checks.push(await checkNttKoalaBearVectors(prover, koalaBearVectors as never));
  checks.push(
    await checkNttKoalaBearRandom(prover, [
      [0, 1],
      [10, 8],
      [16, 3],
      [20, 1],
    ]),
  );
  checks.push(await checkNttKoalaBearErrors(prover));
  checks.push(
    await checkNttKoalaBearLayouts(ctx, [
      [16, 1, twoLevelAt(8)],
      [16, 8, twoLevelAt(8)],
    ]),
  );
  let ok = checks.every((c) => c.ok);
  for (const c of checks) rows.push({ bench: 'ntt-check', step: c.step, ok: c.ok, n: c.n, detail: c.detail });
  const rng = new SplitMix64(0xbe7c);
  for (const w of widths) {
    // Full src/ref comparison: 2^20 rows at width 1, 2^16 at wider (JS reference time ~ h·w·log h).
    const logH = w === 1 ? 20 : 16;
    const x = rng.fieldArray(2 ** logH * w);
    for (const op of OPS) {
      const got = await callApi(prover, op, x, w);
      const want = op === 'dft' ? ref.dft(x, w) : op === 'lde' ? ref.cosetLde(x, w, 1, SHIFT) : ref.encode(x, w, 1);
      let bad = -1;
      for (let i = 0; i < want.length && bad < 0; i++) if (got[i] !== want[i]) bad = i;
      ok &&= bad < 0 && got.length === want.length;
      rows.push({
        bench: 'ntt-check',
        step: `src/ref ${op} 2^${logH}x${w}`,
        ok: bad < 0,
        detail: bad < 0 ? 'all values equal' : `first difference at ${bad}`,
      });
    }
  }
  if (!ok) {
    prover.destroy();
    ctx.destroy();
    return { rows, ok };
  }

  // 2. Timings, next to the roofline measured on the same device.
  if (process.env.NTT_AB) {
    for (const name of process.env.NTT_AB.split(',')) rows.push(...(await jobAb(ctx, name, logs, widths, rng)));
    prover.destroy();
    ctx.destroy();
    return { rows, ok };
  }
  const profilePasses = process.env.NTT_PASS_PROFILE === '1';
  // The checks leave the GPU idle for CPU seconds: without sustained load first, the roofline read
  // 196-213 G mul/s (warm: ~1080) in two runs, and every ratio to the limit with it.
  const warmIn = ctx.upload(rng.fieldArray(2 ** 22), 'warm-up input');
  await warmUp(() => profiledRun(ctx, spec('encode', 22, 1), {}, warmIn, false), 1500);
  ctx.pool.release(warmIn);
  const limit = await roofline(ctx.device, gpu);
  const native = nativeAnchor();
  const rates = await transferRates(ctx);
  for (const logN of logs) {
    for (const w of widths) {
      const x = rng.fieldArray(2 ** logN * w);
      const input = ctx.upload(x, 'bench input');
      // Radix-16 plan next to the default radix-32 one, at the largest width-1 size (same input).
      // ...and workgroups of 64 and 128 threads next to the default (NTT_TUNING.workgroup).
      // ...and the first passes stored straight from registers (R-word strides) next to the staged default.
      const wg = NTT_TUNING.workgroup;
      const variants: Array<[Op, number, number, Pick<NttTuning, 'stageBelowWidth'>?]> = OPS.map((op) => [op, 32, wg]);
      if (logN >= 24 && w === 1) {
        variants.push(['encode', 16, wg], ['lde', 16, wg], ['encode', 32, 64], ['encode', 32, 128]);
        for (const op of ['encode', 'lde', 'dft'] as Op[]) variants.push([op, 32, wg, { stageBelowWidth: 0 }]);
      }
      for (const [op, maxRadix, workgroup, opts] of variants) {
        const sp: NttJob = spec(op, logN, w);
        const tuning: Partial<NttTuning> = { maxRadix, workgroup, ...opts };
        const staged = w < withTuning(tuning).stageBelowWidth;
        const mainRow = maxRadix === 32 && workgroup === wg && opts === undefined;
        const gpuMs: number[] = [];
        const wallMs: number[] = [];
        let err: string | null = null;
        let since = Date.now();
        try {
          const once = () => profiledRun(ctx, sp, tuning, input, false);
          // pipelines, pool, clocks: after the spot check's idle CPU seconds the H100 needs ~2 s of load
          // (a 2^24 dft read 1.44 ms after 0.6 s of warm-up, 0.59 ms after 2 s, in alternating A/B runs)
          await warmUp(once, 2500);
          since = Date.now();
          for (let r = 0; r < 10; r++) {
            const report = await once();
            wallMs.push(report.wallMs);
            if (report.gpuMs !== null) gpuMs.push(report.gpuMs);
          }
        } catch (e) {
          err = String((e as Error).message ?? e);
        }
        if (err) {
          rows.push({ bench: 'ntt', staged, op, maxRadix, logN, width: w, error: err });
          continue;
        }
        if (profilePasses && logN >= 24 && w === 1 && (op === 'encode' || op === 'lde') && maxRadix === 32 && workgroup === wg) {
          for (const r of await profileNttPasses(ctx, sp, tuning, input))
            rows.push({ bench: 'ntt-pass', op, logN, width: w, staged, ...r });
        }
        const resident = gpuMs.length ? median(gpuMs) : median(wallMs);
        const smMHz = currentClock()?.median([[since, Date.now()]]) ?? null;
        if (!mainRow) {
          rows.push({
            bench: 'ntt',
            staged,
            op,
            maxRadix,
            workgroup,
            logN,
            width: w,
            residentMs: +resident.toFixed(4),
            batch: NTT_BATCH,
            smMHz,
          });
          continue;
        }
        // End to end through the public API (upload, passes, readback), and a spot check of that output.
        const e2e: number[] = [];
        let last: Uint32Array | null = null;
        for (let r = 0; r < (logN >= 24 ? 3 : 4); r++) {
          const t0 = performance.now();
          last = await callApi(prover, op, x, w);
          if (r > 0) e2e.push(performance.now() - t0);
        }
        const spot = logN >= 24 ? await spotCheck(prover, op, x, w, last!) : null;
        if (spot) ok = false;
        const nOut = last!.length;
        const bytes = (x.length + nOut) * 4;
        const tCopy = limit.copyGBs === null ? null : (bytes / (limit.copyGBs * 1e9)) * 1e3;
        const tMul = limit.montGmuls === null ? null : (((nOut / 2) * Math.log2(nOut / w)) / (limit.montGmuls * 1e9)) * 1e3;
        const tLimit = tCopy === null || tMul === null ? null : Math.max(tCopy, tMul);
        const anchor = native.get(`${op}:${logN}:${w}`);
        rows.push({
          bench: 'ntt',
          staged,
          op,
          maxRadix,
          logN,
          width: w,
          outRows: nOut / w,
          residentMs: +resident.toFixed(4),
          residentSource: gpuMs.length ? 'timestamp-query' : 'submit-to-done',
          batch: NTT_BATCH,
          smMHz,
          submitToDoneMs: +median(wallMs).toFixed(4),
          endToEndMs: +median(e2e).toFixed(3),
          transferBoundMs: +transferBoundMs(rates, x.length * 4, resident, nOut * 4).toFixed(3),
          endToEndOverBound: +(median(e2e) / transferBoundMs(rates, x.length * 4, resident, nOut * 4)).toFixed(2),
          gElemPerS: +(nOut / resident / 1e6).toFixed(2),
          tLimitMs: tLimit === null ? null : +tLimit.toFixed(4),
          limitBy: tCopy === null || tMul === null ? null : tCopy > tMul ? 'copy' : 'mont',
          ratioToLimit: tLimit === null ? null : +(resident / tLimit).toFixed(2),
          nativeMs: anchor?.ms,
          nativeImpl: anchor?.impl,
          speedupVsNative: anchor ? +(anchor.ms / resident).toFixed(1) : undefined,
          speedupVsNativeEndToEnd: anchor ? +(anchor.ms / median(e2e)).toFixed(1) : undefined,
          spotCheck: logN >= 24 ? (spot ?? 'ok') : undefined,
        });
      }
      ctx.pool.release(input);
      ctx.pool.trim();
    }
  }
  // KoalaBear at its largest sizes next to BabyBear on the same input (bench/ntt-koalabear.ts).
  const kbRows = await koalaBearRows(ctx, Math.max(...logs), widths);
  ok &&= kbRows.every((r) => r.spotCheck === 'ok');
  rows.push(...kbRows);
  rows.push({
    bench: 'ntt-roofline',
    adapter: ctx.description,
    copyGBs: limit.copyGBs,
    montGmuls: limit.montGmuls,
    maxStorageBufferBindingSize: ctx.limits.maxStorageBufferBindingSize,
  });
  prover.destroy();
  ctx.destroy();
  return { rows, ok };
}
