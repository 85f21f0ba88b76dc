// Finds Mesa's lavapipe Vulkan ICD (a CPU Vulkan driver), what Deno's wgpu runs on in CI.
// Plain JS with no dependencies: scripts/setup.mjs uses it before node_modules exists.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where the Vulkan loader looks for ICD manifests on Linux (the loader's default search path). */
const ICD_DIRS = ['/usr/share/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/etc/vulkan/icd.d'];

/** Mesa's name for this machine's architecture in the manifest's name (a multiarch system may hold i686 too). */
const ARCH = { x64: 'x86_64', arm64: 'aarch64', ia32: 'i686', arm: 'armhf' }[process.arch] ?? process.arch;

/** The path of lavapipe's ICD manifest (lvp_icd.<arch>.json, this machine's architecture first), or null. */
export function findLavapipe() {
  const found = ICD_DIRS.filter((d) => existsSync(d)).flatMap((d) =>
    readdirSync(d)
      .filter((f) => /^lvp_icd\..*\.json$/.test(f))
      .map((f) => join(d, f)),
  );
  return found.find((p) => p.endsWith(`.${ARCH}.json`)) ?? found[0] ?? null;
}
