// Autorun mode `worker-bench` (not in all-check): the cost of the worker boundary. The same jobs
// end to end through a prover in its Web Worker and through one in the page's thread, same page,
// alternating, medians of `&reps=N` (default 7) after one warm-up each; copies (the default) and
// `transfer: true`. Rows: each job's medians and their ratio (worker / in-thread).
import type { ModeContext } from '../autorun.js';
import { createProver, type Prover } from '../../src/index.js';
import { bn254 } from '@noble/curves/bn254.js';

const G = bn254.G1.Point;

function values(n: number, k: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => (i * 2654435761 + k) % 2013265921);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function workerBench({ prover, params, report }: ModeContext): Promise<void> {
  const reps = Number(params.get('reps') ?? 7);
  const other = await createProver({ worker: !prover.info.worker });
  const [inWorker, inThread] = prover.info.worker ? [prover, other] : [other, prover];
  try {
    const pts: InstanceType<typeof G>[] = [G.BASE];
    while (pts.length < 1024) pts.push(pts[pts.length - 1].add(G.BASE));
    const ks = pts.map((_, i) => BigInt(i) * 7919n + 13n);
    const jobs: [string, (p: Prover, transfer: boolean) => Promise<unknown>][] = [
      ['dft 2^12 x 8', (p, transfer) => p.dft(values(1 << 15, 1), { width: 8, transfer } as never)],
      ['lde 2^14 x 1 -> 2^15', (p, transfer) => p.lde(values(1 << 14, 2), { width: 1, addedBits: 1, shift: 31, transfer } as never)],
      ['poseidon2 2^12 states', (p, transfer) => p.poseidon2(values(16 << 12, 3), { width: 16, transfer } as never)],
      [
        'merkleCommit 2^12 x 8',
        async (p, transfer) => (await p.merkleCommit(values(8 << 12, 4), { width: 8, transfer } as never)).tree.dispose(),
      ],
      ['batchField mul 2^18', (p, transfer) => p.batchField('mul', values(1 << 18, 5), values(1 << 18, 6), { transfer } as never)],
      ['msm 2^10 (noble points)', (p) => p.msm(pts, ks)],
    ];
    for (const [name, job] of jobs) {
      for (const transfer of name.startsWith('msm') ? [false] : [false, true]) {
        await job(inWorker, transfer);
        await job(inThread, transfer);
        const w: number[] = [],
          t: number[] = [];
        for (let r = 0; r < reps; r++) {
          for (const [p, into] of [
            [inWorker, w],
            [inThread, t],
          ] as const) {
            const t0 = performance.now();
            await job(p, transfer);
            into.push(performance.now() - t0);
          }
        }
        const [mw, mt] = [median(w), median(t)];
        report(`${name}${transfer ? ', transfer' : ''}`, 'info', mw, {
          detail: `worker ${mw.toFixed(1)} ms, in-thread ${mt.toFixed(1)} ms: ${(mw / mt).toFixed(3)}x (medians of ${reps})`,
          worker: mw,
          thread: mt,
        });
      }
    }
  } finally {
    other.destroy();
  }
}
