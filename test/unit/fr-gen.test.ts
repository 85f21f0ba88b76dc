// wgsl/lib/bn254_fr.gen.wgsl and bn254_fr13.gen.wgsl are generated (scripts/gen-bn254-fr.ts through
// gen-bn254-fq.ts and gen-bn254-fq13.ts): the committed files must be what the generator writes today
// (Fq's own files are checked by generated-wgsl.test.ts), and the Fr root seeds the twiddle kernel multiplies must be snarkjs's roots.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rootSeeds, seedLoLog, frMontLimbs } from '../../src/kernels/qap/tables.js';
import { FR_MONT_R, FR_R, frRootOfUnity } from '../../src/params/bn254-fr.js';
import { fromLimbs, invMod, powMod } from '../../src/params/bn254.js';

describe('generated Fr WGSL', () => {
  it('bn254_fr.gen.wgsl and bn254_fr13.gen.wgsl are up to date (run `npm run gen` if this fails)', () => {
    const dir = mkdtempSync(join(process.cwd(), 'node_modules/.cache-gen-'));
    try {
      execFileSync('node', ['--import', 'tsx', 'scripts/gen-bn254-fr.ts'], { env: { ...process.env, GEN_OUT_DIR: dir }, stdio: 'pipe' });
      for (const file of ['bn254_fr.gen.wgsl', 'bn254_fr13.gen.wgsl']) {
        const text = readFileSync(join(dir, file), 'utf8');
        expect(text).toBe(readFileSync(`wgsl/lib/${file}`, 'utf8'));
        // Renamed throughout: no Fq name is left (the one "fq" is the generator's file name).
        expect(text.replace(/gen-bn254-fq(13)?\.ts/, '')).not.toMatch(/fq|Fq|FQ/);
      }
      expect(readFileSync(join(dir, 'bn254_fr.gen.wgsl'), 'utf8')).toContain('fn fr_mul(a: Fr, b: Fr) -> Fr');
      expect(readFileSync(join(dir, 'bn254_fr13.gen.wgsl'), 'utf8')).toContain('fn fr_mul13(a: Fr, b: Fr) -> Fr');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('Fr root seeds', () => {
  it('are ω_{2T}^i (lo) and ω_{2T}^(i·2^L) (hi) in Montgomery form', () => {
    for (const tLog of [1, 4, 7]) {
      const s = rootSeeds(tLog);
      const L = seedLoLog(tLog);
      const w = frRootOfUnity(tLog + 1);
      const rInv = invMod(FR_MONT_R, FR_R);
      const at = (k: number) => (fromLimbs(s, 8 * k) * rInv) % FR_R;
      expect(s.length).toBe(8 * (2 ** L + 2 ** (tLog - L)));
      for (let i = 0; i < 2 ** L; i++) expect(at(i)).toBe(powMod(w, BigInt(i), FR_R));
      for (let i = 0; i < 2 ** (tLog - L); i++) expect(at(2 ** L + i)).toBe(powMod(w, BigInt(i * 2 ** L), FR_R));
    }
    expect(fromLimbs(frMontLimbs(1n))).toBe(FR_MONT_R);
  });
});
