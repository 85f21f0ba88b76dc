/**
 * GPU-vs-bigint checks of BN254 Fr and the Groth16 polynomial stage (demo/modes/fr-check.ts runs
 * them in the page; a GPU-machine bench can run them before timing): the WGSL field ops on edge
 * and random values, the Fr NTT (src/kernels/qap/ntt.ts) against src/ref/fr-ntt.ts, and QapStage.h
 * against src/ref/groth16-h.ts. Inputs come from SplitMix64 with fixed seeds.
 * @module
 */
import { SplitMix64 } from './splitmix.js';
import { storageUsage, type GpuContext } from '../../src/gpu/context.js';
import { FR_MONT_R, FR_R, frRootOfUnity } from '../../src/params/bn254-fr.js';
import { fromLimbs, invMod, toLimbs } from '../../src/params/bn254.js';
import { frIntt, frNtt, frScalePowers } from '../../src/ref/fr-ntt.js';
import { groth16H, type QapCoefficients } from '../../src/ref/groth16-h.js';
import { frNttGpu, frNttLimits } from '../../src/kernels/qap/ntt.js';
import { planFrNtt } from '../../src/kernels/qap/ntt-plan.js';
import { QapStage } from '../../src/kernels/qap/stage.js';

export interface FrCheckRow {
  step: string;
  ok: boolean;
  ms: number;
  n: number;
  detail: string;
}

/** A value in [0, r): 256 random bits mod r (the bias is irrelevant for a check). */
export function randomFr(rng: SplitMix64): bigint {
  let x = 0n;
  for (let i = 0; i < 4; i++) x = (x << 64n) | rng.next();
  return x % FR_R;
}

export function frWords(xs: readonly bigint[]): Uint32Array {
  const out = new Uint32Array(8 * xs.length);
  xs.forEach((x, i) => out.set(toLimbs(x), 8 * i));
  return out;
}

export function frValues(words: Uint32Array): bigint[] {
  return Array.from({ length: words.length / 8 }, (_, i) => fromLimbs(words, 8 * i));
}

/** The first index where two arrays differ, as a detail string, or '' if equal. */
function firstDiff(got: readonly bigint[], want: readonly bigint[]): string {
  if (got.length !== want.length) return `length ${got.length} vs ${want.length}`;
  const i = got.findIndex((g, k) => g !== want[k]);
  return i < 0 ? '' : `[${i}] got ${got[i]}, want ${want[i]}`;
}

/** fr_check (add, sub, fr_mul, to/from Montgomery, fr_mul13) on every pair of the edge values (0, 1, 2, r−1, r−2, R mod r, 2^255 mod r, 2^128) plus `random` random pairs. */
export async function checkFrOps(ctx: GpuContext, random: number): Promise<FrCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(0xf7);
  const edges = [0n, 1n, 2n, FR_R - 1n, FR_R - 2n, FR_MONT_R, (1n << 255n) % FR_R, 1n << 128n];
  const xs: bigint[] = [];
  const ys: bigint[] = [];
  for (const x of edges) for (const y of edges) (xs.push(x), ys.push(y));
  for (let i = 0; i < random; i++) (xs.push(randomFr(rng)), ys.push(i % 7 === 0 ? xs[xs.length - 1] : randomFr(rng)));
  const rInv = invMod(FR_MONT_R, FR_R);
  const want = xs.flatMap((x, i) => [
    (x + ys[i]) % FR_R,
    (x - ys[i] + FR_R) % FR_R,
    (((x * ys[i]) % FR_R) * rInv) % FR_R,
    (x * FR_MONT_R) % FR_R,
    (x * rInv) % FR_R,
    (((x * ys[i]) % FR_R) * rInv) % FR_R,
  ]);
  const got = await ctx.run(async () => {
    const pipeline = await ctx.pipelines.get('fr_check', 'fr_check', { FR_CHECK_WG: 64 });
    const bx = ctx.upload(frWords(xs), 'fr check x');
    const by = ctx.upload(frWords(ys), 'fr check y');
    const out = ctx.pool.acquire(6 * 32 * xs.length, storageUsage(), 'fr check out');
    try {
      const enc = ctx.device.createCommandEncoder({ label: 'fr check' });
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(
        0,
        ctx.device.createBindGroup({
          layout: pipeline.getBindGroupLayout(0),
          // Sized: the kernel takes its count from arrayLength(x), and pooled buffers round up.
          entries: [bx, by, out].map((buffer, binding) => ({
            binding,
            resource: { buffer, size: (binding === 2 ? 6 : 1) * 32 * xs.length },
          })),
        }),
      );
      pass.dispatchWorkgroups(Math.ceil(xs.length / 64));
      pass.end();
      return frValues(await ctx.submitAndRead(enc, 'fr check', out, 48 * xs.length));
    } finally {
      for (const b of [bx, by, out]) ctx.pool.release(b);
    }
  });
  const detail = firstDiff(got, want);
  return {
    step: 'fr field ops',
    ok: !detail,
    ms: performance.now() - t0,
    n: xs.length,
    detail: detail || `${xs.length} pairs x add, sub, mul (32- and 13-bit limbs), to/from Montgomery equal bigint`,
  };
}

