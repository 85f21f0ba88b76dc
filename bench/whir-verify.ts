/**
 * CPU cost of the TypeScript WHIR verifier (`verifyWhir`), which the default check mode runs on
 * every proof. Proofs come from p3-whir itself (bench/whir-oracle `prove`, cached under a scratch
 * folder), so no GPU is needed: verification is pure host work. Prints the median of `--runs`
 * verifications per case after two warm-ups, and the first one's time (before the JIT warms up).
 *
 *   node --import tsx bench/whir-verify.ts [--runs 15] [--cases 16,20,22] [--dir /tmp/whir-verify] [--oracle PATH]
 *
 * The oracle defaults to the release build (`npm run whir-oracle:build`).
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { whirSchedule } from '../src/whir/options.js';
import { parseProof, parseRoot } from '../src/whir/proof-json.js';
import { verifyWhir } from '../src/whir/verifier.js';
import { median } from './support/stats.js';
import { whirOptions, type WhirCase } from './support/whir-run.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    cases: { type: 'string', default: '16,20,22' },
    dir: { type: 'string', default: '/tmp/whir-verify' },
    oracle: { type: 'string', default: fileURLToPath(new URL('whir-oracle/target/release/whir-oracle', import.meta.url)) },
  },
});
const runs = Number(values.runs);
const sizes = values.cases.split(',').map(Number);
mkdirSync(values.dir, { recursive: true });

// rsInitialReduction 3 where the options allow it (at most rate + fold - 1).
const cases: WhirCase[] = sizes.flatMap((n) =>
  [4, 2].flatMap((fold) => [undefined, Math.min(3, fold)].map((rs) => ({ n, fold, rate: 1, rs }))),
);

/** The oracle's proof of a case (seed 1), made once and kept. */
function proofFile(c: WhirCase, rates: number[]): string {
  const file = join(values.dir, `p${c.n}-${c.fold}-${c.rate}-${c.rs ?? 'd'}.json`);
  if (existsSync(file)) return file;
  const args = ['prove', '--n', String(c.n), '--fold', String(c.fold), '--rate', String(c.rate), '--seed', '1', '--out', file];
  if (rates.length > 0) args.push('--rates', rates.join(','));
  const r = spawnSync(values.oracle, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`oracle prove failed: ${r.stdout}${r.stderr}`);
  return file;
}

for (const c of cases) {
  const schedule = whirSchedule(whirOptions(c));
  const rates = c.rs ? schedule.params.roundLogInvRates : [];
  const envelope = JSON.parse(readFileSync(proofFile(c, rates), 'utf8'));
  const root = parseRoot(envelope.commitment);
  const proof = parseProof(envelope.proof);
  const times: number[] = [];
  let first = 0;
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const verdict = await verifyWhir(schedule, root, proof);
    const dt = performance.now() - t0;
    if (!verdict.ok) throw new Error(`n=${c.n} f=${c.fold} rs=${c.rs ?? '-'}: rejected: ${verdict.error}`);
    if (i === 0) first = dt;
    if (i >= 2) times.push(dt);
  }
  const label = `n=${c.n} fold=${c.fold} rate=${c.rate} ${c.rs ? `rs=${c.rs}` : 'default'}`.padEnd(32);
  console.log(`${label} median ${median(times).toFixed(2)} ms  (min ${Math.min(...times).toFixed(2)}, first ${first.toFixed(1)})`);
}
