// The check thread in Node as the package ships it (src/checks/check-thread.ts): the code bundled
// beside a bundled check-worker.js, run in a fresh process. A checked WHIR open's openings and
// the Groth16 check parts are answered by the thread, equal to this thread's own answers; and
// where the worker file is missing, every task runs in the prover's thread with the same answers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../support/groth16-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'check-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundle(withWorker: boolean): Promise<string> {
  const out = join(dir, withWorker ? 'with' : 'without');
  const common = { bundle: true, platform: 'node' as const, format: 'esm' as const, target: 'node20', logLevel: 'error' as const };
  await build({ ...common, entryPoints: ['test/support/check-thread-run.ts'], outfile: join(out, 'run.mjs') });
  if (withWorker) await build({ ...common, entryPoints: ['src/checks/check-worker.ts'], outfile: join(out, 'check-worker.js') });
  return join(out, 'run.mjs');
}

function run(script: string) {
  const f = loadFixture('poseidon-hash');
  const wtnsPath = f.zkeyPath.replace(/\.zkey$/, '.wtns');
  const out = execFileSync(process.execPath, [script, f.zkeyPath, wtnsPath], { encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('the check thread in Node', () => {
  it('answers the tasks of a checked WHIR open and of a Groth16 check, as this thread would', async () => {
    const r = run(await bundle(true));
    expect(r.stats.state).toBe('running');
    expect(r.whirOk).toBe(true);
    expect(r.whirTasks).toBeGreaterThanOrEqual(2);
    expect(r.stats.inThread).toBe(0);
    expect(r.same).toEqual([true, true, true]);
  }, 180_000);

  it('runs every task in the prover thread when the worker file is missing', async () => {
    const r = run(await bundle(false));
    expect(r.stats.state).toBe('unavailable');
    expect(r.whirOk).toBe(true);
    expect(r.stats.onThread).toBe(0);
    expect(r.stats.inThread).toBeGreaterThanOrEqual(5);
    expect(r.same).toEqual([true, true, true]);
  }, 180_000);
});
