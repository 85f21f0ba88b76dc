// One-step set-up behind `npm start` and `npm test`: installs what is missing, then returns.
//  1. npm dependencies (npm ci when node_modules is absent or older than package-lock.json)
//  2. a WebGPU-capable Chromium: $CHROMIUM_PATH or a system Chrome/Chromium; as root on Debian
//     or Ubuntu, `apt-get install -y chromium` when none is found.
//  3. on Linux, Mesa's lavapipe (a CPU Vulkan driver) for the GPU checks under Deno (npm run
//     test:deno): as root on Debian or Ubuntu, `apt-get install -y mesa-vulkan-drivers` when its
//     ICD is missing; otherwise a note of what to install (npm start does not need it).
// Plain JS, no dependencies: it runs before node_modules exists.
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { findChromium } from './chromium.mjs';
import { findLavapipe } from './lavapipe.mjs';

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

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canApt = isRoot && existsSync('/usr/bin/apt-get');
let aptUpdated = false;

/** `apt-get install -y pkg` (after one `apt-get update` per run). */
function aptInstall(pkg) {
  console.log(`[setup] installing Debian ${pkg} (apt-get install -y ${pkg})`);
  if (!aptUpdated) run('apt-get update -qq');
  aptUpdated = true;
  run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`);
}

function ensureChromium() {
  if (findChromium()) return;
  if (process.env.CHROMIUM_PATH) {
    console.error(`[setup] CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
    process.exit(1);
  }
  if (canApt) {
    aptInstall('chromium');
    if (findChromium()) return;
  }
  console.error('[setup] No Chrome/Chromium found. Install Chrome or Chromium 113+ (WebGPU), or set CHROMIUM_PATH to its executable.');
  process.exit(1);
}

/**
 * Deno's WebGPU (wgpu) needs a Vulkan driver on Linux; without one it falls back to OpenGL on
 * llvmpipe, 1.6x to over 50x slower per check (docs/portability.md). Only the Deno checks need it, so a machine where
 * it cannot be installed gets a note, not a stop: scripts/deno-checks.ts fails with the same advice.
 */
function ensureLavapipe() {
  if (process.platform !== 'linux' || findLavapipe()) return;
  if (canApt) {
    aptInstall('mesa-vulkan-drivers');
    if (findLavapipe()) return;
  }
  console.warn(
    "[setup] No lavapipe Vulkan driver (Mesa's lvp_icd.*.json) found: npm run test:deno needs it. " +
      'Install it (Debian, Ubuntu, Fedora: mesa-vulkan-drivers; Arch: vulkan-swrast), or set VK_ICD_FILENAMES to another Vulkan driver.',
  );
}

ensureNodeModules();
ensureChromium();
ensureLavapipe();