/**
 * frNttGpu at 2^1 .. 2^maxLog (forward, inverse, coset forward, coset inverse) against src/ref, and
 * at `smallTiles` sizes with the tile capped (2- to 4-pass plans), on the fast and the quick pass
 * pipelines in turn. One row; n counts transforms.
 */
export async function checkFrNtt(ctx: GpuContext, maxLog: number, smallTiles: Array<[number, number]>): Promise<FrCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(0xf8);
  const cases: Array<[number, number | undefined]> = [
    ...Array.from({ length: maxLog }, (_, i) => [i + 1, undefined] as [number, undefined]),
    ...smallTiles,
  ];
  let n = 0;
  const shapes: string[] = [];
  for (const [logN, maxTileLog] of cases) {
    const x = Array.from({ length: 2 ** logN }, (_, i) => (i === 0 ? FR_R - 1n : randomFr(rng)));
    const w2n = frRootOfUnity(logN + 1);
    const wants: Array<[string, { inverse: boolean; coset: boolean }, bigint[]]> = [
      ['ntt', { inverse: false, coset: false }, frNtt(x)],
      ['intt', { inverse: true, coset: false }, frIntt(x)],
      ['coset ntt', { inverse: false, coset: true }, frNtt(frScalePowers(x, w2n))],
      ['coset intt', { inverse: true, coset: true }, frScalePowers(frIntt(x), w2n)],
    ];
    const limits = frNttLimits(ctx);
    if (maxTileLog !== undefined) limits.tileBytes = Math.min(limits.tileBytes, 32 * 2 ** maxTileLog);
    shapes.push(
      planFrNtt(logN, limits)
        .passes.map((p) => p.rLog)
        .join('+'),
    );
    for (const [k, [name, opts, want]] of wants.entries()) {
      // The fast and the quick pass pipelines in turn: each transform kind meets both over the sizes.
      const only = (logN + k) % 2 ? 'quick' : 'fast';
      const got = frValues(await frNttGpu(ctx, frWords(x), { ...opts, maxTileLog, only }));
      const diff = firstDiff(got, want);
      if (diff)
        return {
          step: 'fr ntt',
          ok: false,
          ms: performance.now() - t0,
          n,
          detail: `2^${logN} ${name}, ${only} (passes ${shapes.at(-1)}): ${diff}`,
        };
      n++;
    }
  }
  return {
    step: 'fr ntt',
    ok: true,
    ms: performance.now() - t0,
    n,
    detail: `${n} transforms equal src/ref (fast and quick pipelines); pass shapes ${shapes.join(', ')}`,
  };
}

/**
 * A random key: `perRow` records on average in each row of a random subset (the rest empty), some
 * records repeated (duplicate constraint, signal pairs), all in a shuffled order.
 */
export function randomQapCoefficients(rng: SplitMix64, domainSize: number, nVars: number, perRow: number): QapCoefficients {
  const recs: Array<[number, number, number, bigint]> = [];
  for (let m = 0; m < 2; m++) {
    for (let c = 0; c < domainSize; c++) {
      if (Number(rng.next() % 4n) === 0) continue; // an empty row
      const k = 1 + Number(rng.next() % BigInt(2 * perRow));
      for (let i = 0; i < k; i++) recs.push([m, c, Number(rng.next() % BigInt(nVars)), randomFr(rng)]);
    }
  }
  const dups = recs.length >> 3;
  for (let i = 0; i < dups; i++) {
    const [m, c, s] = recs[Number(rng.next() % BigInt(recs.length))];
    recs.push([m, c, s, i % 2 ? randomFr(rng) : FR_R - 1n]);
  }
  for (let i = recs.length - 1; i > 0; i--) {
    const j = Number(rng.next() % BigInt(i + 1));
    [recs[i], recs[j]] = [recs[j], recs[i]];
  }
  const count = recs.length;
  const values = new Uint32Array(8 * count);
  recs.forEach((r, i) => values.set(toLimbs(r[3]), 8 * i));
  return {
    count,
    matrix: Uint32Array.from(recs, (r) => r[0]),
    constraint: Uint32Array.from(recs, (r) => r[1]),
    signal: Uint32Array.from(recs, (r) => r[2]),
    values,
  };
}

