/**
 * The groth16 suite: proofs through the public API as a dApp makes them (`createProver({ gpu })`,
 * nothing else), against snarkjs 0.7.6 on all the host's cores (bench/snarkjs-prove.cjs, its own
 * process) on the same zkey and witness.
 * - cold: a fresh prover's first proof of a 2^16 key (a real one at the defaults when the native tools
 *   are there, else a synthetic one with check 'off'), compiles and the family's self-check included
 *   (first in the process: Dawn keeps compiled shaders for the process), with the key's steps, and
 *   how long until a proof runs on the fast pipelines alone (the quick ones serve while they compile).
 * - real keys of 2^k constraints (GROTH16_REAL_LOGS, default 16,20; support/native-groth16.ts, when
 *   bench/native's binary is there): random satisfiable R1CS, seeded setup; warm medians with the
 *   default checks and with check 'off' (alternating), snarkjs (verified) and arkworks on all cores;
 *   then the G2 MSM's quick engine against its bucket method on the largest key's points.
 * - fixtures (test/groth16/fixtures, real snarkjs keys): warm medians with the default checks (every
 *   proof verified) and with check 'off'; snarkjs's proof verified by snarkjs.
 * - synthetic keys of 2^k constraints (GROTH16_LOGS, default 16,18,20; synthetic-zkey.ts: real sizes,
 *   tiled points, a circom-like witness): key upload, GPU bytes held, proof medians with check 'off'
 *   (their proofs do not verify), snarkjs on the same files (GROTH16_SNARKJS_REPS, default 2; 1 at 2^20).
 *   node bench/dist/bench.mjs groth16
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProver } from '../src/index.js';
import type { Prover } from '../src/prover.js';
import type { Groth16Key } from '../src/groth16/key.js';
import { FR_R } from '../src/params/bn254.js';
import { syntheticKey } from './support/synthetic-zkey.js';
import { stageTimes } from '../src/groth16/gpu-key.js';
import { median } from './support/stats.js';
import { withClock, type ClockSampler } from './gpu-clock.js';
import type { BenchOutput } from './field.js';
import { checkThreadStats } from '../src/checks/check-thread-state.js';
import { roofline } from './node-gpu.js';
import { arkworks, nativeGroth16Available, nativeKey, type NativeKey } from './support/native-groth16.js';
import { g2EngineRows } from './support/g2-engines.js';

const FIXTURES = ['multiplier-chain', 'range-check', 'poseidon-hash', 'merkle-inclusion'];
const FIXTURE_DIR = 'test/groth16/fixtures';
const LOGS = (process.env.GROTH16_LOGS ?? '16,18,20').split(',').filter(Boolean).map(Number);
const REAL_LOGS = (process.env.GROTH16_REAL_LOGS ?? '16,20').split(',').filter(Boolean).map(Number);
const REPS = Number(process.env.GROTH16_REPS ?? 5);
const SNARKJS_REPS = Number(process.env.GROTH16_SNARKJS_REPS ?? 2);
const SNARKJS = process.env.GROTH16_SNARKJS ?? 'bench/dist/snarkjs-prove.cjs';
// GROTH16_COLD_ONLY=1: the cold row alone (one per process: A/B of cold starts across versions).
const COLD_ONLY = process.env.GROTH16_COLD_ONLY === '1';

/** snarkjs's prove times (ms) on files, or null when its bundle is not there. */
function snarkjs(zkey: string, wtns: string, reps: number, verify: boolean): { ms: number[]; verified: boolean | null } | null {
  try {
    const out = execFileSync(process.execPath, [SNARKJS, zkey, wtns, String(reps), verify ? 'verify' : ''], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    return JSON.parse(out.trim().split('\n').pop()!) as { ms: number[]; verified: boolean | null };
  } catch (e) {
    console.error(`snarkjs anchor failed: ${String((e as Error).message).slice(0, 300)}`);
    return null;
  }
}

/** A .wtns file of 8-word values (snarkjs's format: n8, r, count; the values). */
function wtnsFile(words: Uint32Array): Uint8Array {
  const count = words.length / 8;
  const out = new Uint8Array(12 + 12 + 40 + 12 + 32 * count);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode('wtns'), 0);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, 2, true);
  dv.setUint32(12, 1, true);
  dv.setBigUint64(16, 40n, true);
  dv.setUint32(24, 32, true);
  for (let i = 0; i < 32; i++) out[28 + i] = Number((FR_R >> BigInt(8 * i)) & 0xffn);
  dv.setUint32(60, count, true);
  dv.setUint32(64, 2, true);
  dv.setBigUint64(68, BigInt(32 * count), true);
  out.set(new Uint8Array(words.buffer, words.byteOffset, words.byteLength), 76);
  return out;
}

