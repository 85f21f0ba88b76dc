/**
 * GPU NTT checks, runnable wherever a Prover runs: the dev page's `ntt-check` autorun (headless
 * Chromium on SwiftShader in CI) and `npm run bench -- ntt` (Node + Dawn) before any timing.
 *   - vectors: every dft.json case (Plonky3 0.9.0-rc.2) up to a height limit, through prover.dft /
 *     idft / lde / encode, compared value for value or by sha256 + head;
 *   - properties on random data: idft(dft(x)) = x through a GPU-resident handle, bit-reversed
 *     output = bitReverseRows(natural output), and agreement with src/ref at odd widths;
 *   - bad input: each ProverError code, and the prover still works afterwards;
 *   - staged first passes (GpuContext-level, src/kernels/ntt/record.ts): shapes where the first pass
 *     runs `ntt_pass_r32_staged`, against src/ref and against the unstaged kernel (stageBelowWidth 0);
 *   - table twiddles: shapes whose middle passes run `ntt_pass_rR_table`, against src/ref and
 *     against twiddleTables: false.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { planOn, runNtt } from '../../src/kernels/ntt/record.js';
import type { NttJob } from '../../src/kernels/ntt/job.js';
import { twoLevelAt, type NttTuning } from '../../src/kernels/ntt/tuning.js';
import { isProverError } from '../../src/errors.js';
import { BABY_BEAR, BB_P } from '../../src/params/babybear.js';
import type { Monty31Params } from '../../src/params/fields.js';
import { NTT_FLAG_HALF } from '../../src/kernels/ntt/passes.js';
import * as ref from '../../src/ref/ntt.js';
import { caseInput, caseLabel, compareOutput, type DftCase, type DftOp } from './dft-vectors.js';
import { SplitMix64 } from './splitmix.js';

export interface NttCheckRow {
  step: string;
  ok: boolean;
  /** cases or properties checked */
  n: number;
  detail: string;
  ms: number;
}

export async function runCase(prover: Prover, c: DftCase, input: Uint32Array): Promise<Uint32Array> {
  const w = { width: c.width };
  switch (c.op) {
    case 'dft':
      return prover.dft(input, w);
    case 'idft':
      return prover.idft(input, w);
    case 'coset_lde':
      return prover.lde(input, { ...w, addedBits: c.added_bits!, shift: c.shift! });
    case 'encode':
      return prover.encode(input, { ...w, addedBits: c.added_bits! });
  }
}

/** Every case of `op` with log_h ≤ maxLogH: one row with the count and the first mismatch. */
export async function checkNttVectors(prover: Prover, cases: DftCase[], op: DftOp, maxLogH: number): Promise<NttCheckRow> {
  const t0 = performance.now();
  const mine = cases.filter((c) => c.op === op && c.log_h <= maxLogH);
  const bad: string[] = [];
  for (const c of mine) {
    const diff = await compareOutput(c, await runCase(prover, c, caseInput(c)));
    if (diff) bad.push(`${caseLabel(c)}: ${diff}`);
  }
  const ok = bad.length === 0 && mine.length > 0;
  return {
    step: `ntt vectors ${op}`,
    ok,
    n: mine.length,
    ms: performance.now() - t0,
    detail: ok
      ? `${mine.length} Plonky3 cases equal (log h ≤ ${maxLogH})`
      : `${bad.length} of ${mine.length} differ; first: ${bad[0] ?? 'no cases'}`,
  };
}

export const same = (a: Uint32Array, b: Uint32Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Random-data properties at the given (log h, width) shapes. */
export async function checkNttProperties(prover: Prover, shapes: Array<[number, number]>, seed = 0x77): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  let n = 0;
  for (const [logH, width] of shapes) {
    const h = 2 ** logH;
    const x = rng.fieldArray(h * width);
    const tag = `2^${logH}x${width}`;
    // idft(dft(x)) = x with the intermediate kept on the GPU
    const d = await prover.dft(x, { width, gpu: true });
    const back = await prover.idft(d, { width });
    const dHost = await d.read();
    d.destroy();
    if (!same(back, x)) bad.push(`${tag}: idft(dft(x)) != x`);
    if (!same(dHost, ref.dft(x, width))) bad.push(`${tag}: dft != src/ref`);
    // bit-reversed rows, fused into the last pass
    const br = await prover.lde(x, { width, addedBits: 1, shift: 31, bitReversedOutput: true });
    if (!same(br, ref.bitReverseRows(ref.cosetLde(x, width, 1, 31), width))) bad.push(`${tag}: bit-reversed lde != src/ref`);
    // encode from a GPU-resident input, then idft of the codeword gives the zero-padded coefficients
    const cw = await prover.encode(x, { width, addedBits: 2, gpu: true });
    const coeffs = await prover.idft(cw, { width });
    cw.destroy();
    const padded = new Uint32Array(4 * h * width);
    padded.set(x);
    if (!same(coeffs, padded)) bad.push(`${tag}: idft(encode(x)) != zero-padded x`);
    n += 4;
  }
  return {
    step: 'ntt properties',
    ok: bad.length === 0,
    n,
    ms: performance.now() - t0,
    detail: bad.length === 0 ? `${n} properties hold on ${shapes.length} random shapes` : bad.join('; '),
  };
}

