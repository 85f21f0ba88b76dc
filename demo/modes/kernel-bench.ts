// Autorun bench modes, one per kernel family (demo/bench/cases.ts), and `all-bench`: each checks
// its kernel at the bench's size, then times the GPU (the page's prover) and the CPU path
// (cpuProver(), in this page's thread) and posts a summary row whose `bench` field carries the
// numbers (demo/bench/harness.ts). Parameters: `&logn=` (grind-bench: `&bits=`; a list sweeps), `&width=`
// (ntt-bench), `&reps=` (default 5), `&iters=` (calls per rep, default 1), `&cpuMax=` (largest log
// size the CPU path runs at; -1: never), `&passes=0` (skip the per-pass profile). all-bench runs
// every kernel at small sizes (SwiftShader-sized: the whole run stays well under a minute there).
import type { Mode, ModeContext } from '../autorun.js';
import { cpuProver } from '../../src/cpu/prover.js';
import { benchOptions, runBench, type BenchCase, type BenchOptions } from '../bench/harness.js';
import { commitCase, grindCase, merkleCase, msmCase, nttCase, poseidon2Case } from '../bench/cases.js';

// Its methods take I and O bivariantly, so any case is a BenchCase<unknown, unknown>.
type AnyCase = BenchCase<unknown, unknown>;

/** A bench mode over the cases `make` builds from the URL's parameters. */
function benchMode(make: (p: URLSearchParams) => AnyCase[], defaults = { reps: 5 }): Mode {
  return async (ctx) => run(ctx, make(ctx.params), benchOptions(ctx.params, defaults));
}

async function run(ctx: ModeContext, cases: AnyCase[], o: BenchOptions): Promise<void> {
  const cpu = cpuProver();
  try {
    for (const c of cases) await runBench(c, cpu, ctx, o);
  } finally {
    cpu.destroy();
  }
}

const int = (p: URLSearchParams, k: string, dflt: number) => (p.has(k) ? Number(p.get(k)) : dflt);
/** `&logn=12,14,16`: a sweep, one case per size (the table then gives the GPU/CPU crossover). */
const sizes = (p: URLSearchParams, k: string, dflt: number) => (p.get(k) ?? String(dflt)).split(',').map(Number);

export const nttBench = benchMode((p) => sizes(p, 'logn', 14).map((n) => nttCase(n, int(p, 'width', 1))));
export const poseidon2Bench = benchMode((p) => sizes(p, 'logn', 12).map((n) => poseidon2Case(n)));
export const merkleBench = benchMode((p) => sizes(p, 'logn', 12).map((n) => merkleCase(n, int(p, 'width', 8))));
export const commitBench = benchMode((p) => sizes(p, 'logn', 11).map((n) => commitCase(n, int(p, 'width', 8))));
export const grindBench = benchMode((p) => sizes(p, p.has('bits') ? 'bits' : 'logn', 12).map((b) => grindCase(b)));
export const msmBench = benchMode((p) => sizes(p, 'logn', 10).map((n) => msmCase(n)));

/**
 * Every family once at a small size, 3 reps: the short table `npm start` prints. `&scale=k` adds k
 * to every log size (a real GPU: scale=6 runs ntt 2^16 ... msm 2^14).
 */
export const allBench = benchMode(
  (p) => {
    const s = int(p, 'scale', 0);
    return [
      nttCase(12 + s, 1),
      poseidon2Case(10 + s),
      merkleCase(10 + s, 8),
      commitCase(9 + s, 8),
      grindCase(Math.min(8 + s, 20)),
      msmCase(8 + s),
    ];
  },
  { reps: 3 },
);
