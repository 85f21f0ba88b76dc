/**
 * What the runtime checks share (runtime-check.ts, runtime-device-check.ts): the row, seeded
 * values, a timed step, the rejection of a promise.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { isProverError } from '../../src/index.js';
import { BB_P } from '../../src/params/babybear.js';
import { SplitMix64 } from './splitmix.js';

export interface RuntimeRow {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

export const G = bn254.G1.Point;
export const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

export function values(rng: SplitMix64, n: number): Uint32Array {
  return Uint32Array.from({ length: n }, () => Number(rng.next() % BigInt(BB_P)));
}

export async function timed(step: string, f: () => Promise<string>): Promise<RuntimeRow> {
  const t0 = performance.now();
  try {
    const problem = await f();
    return {
      step,
      ok: problem === '' || problem.startsWith('ok:'),
      ms: performance.now() - t0,
      detail: problem.replace(/^ok: /, '') || 'ok',
    };
  } catch (e) {
    return { step, ok: false, ms: performance.now() - t0, detail: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
  }
}

/** The error `p` rejects with, or null if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return null;
  } catch (e) {
    return e;
  }
}

export const isAbort = (e: unknown) => isProverError(e) && e.code === 'ABORTED' && (e as Error).name === 'AbortError';
