// The BN254 field modules are generated (scripts/gen-bn254-*.ts): the committed WGSL must be
// what the generator writes today, or `npm run gen` was forgotten.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

describe('generated BN254 WGSL is up to date', () => {
  for (const [script, file] of [
    ['gen-bn254-fq.ts', 'bn254_fq.gen.wgsl'],
    ['gen-bn254-fq13.ts', 'bn254_fq13.gen.wgsl'],
    ['gen-bn254-inv.ts', 'bn254_inv.gen.wgsl'],
  ]) {
    it(`${file} (run \`npm run gen\` if this fails)`, () => {
      const dir = mkdtempSync(join(process.cwd(), 'node_modules/.cache-gen-'));
      try {
        const out = join(dir, file);
        execFileSync('node', ['--import', 'tsx', `scripts/${script}`], { env: { ...process.env, GEN_OUT: out }, stdio: 'pipe' });
        expect(readFileSync(out, 'utf8')).toBe(readFileSync(`wgsl/lib/${file}`, 'utf8'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
