/**
 * bench/native's Groth16 tools for the groth16 suite, when their binary is there (GROTH16_NATIVE,
 * default bench/native/bin/native-anchor, built by bench/native/build.sh): keys that verify, of
 * any size (`groth16-synth`'s random satisfiable R1CS and full-size witness, `groth16-setup`'s
 * seeded key: benchmarks only), and the arkworks anchor (`groth16-prove` on all the host's cores).
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const BINARY = process.env.GROTH16_NATIVE ?? 'bench/native/bin/native-anchor';

export interface NativeKey {
  zkeyPath: string;
  wtnsPath: string;
  synthMs: number;
  setupMs: number;
}

export interface ArkworksTimes {
  ms: number[];
  verified: boolean;
  threads: number;
}

/** Runs `binary ARGS` (native-anchor); returns its last stdout line as JSON, or throws with its stderr. */
export function runNativeAnchor(binary: string, args: readonly string[]): Record<string, unknown> {
  const r = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${binary} ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

const run = (args: string[]) => runNativeAnchor(BINARY, args);

/** Whether the native tools are there (the suite's real-key rows and arkworks column need them). */
export function nativeGroth16Available(): boolean {
  return existsSync(BINARY);
}

/** A key of 2^logN - 64 constraints (a domain of 2^logN) with a satisfying witness, in `dir`. */
export function nativeKey(logN: number, dir: string, seed = logN): NativeKey {
  const r1cs = join(dir, `native${logN}.r1cs`);
  const wtnsPath = join(dir, `native${logN}.wtns`);
  const zkeyPath = join(dir, `native${logN}.zkey`);
  const t0 = performance.now();
  run(['groth16-synth', '--constraints', String(2 ** logN - 64), '--out-r1cs', r1cs, '--out-wtns', wtnsPath, '--seed', String(seed)]);
  const t1 = performance.now();
  run(['groth16-setup', '--r1cs', r1cs, '--out', zkeyPath, '--seed', String(seed)]);
  return { zkeyPath, wtnsPath, synthMs: t1 - t0, setupMs: performance.now() - t1 };
}

/** arkworks (ark-groth16 0.5, snarkjs's QAP reduction, all cores) proving `reps` times; null on failure. */
export function arkworks(key: NativeKey, reps: number): ArkworksTimes | null {
  try {
    return run(['groth16-prove', '--zkey', key.zkeyPath, '--wtns', key.wtnsPath, '--reps', String(reps)]) as unknown as ArkworksTimes;
  } catch (e) {
    console.error(`arkworks anchor failed: ${String((e as Error).message).slice(0, 300)}`);
    return null;
  }
}
