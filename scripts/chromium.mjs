// Finds a WebGPU-capable Chromium for headless runs: $CHROMIUM_PATH, then the usual install paths.
// Plain JS with no dependencies: scripts/setup.mjs uses it before node_modules exists.
import { existsSync } from 'node:fs';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

/** The browser to launch, or null. */
export function findChromium() {
  const env = process.env.CHROMIUM_PATH;
  if (env) return existsSync(env) ? env : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/**
 * Launch flags. WebGPU on SwiftShader (a CPU Vulkan) is the only GPU on CI machines; on a
 * machine with a real GPU set WEBGPU_HARDWARE=1 to let Chromium pick it.
 */
export function chromiumArgs() {
  const base = [
    '--enable-unsafe-webgpu',
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  if (process.env.WEBGPU_HARDWARE === '1') return [...base, '--enable-features=Vulkan'];
  return [...base, '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader', '--use-angle=swiftshader'];
}
