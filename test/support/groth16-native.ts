/**
 * The native Groth16 tools of bench/native (`native-anchor groth16-setup` and `groth16-prove`):
 * build the static binary once per process through bench/native/build.sh (cargo is required; a
 * no-op when up to date, several minutes cold on 2 cores) and run its subcommands.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNativeAnchor } from '../../bench/support/native-groth16.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NATIVE_DIR = join(ROOT, 'bench', 'native');
const BINARY = join(NATIVE_DIR, 'bin', 'native-anchor');

let built: string | undefined;

/**
 * The path of bench/native/bin/native-anchor after `build.sh` (cargo build --release --locked).
 * The tests that call this are about the native tool: without cargo they fail, never skip.
 * @throws Error when cargo is absent or the build fails.
 */
export function nativeAnchorPath(): string {
  if (built !== undefined) return built;
  if (spawnSync('cargo', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(
      'cargo is not on PATH: bench/native (native-anchor) cannot be built; install Rust (https://rustup.rs) and run the tests again',
    );
  }
  const r = spawnSync('bash', [join(NATIVE_DIR, 'build.sh')], { cwd: NATIVE_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0 || !existsSync(BINARY)) throw new Error(`bench/native/build.sh failed (exit ${r.status})`);
  built = BINARY;
  return built;
}

/** Runs `native-anchor ARGS`; returns its last stdout line as JSON, or throws with its stderr. */
export function runNative(...args: string[]): Record<string, unknown> {
  return runNativeAnchor(nativeAnchorPath(), args);
}

/** `groth16-setup`: a seeded (benchmark-only) key for `r1cs`, written to `zkey`. */
export function nativeSetup(r1cs: string, zkey: string, seed = 0): Record<string, unknown> {
  return runNative('groth16-setup', '--r1cs', r1cs, '--out', zkey, '--seed', String(seed));
}

/** `groth16-prove`: arkworks proofs; `{ ms, verified }` and the tool's other fields. */
export function nativeProve(zkey: string, wtns: string, reps = 1): { ms: number[]; verified: boolean } & Record<string, unknown> {
  return runNative('groth16-prove', '--zkey', zkey, '--wtns', wtns, '--reps', String(reps)) as { ms: number[]; verified: boolean };
}
