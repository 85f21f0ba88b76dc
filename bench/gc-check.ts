/**
 * The README's Node example, as a newcomer types it, under garbage collection: the object from
 * `create([])` is passed straight to createProver and referenced nowhere else. Before the prover
 * held it (issue 30), the next full collection destroyed Dawn's instance under the live device
 * and the process aborted ("Fatal glibc error: pthread_mutex_lock ... assertion failed", exit 134).
 *
 * Run on a machine with a GPU (Dawn on SwiftShader here is unstable for other reasons: see
 * docs/internals.md), bundled like the benches:
 *   npm run bench:bundle; node --expose-gc bench/dist/gc-check.mjs
 * Prints one JSON line and exits 0 when both batches equal src/ref, 1 otherwise.
 * @module
 */
import { create, globals } from 'webgpu';
import { createProver } from '../src/index.js';
import { bbMul } from '../src/field/babybear.js';
import { SplitMix64 } from './support/splitmix.js';

const N = 1 << 16;
const COLLECTIONS = 5;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('gc-check: run with node --expose-gc');
  process.exit(2);
}

/** Canonical BabyBear values from a fixed seed. */
function randomField(seed: number): Uint32Array {
  return new SplitMix64(seed).fieldArray(N);
}

/** Number of positions where the GPU product differs from src/ref. */
function mismatches(a: Uint32Array, b: Uint32Array, got: Uint32Array): number {
  let bad = got.length === a.length ? 0 : a.length;
  for (let i = 0; i < Math.min(a.length, got.length); i++) if (got[i] !== bbMul(a[i], b[i])) bad++;
  return bad;
}

Object.assign(globalThis, globals); // the GPU* constants (GPUBufferUsage, ...), not the instance
const prover = await createProver({ gpu: create([]) as GPU }); // no other reference to the instance

const a = randomField(1);
const b = randomField(2);
const before = mismatches(a, b, await prover.batchField('mul', a, b));

// Full collections with event-loop turns between them, so Dawn's finalizers get to run, and
// some garbage so the heap really moves.
for (let i = 0; i < COLLECTIONS; i++) {
  void new Array(1 << 16).fill(0).map((_, j) => ({ j }));
  await new Promise((r) => setTimeout(r, 20));
  gc();
}

const c = randomField(3);
const after = mismatches(a, c, await prover.batchField('mul', a, c));
const ok = before === 0 && after === 0;
console.log(
  JSON.stringify({
    check: 'gc',
    adapter: prover.info.adapter,
    n: N,
    collections: COLLECTIONS,
    mismatchesBefore: before,
    mismatchesAfter: after,
    ok,
  }),
);
prover.destroy();
process.exit(ok ? 0 : 1);
