// One-step set-up behind `npm start` and `npm test`: installs what is missing, then returns.
//  1. npm dependencies (npm ci when node_modules is absent or older than package-lock.json)
//  2. a WebGPU-capable Chromium: $CHROMIUM_PATH or a system Chrome/Chromium; as root on Debian
//     or Ubuntu, `apt-get install -y chromium` when none is found.
// Plain JS, no dependencies: it runs before node_modules exists.
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { findChromium } from './chromium.mjs';

const run = (cmd) => execSync(cmd, { stdio: 'inherit' });

function ensureNodeModules() {
  const lock = 'package-lock.json';
  const stamp = 'node_modules/.package-lock.json';
  // A linked node_modules (a git worktree sharing another checkout's install) is that checkout's
  // to update: npm ci here would empty the linked folder under everyone using it, then install
  // into a new folder of this checkout (a fresh worktree's lockfile is always newer than the stamp).
  if (existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink()) return;
  if (existsSync(stamp) && (!existsSync(lock) || statSync(stamp).mtimeMs >= statSync(lock).mtimeMs)) return;
  console.log('[setup] installing npm dependencies (npm ci)');
  run(existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund');
}

function ensureChromium() {
  if (findChromium()) return;
  if (process.env.CHROMIUM_PATH) {
    console.error(`[setup] CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
    process.exit(1);
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('[setup] installing Debian chromium (apt-get install -y chromium)');
    run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium');
    if (findChromium()) return;
  }
  console.error('[setup] No Chrome/Chromium found. Install Chrome or Chromium 113+ (WebGPU), or set CHROMIUM_PATH to its executable.');
  process.exit(1);
}

ensureNodeModules();
ensureChromium();
