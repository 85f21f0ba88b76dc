// Autorun mode `ntt-check`: the GPU NTT against every Plonky3 dft.json case up to 2^12 rows
// (`?maxLogH=` lowers it), random-data properties, and bad-input codes (bench/support/ntt-check.ts) on
// the page's prover. Then, on a GpuContext of its own: `ntt staged first pass` runs the staged
// first-pass kernel at widths 1, 2 and 8 against src/ref and the unstaged path (~12 s on
// SwiftShader, nearly all of it compiling the radix-32 pipelines of each width); `ntt table
// twiddles` the table-twiddle middle passes (Shoup and Montgomery) and computed twiddles against
// src/ref; `ntt two-level passes` the radix-R·R passes through workgroup memory (NttTuning.twoLevel).
// Autorun mode `ntt-koalabear-check` (not in all-check; test/e2e/ntt.spec.ts runs it): the same
// kernels over KoalaBear against p3-koala-bear's vectors and src/ref (bench/support/ntt-kb-check.ts).
import type { ModeContext } from '../autorun.js';
import vectors from '../../test/vectors/dft.json' with { type: 'json' };
import koalaBearVectors from '../../test/vectors/koalabear.json' with { type: 'json' };
import type { DftCase, DftOp } from '../../bench/support/dft-vectors.js';
import {
  checkNttErrors,
  checkNttFusedLde,
  checkNttProperties,
  checkNttStaged,
  checkNttTables,
  checkNttTwoLevel,
  checkNttVectors,
  type NttCheckRow,
} from '../../bench/support/ntt-check.js';
import { checkNttApiBlocks, checkNttColumnBlocks, checkNttLongColumns } from '../../bench/support/ntt-blocks-check.js';
import {
  checkNttKoalaBearErrors,
  checkNttKoalaBearLayouts,
  checkNttKoalaBearRandom,
  checkNttKoalaBearVectors,
} from '../../bench/support/ntt-kb-check.js';
import { twoLevelAt } from '../../src/kernels/ntt/tuning.js';
import type { Prover } from '../../src/index.js';
import { GpuContext } from '../../src/gpu/context.js';

// Random shapes for the properties: 1 row, odd widths, several passes.
const SHAPES: Array<[number, number]> = [
  [0, 1],
  [1, 2],
  [5, 3],
  [9, 1],
  [11, 5],
];
// [log h, width, maxRadix] with h·width ≥ 4096, the least at which a first pass stages.
const STAGED_SHAPES: Array<[number, number, number]> = [
  [12, 1, 32],
  [11, 2, 32],
  [9, 8, 32],
];
// Middle passes that read twiddle tables: 2^11 = 32·32·2 (one at Ns = 32), and radix 4 (Ns = 4..64).
const TABLE_SHAPES: Array<[number, number, number]> = [
  [11, 1, 32],
  [10, 3, 4],
];
// [log h, width, two-level log]: 2^12 = 16·16·16 (none, table, split twiddles), odd width, R = 8,
// and 2^10 = 32·32 (one R = 32 pass, the last) with an lde whose idft [1024] cannot fuse.
const TWO_LEVEL_SHAPES: Array<[number, number, number]> = [
  [12, 1, 4],
  [9, 3, 4],
  [8, 2, 6],
  [10, 1, 10],
];

async function checkAll(prover: Prover, maxLogH: number, shapes: Array<[number, number]>, emit: (r: NttCheckRow) => void): Promise<void> {
  const cases = (vectors as { cases: DftCase[] }).cases;
  for (const op of ['dft', 'idft', 'coset_lde', 'encode'] as DftOp[]) emit(await checkNttVectors(prover, cases, op, maxLogH));
  emit(await checkNttProperties(prover, shapes));
  emit(await checkNttErrors(prover));
}

export async function nttCheck({ prover, params, report }: ModeContext): Promise<void> {
  const maxLogH = Number(params.get('maxLogH') ?? 12);
  const emit = (r: NttCheckRow) => report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
  await checkAll(prover, maxLogH, SHAPES, emit);
  // The page's `&limits=default` holds for this context too (test/e2e/default-limits.spec.ts).
  const ctx = await GpuContext.create(navigator.gpu, params.get('limits') === 'default' ? { limits: 'default' } : {});
  try {
    emit(await checkNttStaged(ctx, STAGED_SHAPES));
    emit(await checkNttTables(ctx, TABLE_SHAPES));
    emit(
      await checkNttFusedLde(ctx, [
        [9, 4, 1],
        [14, 1, 1],
        [8, 4, 2],
        [7, 8, 3],
      ]),
    );
    emit(await checkNttTwoLevel(ctx, TWO_LEVEL_SHAPES));
    // past one binding (lowered to 2^12 values): 2^8 x 22 (lde/encode 2^9 x 22: blocks of 8, 8, 6 columns)
    emit(
      await checkNttColumnBlocks(
        ctx,
        [
          [8, 22],
          [9, 13],
        ],
        2 ** 12,
      ),
    );
    // one column past it: four-step pieces (7 jobs, outputs 2^13-2^14), and the API (row-blocked NttMatrix)
    emit(await checkNttLongColumns(ctx, 2 ** 12));
    emit(await checkNttApiBlocks(ctx, 2 ** 12));
  } finally {
    ctx.destroy();
  }
}

/**
 * `ntt-koalabear-check`: the crate's vectors (1-256 rows, widths 1-3), random inputs at shapes
 * whose pipelines the vectors already compiled (compiles dominate on SwiftShader), bad input, then
 * on a GpuContext two-level passes with the folded scale (2^12 = 16·16·16), KoalaBear's 2^24 layout.
 */
export async function nttKoalaBearCheck({ prover, params, report }: ModeContext): Promise<void> {
  const emit = (r: NttCheckRow) => report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
  emit(await checkNttKoalaBearVectors(prover, koalaBearVectors as never));
  emit(
    await checkNttKoalaBearRandom(prover, [
      [0, 1],
      [5, 3],
      [8, 2],
    ]),
  );
  emit(await checkNttKoalaBearErrors(prover));
  const ctx = await GpuContext.create(navigator.gpu, params.get('limits') === 'default' ? { limits: 'default' } : {});
  try {
    emit(await checkNttKoalaBearLayouts(ctx, [[12, 1, twoLevelAt(4)]]));
  } finally {
    ctx.destroy();
  }
}