/** QapStage.h against groth16H: one key per size, two witnesses each (the stage reused; fast, then quick pipelines), plus an empty key. */
export async function checkQapStage(ctx: GpuContext, logs: readonly number[]): Promise<FrCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(0xf9);
  let n = 0;
  const sizes = logs.map((l) => [2 ** l, 3 + Number(rng.next() % 40n), 3] as [number, number, number]);
  sizes.push([4, 5, 0]); // an empty key: every row empty, h = 0
  for (const [domainSize, nVars, perRow] of sizes) {
    const coeffs = perRow ? randomQapCoefficients(rng, domainSize, nVars, perRow) : emptyCoefficients();
    const stage = await ctx.run(() => QapStage.upload(ctx, coeffs, domainSize, nVars));
    try {
      for (let rep = 0; rep < 2; rep++) {
        const w = Array.from({ length: nVars }, (_, i) => (i === 0 ? 1n : i === 1 && rep ? FR_R - 1n : i === 2 ? 0n : randomFr(rng)));
        const only = rep ? 'quick' : 'fast'; // each key on both pipeline sets
        const got = frValues(await ctx.run(() => stage.h(frWords(w), only)));
        const diff = firstDiff(got, groth16H(coeffs, w, domainSize));
        if (diff)
          return {
            step: 'qap h',
            ok: false,
            ms: performance.now() - t0,
            n,
            detail: `N ${domainSize}, ${coeffs.count} records, witness ${rep} (${only}): ${diff}`,
          };
        n++;
      }
    } finally {
      stage.destroy();
    }
  }
  return {
    step: 'qap h',
    ok: true,
    ms: performance.now() - t0,
    n,
    detail: `${n} witnesses' h equal groth16H (N ${sizes.map((s) => s[0]).join(', ')})`,
  };
}

function emptyCoefficients(): QapCoefficients {
  return { count: 0, matrix: new Uint32Array(0), constraint: new Uint32Array(0), signal: new Uint32Array(0), values: new Uint32Array(0) };
}

/** Bad input: each must throw its ProverError code before touching the GPU. */
export async function checkQapErrors(ctx: GpuContext): Promise<FrCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(0xfa);
  const good = randomQapCoefficients(rng, 4, 3, 1);
  const bad = (patch: Partial<QapCoefficients>): QapCoefficients => ({ ...good, ...patch });
  const setAt = (a: Uint32Array, i: number, v: number) => Object.assign(a.slice(), { [i]: v });
  const big = good.values.slice();
  big.set(toLimbs(FR_R), 0);
  const cases: Array<[string, string, () => Promise<unknown>]> = [
    [
      'constraint outside the domain',
      'INVALID_ARGUMENT',
      () => ctx.run(() => QapStage.upload(ctx, bad({ constraint: setAt(good.constraint, 0, 4) }), 4, 3)),
    ],
    ['signal past nVars', 'INVALID_ARGUMENT', () => ctx.run(() => QapStage.upload(ctx, bad({ signal: setAt(good.signal, 0, 3) }), 4, 3))],
    ['matrix 2', 'INVALID_ARGUMENT', () => ctx.run(() => QapStage.upload(ctx, bad({ matrix: setAt(good.matrix, 0, 2) }), 4, 3))],
    ['value r', 'NON_CANONICAL', () => ctx.run(() => QapStage.upload(ctx, bad({ values: big }), 4, 3))],
    ['domain not a power of two', 'INVALID_LENGTH', () => ctx.run(() => QapStage.upload(ctx, good, 6, 3))],
    ['ntt input r', 'NON_CANONICAL', () => frNttGpu(ctx, frWords([0n, FR_R]))],
    ['ntt length 3', 'INVALID_LENGTH', () => frNttGpu(ctx, frWords([0n, 1n, 2n]))],
  ];
  const stage = await ctx.run(() => QapStage.upload(ctx, good, 4, 3));
  try {
    cases.push(['witness too short', 'INVALID_LENGTH', () => ctx.run(() => stage.h(frWords([1n, 2n])))]);
    cases.push(['witness value r', 'NON_CANONICAL', () => ctx.run(() => stage.h(frWords([1n, FR_R, 0n])))]);
    for (const [name, code, f] of cases) {
      const got = await f().then(
        () => 'no error',
        (e: { code?: string }) => e.code ?? String(e),
      );
      if (got !== code)
        return { step: 'qap bad input', ok: false, ms: performance.now() - t0, n: cases.length, detail: `${name}: ${got}, want ${code}` };
    }
  } finally {
    stage.destroy();
  }
  return {
    step: 'qap bad input',
    ok: true,
    ms: performance.now() - t0,
    n: cases.length,
    detail: `${cases.length} bad inputs rejected with their codes`,
  };
}
