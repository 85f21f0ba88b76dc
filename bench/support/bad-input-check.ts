/**
 * The bad-input property (issue 32), run wherever a Prover runs (the dev page's `errors-check`,
 * so Chromium in CI): for a few hundred generated bad calls over every public method
 * (bad-input-cases.ts), each gets a ProverError with the code docs/errors.md gives its fault
 * (a verifier: false), settles within a time limit, and leaves the prover right (a small dft and
 * a Poseidon2 permutation equal their first answers). Seeded and shrinking as fast-check does;
 * a failure reports the seed and the smallest failing call. Also: inputs on buffers WebGPU cannot
 * take as they are (resizable, length-tracking, shared) give the same answer as a plain array.
 * @module
 */
import fc from 'fast-check';
import type { Prover } from '../../src/prover.js';
import { isProverError } from '../../src/errors.js';
import { badCallKinds, COVERED_METHODS, makeFixtures, type BadCall } from './bad-input-cases.js';

export interface PropertyRow {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

/** A call that neither settles nor throws within this many ms is a hang. */
const LIMIT_MS = 20_000;

type Outcome = { kind: 'threw'; error: unknown } | { kind: 'returned'; value: unknown } | { kind: 'timeout' };

async function settle(call: () => unknown): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), LIMIT_MS)));
  const run = (async (): Promise<Outcome> => {
    try {
      return { kind: 'returned', value: await call() };
    } catch (error) {
      return { kind: 'threw', error };
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why the outcome is not what `c` expects ('' when it is). */
export function mismatch(c: BadCall, o: Outcome): string {
  if (o.kind === 'timeout') return `no answer within ${LIMIT_MS} ms`;
  if (c.expect === false)
    return o.kind === 'returned' && o.value === false
      ? ''
      : o.kind === 'returned'
        ? `returned ${String(o.value)}`
        : `threw ${errorText(o.error)}`;
  if (o.kind === 'returned') {
    // A prover or handle that resolved by mistake still holds GPU memory: give it back.
    (o.value as { destroy?: () => void } | null)?.destroy?.();
    return `resolved instead of throwing ${c.expect}`;
  }
  if (!isProverError(o.error)) return `threw a raw ${errorText(o.error)}`;
  if (o.error.code !== c.expect) return `code ${o.error.code} (${o.error.message}), want ${c.expect}`;
  if (!o.error.message || /\[object /.test(o.error.message)) return `an unhelpful message: ${o.error.message}`;
  return '';
}

function errorText(e: unknown): string {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    return 'an unprintable error';
  }
}

/** The health probe: a small dft and one Poseidon2 permutation, compared with their first answers. */
async function probe(prover: Prover): Promise<string> {
  const d = await prover.dft(Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), { width: 1 });
  const h = await prover.poseidon2(
    Uint32Array.from({ length: 16 }, (_, i) => i),
    { width: 16 },
  );
  return `${Array.from(d).join(',')}|${Array.from(h).join(',')}`;
}

/** Runs the property with `seed` over `runs` generated calls; one row for the run, one for coverage. */
export async function checkBadInputs(prover: Prover, seed: number, runs = 300): Promise<PropertyRow[]> {
  const t0 = performance.now();
  const fixtures = await makeFixtures(prover);
  const healthy = await probe(prover);
  const seen = new Map<string, number>();
  const codes = new Map<string, number>();
  const body = async (c: BadCall) => {
    seen.set(c.method, (seen.get(c.method) ?? 0) + 1);
    codes.set(String(c.expect), (codes.get(String(c.expect)) ?? 0) + 1);
    const why = mismatch(c, await settle(c.call));
    if (why) throw new Error(`${c.method} (${c.fault}): ${why}`);
    const now = await probe(prover);
    if (now !== healthy) throw new Error(`${c.method} (${c.fault}): the prover's answers changed afterwards`);
  };
  const kinds = badCallKinds(fixtures);
  const rows: PropertyRow[] = [];
  // Two draws of every kind first (so every kind runs every time), then `runs` draws among all.
  let result: fc.RunDetails<[BadCall]> | undefined;
  for (const [k, kind] of kinds.entries()) {
    result = await fc.check(fc.asyncProperty(kind, body), { seed: seed + k, numRuns: 2 });
    if (result.failed) break;
  }
  if (!result?.failed) result = await fc.check(fc.asyncProperty(fc.oneof(...kinds), body), { seed, numRuns: runs });
  result = result!;
  const detail = result.failed
    ? `seed ${seed}: ${result.counterexample ? `${(result.counterexample[0] as BadCall).method} (${(result.counterexample[0] as BadCall).fault})` : ''} ${errorText(result.errorInstance)} (after ${result.numShrinks} shrinks)`
    : `${result.numRuns} generated bad calls after 2 of each of ${kinds.length} kinds, seed ${seed}: ${[...codes].map(([k, v]) => `${k} ${v}`).join(', ')}`;
  rows.push({
    step: 'bad input property: the table code, no hang, prover right after',
    ok: !result.failed,
    ms: performance.now() - t0,
    detail,
  });
  const missing = COVERED_METHODS.filter((m) => !seen.has(m));
  rows.push({
    step: 'bad input property covers every public method',
    ok: missing.length === 0,
    ms: 0,
    detail: missing.length ? `not reached: ${missing.join(', ')}` : `${seen.size} methods`,
  });
  fixtures.matrix.destroy();
  fixtures.tree.dispose();
  fixtures.bases.destroy();
  rows.push(...(await checkUnusualBuffers(prover)));
  return rows;
}

/** Views WebGPU's writeBuffer refuses or another thread could change are copied, not refused: same answer. */
async function checkUnusualBuffers(prover: Prover): Promise<PropertyRow[]> {
  const values = Uint32Array.from({ length: 16 }, (_, i) => (i * 977 + 3) % 2013265921);
  const want = Array.from(await prover.dft(values, { width: 2 })).join(',');
  // Resizable ArrayBuffers are ES2024 (Chrome 111, Safari 16.4); the lib here is ES2022.
  const Resizable = ArrayBuffer as unknown as new (bytes: number, o: { maxByteLength: number }) => ArrayBuffer;
  const kinds: [string, () => Uint32Array | null][] = [
    [
      'resizable',
      () => {
        const b = new Resizable(64, { maxByteLength: 256 });
        const v = new Uint32Array(b, 0, 16);
        v.set(values);
        return v;
      },
    ],
    [
      'length-tracking',
      () => {
        const b = new Resizable(64, { maxByteLength: 256 });
        const v = new Uint32Array(b);
        v.set(values);
        return v;
      },
    ],
    [
      'shared',
      () => {
        if (typeof SharedArrayBuffer === 'undefined') return null;
        const v = new Uint32Array(new SharedArrayBuffer(64));
        v.set(values);
        return v;
      },
    ],
    [
      'subclass',
      () => {
        class Words extends Uint32Array {}
        return Words.from(values);
      },
    ],
    [
      'offset view',
      () => {
        const v = new Uint32Array(20);
        v.set(values, 4);
        return v.subarray(4);
      },
    ],
  ];
  const rows: PropertyRow[] = [];
  for (const [name, make] of kinds) {
    const t0 = performance.now();
    const v = make();
    if (!v) {
      rows.push({
        step: `input on a ${name} buffer`,
        ok: false,
        ms: 0,
        detail: 'not available in this context (the page must be cross-origin isolated)',
      });
      continue;
    }
    const o = await settle(() => prover.dft(v, { width: 2 }));
    const got = o.kind === 'returned' ? Array.from(o.value as Uint32Array).join(',') : o.kind === 'threw' ? errorText(o.error) : 'timeout';
    rows.push({
      step: `input on a ${name} buffer`,
      ok: got === want,
      ms: performance.now() - t0,
      detail: got === want ? 'same dft as a plain array' : got,
    });
  }
  return rows;
}