async function timesOf(reps: number, f: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return ms;
}

/** One more proof, its stages timed one by one (stageTimes); then the key's stats, and the key freed. */
async function lastProof(
  key: Groth16Key,
  wtns: Uint8Array,
): Promise<{ stages?: Record<string, number>; stats: ReturnType<Groth16Key['stats']> }> {
  stageTimes.enabled = true;
  try {
    await key.prove(wtns, { check: 'off' });
  } finally {
    stageTimes.enabled = false;
  }
  const stats = key.stats();
  key.destroy();
  return { stages: stageTimes.last, stats };
}

/** Quick-pipeline runs so far (engineRuns' `msm quick`, `g2 quick`, `qap quick`). */
function quickRuns(p: Prover): number {
  return Object.entries(p.stats().engineRuns ?? {}).reduce((sum, [k, v]) => sum + (k.endsWith(' quick') ? v : 0), 0);
}

/**
 * Prove until a proof runs on the fast pipelines alone (a new key's first proofs run on the quick
 * ones while the fast ones compile: PipelineCache.fastOrQuick): warm means that. The proofs it
 * took and the milliseconds.
 */
async function untilFast(p: Prover, prove: () => Promise<unknown>): Promise<{ proofs: number; ms: number }> {
  const t0 = performance.now();
  for (let proofs = 1; performance.now() - t0 < 120_000; proofs++) {
    const before = quickRuns(p);
    await prove();
    if (quickRuns(p) === before) return { proofs, ms: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('groth16 bench: still on the quick pipelines after 120 s');
}

async function fixtureRows(p: Prover, clock: ClockSampler, rows: Record<string, unknown>[]): Promise<boolean> {
  let ok = true;
  for (const name of FIXTURES) {
    const zkeyPath = join(FIXTURE_DIR, `${name}.zkey`);
    const wtnsPath = join(FIXTURE_DIR, `${name}.wtns`);
    const zkey = readFileSync(zkeyPath);
    const wtns = readFileSync(wtnsPath);
    const key = await p.groth16(zkey);
    const checksBefore = p.stats().checks;
    await untilFast(p, () => key.prove(wtns));
    const since = Date.now();
    const checked = await timesOf(REPS, () => key.prove(wtns));
    const off = await timesOf(REPS, () => key.prove(wtns, { check: 'off' }));
    const smMHz = clock.median([[since, Date.now()]]);
    const checks = p.stats().checks;
    const sj = snarkjs(zkeyPath, wtnsPath, 3, true);
    const s = key.stats();
    key.destroy();
    const row = {
      suite: 'groth16',
      case: `fixture ${name}`,
      ...s,
      proveMs: median(checked),
      proveCheckOffMs: median(off),
      checkMsEach: (checks.ms - checksBefore.ms) / Math.max(1, checks.run - checksBefore.run),
      checksFailed: checks.failed - checksBefore.failed,
      snarkjsMs: sj ? median(sj.ms) : null,
      snarkjsVerified: sj?.verified ?? null,
      vsSnarkjs: sj ? median(sj.ms) / median(checked) : null,
      smMHz,
    };
    ok &&= row.checksFailed === 0 && sj?.verified !== false;
    rows.push(row);
  }
  return ok;
}

async function syntheticRows(p: Prover, clock: ClockSampler, rows: Record<string, unknown>[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'groth16-bench-'));
  try {
    for (const logN of LOGS) {
      const nConstraints = 2 ** logN - 64;
      const t0 = performance.now();
      const k = syntheticKey(nConstraints, nConstraints, 2, logN);
      const makeMs = performance.now() - t0;
      const t1 = performance.now();
      const key = await p.groth16(k.zkey);
      const uploadMs = performance.now() - t1;
      const wtns = wtnsFile(k.witness);
      await untilFast(p, () => key.prove(wtns, { check: 'off' }));
      const since = Date.now();
      const ms = await timesOf(REPS, () => key.prove(wtns, { check: 'off' }));
      const smMHz = clock.median([[since, Date.now()]]);
      const { stages, stats: s } = await lastProof(key, wtns);
      const zkeyPath = join(dir, `s${logN}.zkey`);
      const wtnsPath = join(dir, `s${logN}.wtns`);
      writeFileSync(zkeyPath, k.zkey);
      writeFileSync(wtnsPath, wtns);
      const sj = snarkjs(zkeyPath, wtnsPath, logN >= 20 ? 1 : SNARKJS_REPS, false);
      rows.push({
        suite: 'groth16',
        case: `synthetic 2^${logN} constraints`,
        ...s,
        zkeyBytes: k.zkey.length,
        makeKeyMs: makeMs,
        uploadMs,
        proveCheckOffMs: median(ms),
        proveMsAll: ms,
        stagesMs: stages,
        snarkjsMs: sj ? median(sj.ms) : null,
        vsSnarkjs: sj ? median(sj.ms) / median(ms) : null,
        smMHz,
      });
      console.error(JSON.stringify(rows[rows.length - 1]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Real keys (native tools): the defaults a caller gets against check 'off', snarkjs and arkworks. */
async function realKeyRows(
  p: Prover,
  clock: ClockSampler,
  keys: Map<number, NativeKey>,
  rows: Record<string, unknown>[],
): Promise<boolean> {
  let ok = true;
  for (const [logN, k] of keys) {
    const zkey = readFileSync(k.zkeyPath);
    const wtns = readFileSync(k.wtnsPath);
    const t0 = performance.now();
    const key = await p.groth16(zkey);
    const uploadMs = performance.now() - t0;
    const open = stageTimes.open;
    await untilFast(p, () => key.prove(wtns));
    const checksBefore = p.stats().checks;
    const since = Date.now();
    const checked: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < REPS; i++) {
      checked.push(...(await timesOf(1, () => key.prove(wtns))));
      off.push(...(await timesOf(1, () => key.prove(wtns, { check: 'off' }))));
    }
    const smMHz = clock.median([[since, Date.now()]]);
    const checks = p.stats().checks;
    const { stages, stats: s } = await lastProof(key, wtns);
    const sj = snarkjs(k.zkeyPath, k.wtnsPath, logN >= 20 ? 1 : SNARKJS_REPS, true);
    const ark = arkworks(k, 3);
    const row = {
      suite: 'groth16',
      case: `real key 2^${logN} constraints`,
      ...s,
      synthMs: k.synthMs,
      setupMs: k.setupMs,
      uploadMs,
      openMs: open,
      proveMs: median(checked),
      proveCheckOffMs: median(off),
      checkRatio: median(checked) / median(off),
      checkMsEach: (checks.ms - checksBefore.ms) / Math.max(1, checks.run - checksBefore.run),
      checksFailed: checks.failed - checksBefore.failed,
      stagesMs: stages,
      snarkjsMs: sj ? median(sj.ms) : null,
      snarkjsVerified: sj?.verified ?? null,
      vsSnarkjs: sj ? median(sj.ms) / median(checked) : null,
      arkworksMs: ark ? median(ark.ms) : null,
      arkworksVerified: ark?.verified ?? null,
      arkworksThreads: ark?.threads ?? null,
      vsArkworks: ark ? median(ark.ms) / median(checked) : null,
      smMHz,
    };
    ok &&= row.checksFailed === 0 && sj?.verified !== false && ark?.verified !== false;
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  return ok;
}

export async function benchGroth16(gpu: GPU): Promise<BenchOutput> {
  return withClock(async (clock) => {
    const rows: Record<string, unknown>[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'groth16-native-'));
    const native = nativeGroth16Available();
    const keys = new Map(native && !COLD_ONLY ? REAL_LOGS.map((logN) => [logN, nativeKey(logN, dir)] as const) : []);
    // Cold: the first thing this process compiles; a key of 2^16 constraints.
    const real16 = keys.get(16) ?? (native ? nativeKey(16, dir) : undefined);
    const k16 = real16 ? undefined : syntheticKey(2 ** 16 - 64, 2 ** 16 - 64, 2, 16);
    const z16 = real16 ? readFileSync(real16.zkeyPath) : k16!.zkey;
    const w16 = real16 ? readFileSync(real16.wtnsPath) : wtnsFile(k16!.witness);
    const check = real16 ? undefined : ('off' as const);
    const t0 = performance.now();
    const cold = await createProver({ gpu });
    const createMs = performance.now() - t0;
    const key = await cold.groth16(z16);
    const keyMs = performance.now() - t0;
    const open = stageTimes.open;
    await key.prove(w16, { check });
    const firstMs = performance.now() - t0;
    const firstRuns = cold.stats().engineRuns;
    const second = await timesOf(1, () => key.prove(w16, { check }));
    // From createProver until a proof ran on the fast pipelines alone (compiled behind the quick ones).
    const fast = await untilFast(cold, () => key.prove(w16, { check }));
    const fastAfterMs = performance.now() - t0;
    rows.push({
      suite: 'groth16',
      case: `cold: createProver, groth16(zkey), first prove (${real16 ? 'real' : 'synthetic'} 2^16, check ${check ?? 'default'})`,
      ms: firstMs,
      createProverMs: createMs,
      keyMs,
      openMs: open,
      secondProveMs: second[0],
      firstEngineRuns: firstRuns,
      fastAfterMs,
      fastAfterProofs: fast.proofs + 2,
      compiled: cold.stats().compiled,
      capabilities: cold.capabilities().groth16,
    });
    console.error(JSON.stringify(rows[rows.length - 1]));
    key.destroy();
    if (COLD_ONLY) {
      cold.destroy();
      rmSync(dir, { recursive: true, force: true });
      return { rows, ok: true };
    }
    let ok = await fixtureRows(cold, clock, rows);
    try {
      ok = (await realKeyRows(cold, clock, keys, rows)) && ok;
      // The G2 MSM's quick engine (a key's first proofs) against its bucket method, on the largest real key's points.
      const largest = [...keys.keys()].sort((a, b) => b - a)[0];
      if (largest !== undefined) {
        const g2 = await g2EngineRows(
          gpu,
          readFileSync(keys.get(largest)!.zkeyPath),
          [16, 18, 20].filter((l) => l <= largest),
        );
        ok &&= g2.every((r) => r.equal === true);
        rows.push(...g2);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await syntheticRows(cold, clock, rows);
    rows.push({
      suite: 'groth16',
      case: 'path',
      capabilities: cold.capabilities().groth16,
      checks: cold.stats().checks,
      checkThread: { ...checkThreadStats },
    });
    const onGpu = cold.capabilities().groth16.path === 'gpu';
    cold.destroy();
    // The adapter's copy bandwidth and Montgomery rate in the same run (node-gpu.ts roofline).
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter) {
      const device = await adapter.requestDevice();
      rows.push({ suite: 'groth16', case: 'roofline', ...(await roofline(device)) });
      device.destroy();
    }
    return { rows, ok: ok && onGpu };
  });
}