/** Each bad input gets its ProverError code; afterwards the prover still computes correctly. */
export async function checkNttErrors(prover: Prover): Promise<NttCheckRow> {
  const t0 = performance.now();
  const x8 = Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  const cases: Array<[string, string, () => Promise<unknown>]> = [
    ['length not a multiple of width', 'INVALID_LENGTH', () => prover.dft(x8, { width: 3 })],
    ['height not a power of two', 'INVALID_LENGTH', () => prover.dft(new Uint32Array(6), { width: 1 })],
    ['empty input', 'INVALID_LENGTH', () => prover.idft(new Uint32Array(0), { width: 1 })],
    ['value >= p', 'NON_CANONICAL', () => prover.dft(Uint32Array.from([1, BB_P, 0, 0]), { width: 1 })],
    ['width 0', 'INVALID_ARGUMENT', () => prover.dft(x8, { width: 0 })],
    ['width 1025', 'INVALID_ARGUMENT', () => prover.dft(new Uint32Array(1025), { width: 1025 })],
    ['addedBits -1', 'INVALID_ARGUMENT', () => prover.encode(x8, { width: 1, addedBits: -1 })],
    ['addedBits past 2^27', 'TOO_LARGE', () => prover.lde(x8, { width: 1, addedBits: 25, shift: 31 })],
    ['addedBits 1.5', 'INVALID_ARGUMENT', () => prover.encode(x8, { width: 1, addedBits: 1.5 })],
    ['shift 0', 'INVALID_ARGUMENT', () => prover.lde(x8, { width: 1, addedBits: 1, shift: 0 })],
    ['shift >= p', 'NON_CANONICAL', () => prover.lde(x8, { width: 1, addedBits: 1, shift: BB_P })],
    ['not a Uint32Array', 'INVALID_ARGUMENT', () => prover.dft([1, 2] as unknown as Uint32Array, { width: 1 })],
    ['over the device limit', 'TOO_LARGE', () => prover.encode(new Uint32Array(8 * 1024), { width: 1024, addedBits: 24 })],
  ];
  const bad: string[] = [];
  for (const [what, code, call] of cases) {
    try {
      await call();
      bad.push(`${what}: no error`);
    } catch (e) {
      if (!isProverError(e) || e.code !== code) bad.push(`${what}: got ${isProverError(e) ? e.code : String(e)}, expected ${code}`);
    }
  }
  const destroyed = await prover.dft(x8, { width: 1, gpu: true });
  destroyed.destroy();
  try {
    await destroyed.read();
    bad.push('read after destroy: no error');
  } catch (e) {
    if (!isProverError(e) || e.code !== 'DESTROYED') bad.push(`read after destroy: ${String(e)}`);
  }
  const still = await prover.dft(x8, { width: 2 });
  if (!same(still, ref.dft(x8, 2))) bad.push('prover gives a wrong dft after the errors');
  return {
    step: 'ntt bad input',
    ok: bad.length === 0,
    n: cases.length + 2,
    ms: performance.now() - t0,
    detail: bad.length === 0 ? `${cases.length} bad inputs rejected with their codes; prover still correct` : bad.join('; '),
  };
}

/**
 * The staged first pass (tile, then contiguous blocks) on shapes where it runs: each [log h, width,
 * maxRadix] has h·width ≥ NTT_STAGE_WORDS = 4096 (one full workgroup), so dft, idft, coset lde
 * (shift 31) and encode (addedBits 1) each stage the first pass of every transform. Each output
 * equals src/ref and the output unstaged (stageBelowWidth 0). Fails if no pass was staged (e.g. an
 * adapter whose limits rule the tile out), so a green row means the staged kernel ran. The first
 * shape's lde also runs with per-pass timestamp writes (one compute pass per NTT pass).
 */
