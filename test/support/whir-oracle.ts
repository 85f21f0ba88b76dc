/**
 * The native WHIR oracle (bench/whir-oracle, the `whir-oracle` CLI over Plonky3's published
 * p3-whir 0.9.0-rc.2): locate it, building it once per process (cargo is required), and run
 * it on a test's scratch files (oracleSession).
 * The build runs inside bench/whir-oracle so its `.cargo/config.toml` (target-cpu=native) applies;
 * a cold build takes about 1-2 minutes on 2 cores.
 * @module
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The crate folder. */
export const ORACLE_DIR = join(ROOT, 'bench', 'whir-oracle');
const BINARY = join(ORACLE_DIR, 'target', 'release', process.platform === 'win32' ? 'whir-oracle.exe' : 'whir-oracle');

let built: string | undefined;

/** Whether `cargo` runs on this machine. */
function hasCargo(): boolean {
  const r = spawnSync('cargo', ['--version'], { stdio: 'ignore' });
  return r.status === 0;
}

/**
 * The path of the release binary, after `cargo build --release --locked` (a no-op when it is
 * up to date). The crate comparisons are the point of the tests that call this: without cargo
 * they fail, never skip.
 * @throws Error when cargo is absent or the build fails.
 */
export function oraclePath(): string {
  if (built !== undefined) return built;
  if (!hasCargo()) {
    throw new Error(
      'cargo is not on PATH: the p3-whir oracle (bench/whir-oracle) cannot be built; install Rust (https://rustup.rs) and run npm test again',
    );
  }
  const r = spawnSync('cargo', ['build', '--release', '--locked'], {
    cwd: ORACLE_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0 || !existsSync(BINARY)) {
    throw new Error(`whir-oracle build failed (cargo exit ${r.status}); run: npm run whir-oracle:build`);
  }
  built = BINARY;
  return built;
}

/** A scratch folder for one test file's oracle runs: its files, and the oracle run on them. */
export interface OracleSession {
  dir: string;
  /** Run the oracle (built by oraclePath() first) with these arguments. */
  run(...args: string[]): SpawnSyncReturns<string>;
  /** Write `values` as the raw little-endian u32 file the oracle's --poly / --point read; returns its path. */
  u32File(name: string, values: Uint32Array): string;
  /** Write `json` as a file (an envelope for `verify FILE`); returns its path. */
  jsonFile(name: string, json: unknown): string;
}

export function oracleSession(prefix: string): OracleSession {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    run: (...args) => spawnSync(oraclePath(), args, { encoding: 'utf8' }),
    u32File(name, values) {
      const path = join(dir, name);
      writeFileSync(path, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
      return path;
    },
    jsonFile(name, json) {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(json));
      return path;
    },
  };
}
