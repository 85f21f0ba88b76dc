/**
 * `npm run bench -- ntt-blocked`: what a job past one storage binding costs. The same jobs run
 * twice through the public API on one device: directly (this adapter's binding holds them) and
 * with the binding limit lowered to WebGPU's default 128 MiB (2^25 values:
 * bench/support/ntt-blocks-check.ts withBindingLimit), so a column of 2^26-2^27 rows goes through the
 * four-step pieces of src/kernels/ntt/long.ts with their host gathers and scatters. Both
 * end-to-end (Uint32Array -> Uint32Array), median of NTT_BLOCKED_REPS (default 3), after checking
 * that the two outputs are equal. NTT_BLOCKED_LOGS (default 26,27) are output heights, width 1:
 * dft 2^L, lde and encode 2^(L-1) -> 2^L (addedBits 1, shift 31). NTT_BLOCKED_WORDS changes the lowered limit.
 * @module
 */
import { Scheduler } from '../src/sched/scheduler.js';
import { GpuContext } from '../src/gpu/context.js';
import { nttMethods } from '../src/api/ntt.js';
import { SplitMix64 } from './support/splitmix.js';
import { median } from './support/stats.js';
import { withBindingLimit } from './support/ntt-blocks-check.js';
import type { BenchOutput } from './field.js';

/** WebGPU's default binding, 128 MiB; NTT_BLOCKED_WORDS lowers it for a quick run on a CPU adapter. */
const DEFAULT_BINDING_WORDS = Number(process.env.NTT_BLOCKED_WORDS ?? 2 ** 25);

export async function benchNttBlocked(gpu: GPU): Promise<BenchOutput> {
  const logs = (process.env.NTT_BLOCKED_LOGS ?? '26,27').split(',').map(Number);
  const reps = Number(process.env.NTT_BLOCKED_REPS ?? 3);
  const ctx = await GpuContext.create(gpu);
  const direct = nttMethods({ ctx, sched: new Scheduler(ctx), alive: () => {} });
  const limited = withBindingLimit(ctx, DEFAULT_BINDING_WORDS);
  const blocked = nttMethods({ ctx: limited, sched: new Scheduler(limited), alive: () => {} });
  const rows: Record<string, unknown>[] = [];
  const rng = new SplitMix64(0xb10cd);
  let ok = true;
  try {
    for (const logN of logs) {
      for (const op of ['dft', 'lde', 'encode'] as const) {
        const h = op === 'dft' ? 2 ** logN : 2 ** (logN - 1);
        const x = rng.fieldArray(h);
        const call = (api: typeof direct) =>
          op === 'dft'
            ? api.dft(x, { width: 1 })
            : op === 'lde'
              ? api.lde(x, { width: 1, addedBits: 1, shift: 31 })
              : api.encode(x, { width: 1, addedBits: 1 });
        const timed = async (api: typeof direct, what: string) => {
          const t0 = performance.now();
          const out = await call(api);
          console.error(`ntt-blocked ${op} 2^${logN} ${what}: ${(performance.now() - t0).toFixed(0)} ms`);
          return out;
        };
        const a = await timed(direct, 'direct (first)');
        const b = await timed(blocked, 'blocked (first)');
        const equal = a.length === b.length && a.every((v, i) => v === b[i]);
        ok &&= equal;
        if (!equal) {
          rows.push({ bench: 'ntt-blocked', op, logN, ok: false, detail: 'blocked output != direct output' });
          continue;
        }
        const directMs: number[] = [];
        const blockedMs: number[] = [];
        for (let r = 0; r < reps; r++) {
          let t0 = performance.now();
          await call(direct);
          directMs.push(performance.now() - t0);
          t0 = performance.now();
          await call(blocked);
          blockedMs.push(performance.now() - t0);
        }
        const d = median(directMs);
        const bl = median(blockedMs);
        rows.push({
          bench: 'ntt-blocked',
          op,
          inputRows: h,
          outputRows: 2 ** logN,
          width: 1,
          ok: true,
          bindingWords: DEFAULT_BINDING_WORDS,
          directEndToEndMs: +d.toFixed(1),
          blockedEndToEndMs: +bl.toFixed(1),
          blockedOverDirect: +(bl / d).toFixed(2),
        });
      }
    }
  } finally {
    ctx.destroy();
  }
  return { rows, ok };
}