export async function checkNttStaged(ctx: GpuContext, shapes: Array<[number, number, number]>, seed = 0x5a9): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  let n = 0,
    staged = 0;
  for (const [si, [logH, width, maxRadix]] of shapes.entries()) {
    const x = rng.fieldArray(2 ** logH * width);
    const jobs = refJobs(x, logH, width);
    for (const [job, want] of jobs) {
      const tuning: Partial<NttTuning> = { maxRadix, stageBelowWidth: Infinity }; // forced: width 8 is unstaged by default
      const tag = `${job.op} 2^${logH}x${width} radix ≤ ${maxRadix}`;
      const flags = planOn(ctx, job, tuning).staged;
      staged += flags.filter(Boolean).length;
      if (!flags[0]) bad.push(`${tag}: first pass not staged`);
      const on = await ctx.run(() => runNtt(ctx, job, x, undefined, tuning));
      const off = await ctx.run(() => runNtt(ctx, job, x, undefined, { ...tuning, stageBelowWidth: 0 }));
      if (!same(on, want)) bad.push(`${tag}: staged != src/ref`);
      if (!same(on, off)) bad.push(`${tag}: staged != unstaged`);
      n += 2;
    }
    if (si === 0) bad.push(...(await checkPerPass(ctx, jobs[2][0], { maxRadix, stageBelowWidth: Infinity }, x, jobs[2][1]))); // lde
  }
  if (staged === 0) bad.push('no pass ran the staged kernel');
  return {
    step: 'ntt staged first pass',
    ok: bad.length === 0,
    n,
    ms: performance.now() - t0,
    detail: bad.length === 0 ? `${n} outputs equal src/ref and the unstaged path; ${staged} staged passes` : bad.join('; '),
  };
}

const TWIDDLE_OPTIONS: Array<[string, Partial<NttTuning>]> = [
  ['tables + shoup', { twiddleTables: true, shoup: true }],
  ['split tables past 64 + shoup', { twiddleTables: true, shoup: true, tableMax: 64, splitTables: true }],
  ['split last passes + shoup', { twiddleTables: true, shoup: true, splitTables: true }],
  ['tables + montgomery', { twiddleTables: true, shoup: false }],
  ['computed + montgomery', { twiddleTables: false, shoup: false }],
];

/** dft, idft, coset lde (shift 31) and encode (addedBits 1) of x (2^logH rows), each with src/ref's output. */
export function refJobs(x: Uint32Array, logH: number, width: number, F: Monty31Params = BABY_BEAR): Array<[NttJob, Uint32Array]> {
  const h = 2 ** logH;
  // BabyBear's jobs name no field, as the prover's own do.
  const field = F.name === 'babybear' ? {} : { field: F.name };
  const shift = F.generator;
  return [
    [{ op: 'dft', height: h, width, ...field }, ref.dft(x, width, F)],
    [{ op: 'idft', height: h, width, ...field }, ref.idft(x, width, F)],
    [{ op: 'lde', height: h, width, addedBits: 1, shift, ...field }, ref.cosetLde(x, width, 1, shift, F)],
    [{ op: 'encode', height: h, width, addedBits: 1, ...field }, ref.encode(x, width, 1, F)],
  ];
}

/**
 * The twiddle options on shapes [log h, width, maxRadix] with middle passes: table twiddles
 * (`ntt_pass_rR_table`) with Shoup multiplies, the same with split tables (`_split`) from
 * Ns·R > 64 on and for last passes only, table twiddles with Montgomery multiplies, and computed
 * twiddles (twiddleTables: false) with Montgomery: each output equals src/ref. Fails unless
 * both the table and the split kernels ran.
 */
export async function checkNttTables(ctx: GpuContext, shapes: Array<[number, number, number]>, seed = 0x7ab): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  let n = 0,
    tables = 0,
    splits = 0;
  for (const [logH, width, maxRadix] of shapes) {
    const x = rng.fieldArray(2 ** logH * width);
    for (const [job, want] of refJobs(x, logH, width)) {
      const tag = `${job.op} 2^${logH}x${width} radix ≤ ${maxRadix}`;
      for (const [name, opts] of TWIDDLE_OPTIONS) {
        const tuning = { maxRadix, ...opts };
        const sources = planOn(ctx, job, tuning).steps.map((s) => s.twiddles);
        tables += sources.filter((s) => s === 'table').length;
        splits += sources.filter((s) => s === 'split').length;
        const got = await ctx.run(() => runNtt(ctx, job, x, undefined, tuning));
        if (!same(got, want)) bad.push(`${tag}: ${name} != src/ref`);
        n++;
      }
    }
  }
  if (tables === 0 || splits === 0) bad.push(`${tables} table and ${splits} split-table passes: both kernels must run`);
  return {
    step: 'ntt twiddle options',
    ok: bad.length === 0,
    n,
    ms: performance.now() - t0,
    detail:
      bad.length === 0
        ? `${n} outputs equal src/ref (${TWIDDLE_OPTIONS.map((o) => o[0]).join(', ')}); ${tables} table and ${splits} split-table passes`
        : bad.join('; '),
  };
}

