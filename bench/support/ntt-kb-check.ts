/**
 * The GPU NTT over KoalaBear (`field: 'koalabear'`: the ntt_stockham kernels with KoalaBear's
 * constants prepended, KoalaBear's tables): against p3-koala-bear's own dft / idft / coset_lde
 * outputs (test/vectors/koalabear.json) and src/ref on random inputs through the prover (natural and
 * bit-reversed rows, GPU-resident round trips), on a GpuContext in a layout small prover jobs do
 * not take (two-level passes with the scale folded into their tables, as at 2^24 rows), and the
 * field option's bad-input codes. Run by the dev page's `ntt-koalabear-check` mode
 * (test/e2e/ntt.spec.ts). The caller passes the parsed vector file.
 * @module
 */
import type { Prover } from '../../src/prover.js';
import type { GpuContext } from '../../src/gpu/context.js';
import { planOn, runNtt } from '../../src/kernels/ntt/record.js';
import type { NttTuning } from '../../src/kernels/ntt/tuning.js';
import { isProverError } from '../../src/errors.js';
import { BB_P } from '../../src/params/babybear.js';
import { KOALA_BEAR } from '../../src/params/koalabear.js';
import * as ref from '../../src/ref/ntt.js';
import { refJobs, same, type NttCheckRow } from './ntt-check.js';
import { SplitMix64 } from './splitmix.js';

const KB = KOALA_BEAR;
const field = 'koalabear' as const;
type Matrix = { values: number[] };
type KbCase = {
  op: string;
  id: string;
  width: number;
  input: number[];
  dft: Matrix;
  idft: Matrix;
  lde: { added_bits: number; shift: number; output: Matrix };
};

const row = (step: string, bad: string[], n: number, t0: number, ok: string): NttCheckRow => ({
  step,
  ok: bad.length === 0 && n > 0,
  n,
  ms: performance.now() - t0,
  detail: bad.length === 0 ? ok : `${bad.length} differ; first: ${bad[0]}`,
});

/** Every dft case of the crate's vector file: dft, idft and coset_lde through the prover. */
export async function checkNttKoalaBearVectors(prover: Prover, vectors: { cases: KbCase[] }): Promise<NttCheckRow> {
  const t0 = performance.now();
  const cases = vectors.cases.filter((c) => c.op === 'dft');
  const bad: string[] = [];
  for (const c of cases) {
    const x = Uint32Array.from(c.input);
    const { added_bits: addedBits, shift, output } = c.lde;
    const got: Array<[string, Uint32Array, number[]]> = [
      ['dft', await prover.dft(x, { width: c.width, field }), c.dft.values],
      ['idft', await prover.idft(x, { width: c.width, field }), c.idft.values],
      ['lde', await prover.lde(x, { width: c.width, field, addedBits, shift }), output.values],
    ];
    for (const [op, g, want] of got) if (!same(g, Uint32Array.from(want))) bad.push(`${c.id} ${op}`);
  }
  return row('ntt koalabear vectors', bad, 3 * cases.length, t0, `${3 * cases.length} p3-koala-bear outputs equal (dft, idft, coset_lde)`);
}

/** Random KoalaBear matrices (with 0, p − 1 and values BabyBear would refuse) at [log h, width]: every op against src/ref. */
export async function checkNttKoalaBearRandom(prover: Prover, shapes: Array<[number, number]>, seed = 0x4b42): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  let n = 0;
  for (const [logH, width] of shapes) {
    const x = rng.fieldArray(2 ** logH * width, KB.p);
    x.set([0, KB.p - 1, BB_P + 5].slice(0, x.length));
    const tag = `2^${logH}x${width}`;
    const d = await prover.dft(x, { width, field, gpu: true });
    if (d.field !== field) bad.push(`${tag}: the NttMatrix says field ${d.field}`);
    if (!same(await d.read(), ref.dft(x, width, KB))) bad.push(`${tag} dft`);
    if (!same(await prover.idft(d, { width, field }), x)) bad.push(`${tag} idft(dft(x)) on the GPU`);
    d.destroy();
    if (!same(await prover.idft(x, { width, field }), ref.idft(x, width, KB))) bad.push(`${tag} idft`);
    const lde = await prover.lde(x, { width, field, addedBits: 1, shift: KB.generator, bitReversedOutput: true });
    if (!same(lde, ref.bitReverseRows(ref.cosetLde(x, width, 1, KB.generator, KB), width))) bad.push(`${tag} bit-reversed lde`);
    if (!same(await prover.encode(x, { width, field, addedBits: 2 }), ref.encode(x, width, 2, KB))) bad.push(`${tag} encode`);
    n += 5;
  }
  return row('ntt koalabear random', bad, n, t0, `${n} outputs on ${shapes.length} random shapes equal src/ref over KoalaBear`);
}

