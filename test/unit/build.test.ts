// `npm run build` output is importable from plain Node (no bundler, no TS loader).
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

describe('package build', () => {
  it('compiles src/ to ESM that plain Node imports', () => {
    // Inside the repo so the emitted imports of dependencies (@noble/curves) resolve from node_modules.
    mkdirSync('node_modules/.cache', { recursive: true });
    const out = mkdtempSync(join(process.cwd(), 'node_modules/.cache/wgp-dist-'));
    try {
      execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', out], { stdio: 'pipe' });
      const keys = execFileSync('node', ['--input-type=module', '-e',
        `const m = await import(${JSON.stringify(join(out, 'index.js'))}); console.log(Object.keys(m).sort().join(','))`], { encoding: 'utf8' });
      expect(keys.trim().split(',')).toEqual(expect.arrayContaining(['createProver', 'ProverError', 'isProverError']));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