/**
 * lde with the idft's last pass fused into the dft's first (fuseLde) on shapes [log h, width,
 * addedBits] where it applies (idft last radix 32 / 2^addedBits, staged dft first pass), against
 * src/ref's coset LDE (shift 31). Fails if the fused kernel did not run.
 */
export async function checkNttFusedLde(ctx: GpuContext, shapes: Array<[number, number, number]>, seed = 0xf05): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  for (const [logH, width, addedBits] of shapes) {
    const h = 2 ** logH;
    const x = rng.fieldArray(h * width);
    const job: NttJob = { op: 'lde', height: h, width, addedBits, shift: 31 };
    if (planOn(ctx, job, { fuseLde: true }).fused < 0) bad.push(`2^${logH}x${width} +${addedBits}: not fused`);
    const got = await ctx.run(() => runNtt(ctx, job, x, undefined, { fuseLde: true }));
    if (!same(got, ref.cosetLde(x, width, addedBits, 31))) bad.push(`2^${logH}x${width} +${addedBits}: fused lde != src/ref`);
  }
  return {
    step: 'ntt fused lde',
    ok: bad.length === 0,
    n: shapes.length,
    ms: performance.now() - t0,
    detail: bad.length === 0 ? `${shapes.length} fused ldes equal src/ref` : bad.join('; '),
  };
}

/** nttToGpu with per-pass timestamp writes (the bench's NTT_PASS_PROFILE): one labelled compute pass per NTT pass, same output. */
async function checkPerPass(
  ctx: GpuContext,
  job: NttJob,
  tuning: Partial<NttTuning>,
  x: Uint32Array,
  want: Uint32Array,
): Promise<string[]> {
  const labels: string[] = [];
  const got = await ctx.run(() =>
    runNtt(
      ctx,
      job,
      x,
      (label) => {
        labels.push(label);
        return undefined;
      },
      tuning,
    ),
  );
  const bad: string[] = [];
  const plan = planOn(ctx, job, tuning);
  if (!same(got, want)) bad.push(`per-pass ${job.op}: output != src/ref`);
  if (labels.join() !== plan.steps.map((s) => s.label).join() || !labels[0].endsWith('ns=1 staged'))
    bad.push(`per-pass ${job.op}: compute passes ${labels.join(', ')}`);
  return bad;
}

/**
 * Two-level passes (NttTuning.twoLevel, `ntt_pass2_r${R}*`) on shapes [log h, width, tileLog]: dft,
 * idft, encode and lde (a zero-padded radix-2 first pass folded into the next pass's loads where
 * the layout has one, foldPadding) against src/ref. Fails unless two-level passes ran with each
 * twiddle source (none at Ns = 1, a pass table, a split table) and an encode and an lde folded.
 */
export async function checkNttTwoLevel(ctx: GpuContext, shapes: Array<[number, number, number]>, seed = 0x2e1): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  const seen = new Set<string>();
  let n = 0;
  for (const [logH, width, twoLevel] of shapes) {
    const x = rng.fieldArray(2 ** logH * width);
    for (const [job, want] of refJobs(x, logH, width)) {
      const tuning = twoLevelAt(twoLevel);
      const plan = planOn(ctx, job, tuning);
      if (plan.twoLevel !== twoLevel) {
        bad.push(`${job.op} 2^${logH}x${width}: two-level 2^${twoLevel} does not fit this adapter`);
        continue;
      }
      for (const s of plan.steps) if (s.pass.sub > 0) seen.add(s.twiddles);
      if (plan.passes.some((p) => (p.flags & NTT_FLAG_HALF) !== 0)) seen.add(`folded ${job.op}`);
      if (plan.fold) seen.add('scale in tables');
      const got = await ctx.run(() => runNtt(ctx, job, x, undefined, tuning));
      if (!same(got, want)) bad.push(`${job.op} 2^${logH}x${width} two-level 2^${twoLevel} != src/ref`);
      n++;
    }
  }
  for (const s of ['staged', 'table', 'split'])
    if (!seen.has(s)) bad.push(`no two-level pass with ${s === 'staged' ? 'no' : s} twiddles ran`);
  for (const op of ['encode', 'lde'])
    if (!seen.has(`folded ${op}`)) bad.push(`no ${op} with its padded radix-2 pass folded into the next pass's loads (foldPadding) ran`);
  if (!seen.has('scale in tables')) bad.push('no lde with its scale folded into its tables (scaleFold) ran');
  return {
    step: 'ntt two-level passes',
    ok: bad.length === 0,
    n,
    ms: performance.now() - t0,
    detail: bad.length === 0 ? `${n} outputs equal src/ref (twiddles: ${[...seen].join(', ')})` : bad.join('; '),
  };
}
