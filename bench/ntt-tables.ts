/**
 * CPU cost of the NTT's tables (src/kernels/ntt/tables.ts) that a first call at a new size builds,
 * no GPU needed: the cold suite's "other size" row (issue 29), lde 2^22 x 8 after 2^17 x 8 is warm.
 * Plans both jobs (and the ntt self-check's jobs, which a first call runs too) on H100-shaped
 * limits, builds the warm jobs' tables once (as the process did, so the builders' code is
 * compiled), lists the tables the new size needs that the warm ones did not, and times building
 * each: its first build (what the call pays) and the min and median of TABLES_REPS builds
 * (default 15). Prints one JSON line per table and a total.
 *
 *   node --import tsx bench/ntt-tables.ts
 *   TABLES_WARM=lde:17:8 TABLES_NEW=lde:22:8,lde:24:1 node --import tsx bench/ntt-tables.ts
 *
 * A job is `op:log2 height:width` (lde with addedBits 1 and shift 31, as the cold probe calls it).
 * @module
 */
import { knownNttJobs } from '../src/checks/known-jobs.js';
import { nttCallSpec } from '../src/kernels/first-call.js';
import type { NttJob, NttOp } from '../src/kernels/ntt/job.js';
import type { NttLimits } from '../src/kernels/ntt/layout.js';
import { planNtt } from '../src/kernels/ntt/plan.js';
import { tableLabel, tableWords, type NttTable } from '../src/kernels/ntt/tables.js';
import { withTuning } from '../src/kernels/ntt/tuning.js';

/** The H100's limits as Dawn reports them (1024 threads, 48 KiB of workgroup memory, 4 GiB bindings). */
const H100: NttLimits = { threads: 1024, tileBytes: 49152, maxWorkgroupsPerDim: 65535, maxWords: 2 ** 30 - 1 };

function parseJob(spec: string): NttJob {
  const [op, log, width] = spec.split(':');
  const job: NttJob = { op: op as NttOp, height: 2 ** Number(log), width: Number(width) };
  return op === 'lde' ? { ...job, addedBits: 1, shift: 31 } : op === 'encode' ? { ...job, addedBits: 1 } : job;
}

function tablesOf(jobs: NttJob[]): Map<string, NttTable> {
  const out = new Map<string, NttTable>();
  for (const job of jobs) for (const t of planNtt(job, withTuning(undefined), H100).tables) out.set(tableLabel(t), t);
  return out;
}

const reps = Number(process.env.TABLES_REPS ?? 15);
const warmJobs = (process.env.TABLES_WARM ?? 'lde:17:8').split(',').map(parseJob);
// The ntt self-check's jobs, shaped after the first warm job (the family's first call).
const selfCheck = knownNttJobs(warmJobs[0]).map((j) => nttCallSpec(j.op, [{ height: j.height }, j.options])!);
const warm = tablesOf([...selfCheck, ...warmJobs]);
const fresh = tablesOf((process.env.TABLES_NEW ?? 'lde:22:8').split(',').map(parseJob));

for (const t of warm.values()) tableWords(t);

let firstTotal = 0;
let minTotal = 0;
let medianTotal = 0;
for (const [label, t] of fresh) {
  if (warm.has(label)) continue;
  const ms: number[] = [];
  let words = 0;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    words = tableWords(t).length;
    ms.push(performance.now() - t0);
  }
  const first = ms[0];
  ms.sort((a, b) => a - b);
  const median = ms[ms.length >> 1];
  firstTotal += first;
  minTotal += ms[0];
  medianTotal += median;
  console.log(JSON.stringify({ table: label, words, firstMs: +first.toFixed(2), minMs: +ms[0].toFixed(2), medianMs: +median.toFixed(2) }));
}
console.log(
  JSON.stringify({
    total: 'new tables',
    firstMs: +firstTotal.toFixed(2),
    minMs: +minTotal.toFixed(2),
    medianMs: +medianTotal.toFixed(2),
    warm: [...warm.keys()],
  }),
);