/**
 * On `ctx`, each [log h, width, tuning] runs dft, idft, lde (shift 3) and encode (1 added bit)
 * over KoalaBear against src/ref. Fails unless some lde folded its scale into its two-level
 * passes' tables (the layout of KoalaBear's largest lde, 2^24 rows), so a green row means those
 * KoalaBear tables and kernels ran; the row counts the fused lde plans too.
 */
export async function checkNttKoalaBearLayouts(
  ctx: GpuContext,
  shapes: Array<[number, number, Partial<NttTuning>]>,
  seed = 0x4b43,
): Promise<NttCheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const bad: string[] = [];
  let n = 0,
    folded = 0,
    fused = 0;
  for (const [logH, width, tuning] of shapes) {
    const x = rng.fieldArray(2 ** logH * width, KB.p);
    for (const [job, want] of refJobs(x, logH, width, KB)) {
      const plan = planOn(ctx, job, tuning);
      if (job.op === 'lde') {
        folded += plan.fold ? 1 : 0;
        fused += plan.fused >= 0 ? 1 : 0;
      }
      if (!same(await ctx.run(() => runNtt(ctx, job, x, undefined, tuning)), want)) bad.push(`${job.op} 2^${logH}x${width}`);
      n++;
    }
  }
  if (folded === 0) bad.push('no lde folded its scale into its tables');
  return row('ntt koalabear layouts', bad, n, t0, `${n} outputs equal src/ref (${folded} folded-scale, ${fused} fused lde)`);
}

/** The field option's bad inputs get their codes; afterwards the prover still computes correctly over both fields. */
export async function checkNttKoalaBearErrors(prover: Prover): Promise<NttCheckRow> {
  const t0 = performance.now();
  const x8 = Uint32Array.from([1, 2, 3, 4, 5, 6, 7, BB_P + 1]);
  const m = await prover.dft(x8, { width: 1, field, gpu: true });
  const cases: Array<[string, string, () => Promise<unknown>]> = [
    ['unknown field', 'INVALID_ARGUMENT', () => prover.dft(x8, { width: 1, field: 'goldilocks' as 'koalabear' })],
    ['a KoalaBear value in a BabyBear dft', 'NON_CANONICAL', () => prover.dft(x8, { width: 1 })],
    ['value >= KoalaBear p', 'NON_CANONICAL', () => prover.dft(Uint32Array.from([KB.p, 0]), { width: 1, field })],
    ['shift >= KoalaBear p', 'NON_CANONICAL', () => prover.lde(x8, { width: 1, field, addedBits: 1, shift: KB.p })],
    ['addedBits 25', 'INVALID_ARGUMENT', () => prover.encode(x8, { width: 1, field, addedBits: 25 })],
    ['output past 2^24 rows', 'TOO_LARGE', () => prover.lde(x8, { width: 1, field, addedBits: 22, shift: 3 })],
    ['a KoalaBear matrix in a BabyBear idft', 'INVALID_ARGUMENT', () => prover.idft(m, { width: 1 })],
    ['a KoalaBear matrix in merkleCommit', 'INVALID_ARGUMENT', () => prover.merkleCommit(m)],
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
  if (!same(await prover.idft(m, { width: 1, field }), x8)) bad.push('idft of the KoalaBear matrix after the errors');
  m.destroy();
  const y = x8.subarray(0, 4);
  if (!same(await prover.dft(y, { width: 2 }), ref.dft(y, 2))) bad.push('BabyBear dft after the errors');
  return row(
    'ntt koalabear bad input',
    bad,
    cases.length + 2,
    t0,
    `${cases.length} bad inputs rejected with their codes; prover still correct`,
  );
}
