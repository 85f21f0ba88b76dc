/**
 * The G2 MSM's two engines on a real key's B2 points: the bucket method ('fast') and the quick MSM
 * a key's first proofs run on while the bucket kernels compile (src/kernels/g2msm/quick.ts), each
 * warm, at a few sizes, with equal results. What a first proof's G2 step costs on the quick one.
 * @module
 */
import { GpuContext } from '../../src/gpu/context.js';
import { G2Bases } from '../../src/kernels/g2msm/bases.js';
import { readZkey } from '../../src/groth16/zkey.js';
import { scalarWords } from '../../src/field/g2-words.js';
import { FR_R } from '../../src/params/bn254.js';
import { SplitMix64 } from './splitmix.js';
import { median } from './stats.js';

export async function g2EngineRows(gpu: GPU, zkey: Uint8Array, logs: readonly number[]): Promise<Record<string, unknown>[]> {
  const ctx = await GpuContext.create(gpu);
  const rows: Record<string, unknown>[] = [];
  try {
    const { b2 } = readZkey(zkey);
    const bases = await ctx.run(() => G2Bases.upload(ctx, b2.words, b2.count));
    const rng = new SplitMix64(0x62e);
    for (const logN of logs) {
      const n = Math.min(2 ** logN, b2.count);
      const scalars = scalarWords(Array.from({ length: n }, () => rng.next256() % FR_R));
      const row: Record<string, unknown> = { suite: 'groth16', case: `g2 msm of ${n} points, random scalars: quick against fast` };
      const got: string[] = [];
      for (const only of ['fast', 'quick'] as const) {
        const once = async () => {
          const t0 = performance.now();
          const p = await ctx.run(() => bases.msm(scalars, n, undefined, only));
          return { ms: performance.now() - t0, p };
        };
        got.push((await once()).p.toHex()); // warm
        const ms: number[] = [];
        for (let i = 0; i < 3; i++) ms.push((await once()).ms);
        row[`${only}Ms`] = median(ms);
      }
      row.equal = got[0] === got[1];
      row.quickOverFast = (row.quickMs as number) / (row.fastMs as number);
      rows.push(row);
      console.error(JSON.stringify(row));
    }
    bases.destroy();
  } finally {
    ctx.destroy();
  }
  return rows;
}
