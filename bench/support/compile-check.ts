/**
 * Shapes are data, not source: a second size of a family that has run creates no pipeline
 * (prover.stats().pipelines counts them), and after prover.warmUp(['ntt']) NTT jobs of sizes it
 * never ran create none either. Each second-size result is also checked against src/ref or noble,
 * so a pipeline reused at a size it was not built for would show as a wrong answer. Run by the
 * `compile-check` mode (test/e2e/compile.spec.ts) and usable from any prover.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import type { Prover } from '../../src/prover.js';
import { cosetLde, dft } from '../../src/ref/ntt.js';
import { merkleTree } from '../../src/ref/merkle.js';
import { SplitMix64 } from './splitmix.js';
import { seededPoints, seededScalar } from './msm-check.js';
import type { CheckRow } from './poseidon2-check.js';

const G = bn254.G1.Point;
const equal = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (x: number, i: number) => x === b[i]);

/**
 * Run `first` (compiles what it needs), then `second` at another size; the row fails when the
 * second created a pipeline or `second` returned a wrong answer.
 */
async function secondSize(prover: Prover, step: string, first: () => Promise<unknown>, second: () => Promise<boolean>): Promise<CheckRow> {
  const t0 = performance.now();
  await first();
  // What the first call compiles in the background (an MSM walker's) is handed to the driver after
  // it settles, one pipeline per macrotask (PipelineCache): counted with it, not with the second,
  // once the count holds still. An empty warm-up is a round trip (a worker's stats come with each reply).
  let before = -1;
  for (let i = 0; i < 40; i++) {
    await prover.warmUp([]);
    const now = prover.stats().pipelines;
    if (now === before) break;
    before = now;
    await new Promise((r) => setTimeout(r, 50));
  }
  const right = await second();
  const added = prover.stats().pipelines - before;
  return {
    step,
    ok: added === 0 && right,
    n: 1,
    ms: performance.now() - t0,
    detail: `${added} new pipelines at the second size; result ${right ? 'equals the reference' : 'WRONG'}`,
  };
}

/** A job that waits for its pipelines says so in its progress ('compiling'); once compiled, it does not. */
async function compilingReported(prover: Prover, rng: SplitMix64): Promise<CheckRow> {
  const t0 = performance.now();
  // Width 2: a module no earlier job, self-check or first-call prefetch compiled.
  const x = rng.fieldArray(2 ** 9 * 2);
  const stages = async () => {
    const seen: string[] = [];
    const y = await prover.lde(x, { width: 2, addedBits: 1, shift: 31, onProgress: (p) => seen.push(p.stage) });
    return { seen, right: equal(y, cosetLde(x, 2, 1, 31)) };
  };
  const first = await stages();
  const again = await stages();
  const ok = first.seen.includes('compiling') && !again.seen.includes('compiling') && first.right && again.right;
  return {
    step: "a job waiting for a compile reports 'compiling'",
    ok,
    n: 1,
    ms: performance.now() - t0,
    detail: `first call: ${first.seen.join(' > ')}; again: ${again.seen.join(' > ')}`,
  };
}

export async function checkCompileOnce(prover: Prover, seed = 0x29): Promise<CheckRow[]> {
  const rng = new SplitMix64(seed);
  const rows: CheckRow[] = [];
  // Sizes with the same pass kinds (radix-32 first and middle passes, the same remainder radix last),
  // so the second may reuse every pipeline: at width 8 2^11 and 2^16 rows (idft 32·32·2, dft 32·32·4,
  // one more radix 32 each); at width 1 the first pass is staged from 2^12 rows, so 2^13 and 2^18.
  for (const [width, a, b] of [
    [8, 11, 16],
    [1, 13, 18],
  ]) {
    const opts = { width, addedBits: 1, shift: 31 };
    rows.push(
      await secondSize(
        prover,
        `lde second size x${width}`,
        () => prover.lde(rng.fieldArray(2 ** a * width), opts),
        async () => {
          const x = rng.fieldArray(2 ** b * width);
          return equal(await prover.lde(x, opts), cosetLde(x, width, 1, 31));
        },
      ),
    );
  }
  // After the family's first call (whose pipelines the router requested ahead): a new width compiles.
  rows.push(await compilingReported(prover, rng));
  rows.push(
    await secondSize(
      prover,
      'merkleCommit second size',
      () => prover.merkleCommit(rng.fieldArray(2 ** 6 * 8), { width: 8 }),
      async () => {
        const x = rng.fieldArray(2 ** 10 * 8);
        const { root, tree } = await prover.merkleCommit(x, { width: 8 });
        tree.dispose();
        return equal(root, merkleTree([{ values: x, width: 8 }]).root);
      },
    ),
  );
  // 2^6 points take 4-bit windows, 2^8 6-bit ones: the window size is in the uniforms.
  const pts = seededPoints(rng, 2 ** 8);
  const scalars = pts.map(() => seededScalar(rng));
  rows.push(
    await secondSize(
      prover,
      'msm second size (another window size)',
      () => prover.msm(pts.slice(0, 2 ** 6), scalars.slice(0, 2 ** 6)),
      async () => (await prover.msm(pts, scalars)).equals(pippenger(G, pts, scalars)),
    ),
  );
  // After the NTT family's warm-up, sizes it did not run need no pipeline of their own.
  rows.push(
    await secondSize(
      prover,
      'ntt sizes after warmUp',
      () => prover.warmUp(['ntt']),
      async () => {
        let ok = true;
        for (const [log, width] of [
          [9, 8],
          [13, 8],
          [15, 1],
        ]) {
          const x = rng.fieldArray(2 ** log * width);
          ok &&= equal(await prover.dft(x, { width }), dft(x, width));
          ok &&= (await prover.lde(x, { width, addedBits: 1, shift: 7 })).length === 2 * x.length;
        }
        return ok;
      },
    ),
  );
  return rows;
}
