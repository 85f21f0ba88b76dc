/**
 * Generates src/params/poseidon2-babybear.ts and poseidon2-koalabear.ts: the round constants of
 * Plonky3's `default_babybear_poseidon2_16()` / `_24()` (p3-baby-bear 0.9.0-rc.2) and
 * `default_koalabear_poseidon2_16()` / `_24()` (p3-koala-bear 0.9.0-rc.2), re-derived here
 * with the Grain LFSR of the Poseidon paper (eprint 2019/458, App. E) exactly as Plonky3's
 * `poseidon2/generate_constants.py` does, and the internal-layer diagonal V written as the
 * small rationals Plonky3 defines it by (plonky3.md §2). Nothing is pasted from Plonky3: the
 * unit test test/unit/poseidon2-params.test.ts checks the output against the constants Plonky3
 * itself dumped into test/vectors/poseidon2.json, and against Plonky3's permutation outputs;
 * test/unit/koalabear.test.ts does the same for KoalaBear (test/vectors/koalabear.json).
 *
 *   node --import tsx scripts/gen-poseidon2.ts          write the files
 *   node --import tsx scripts/gen-poseidon2.ts --check  exit 1 if one is stale
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS_F = 8;

/** What differs between the fields' Poseidon2: the modulus, S-box degree, partial rounds and diagonal. */
export interface FieldSpec {
  key: 'babybear' | 'koalabear';
  label: string;
  crate: string;
  p: bigint;
  sbox: number;
  roundsP: Record<16 | 24, number>;
  /** V of M_I = J + diag(V) as the crate defines it: small integers and powers of 1/2, signed. */
  diag: Record<16 | 24, string[]>;
  /** Prefix of the exported names. */
  prefix: string;
  /** File name under src/params. */
  out: string;
}

export const FIELD_SPECS: Record<'babybear' | 'koalabear', FieldSpec> = {
  babybear: {
    key: 'babybear',
    label: 'BabyBear',
    crate: 'p3-baby-bear',
    p: 2013265921n,
    sbox: 7,
    roundsP: { 16: 13, 24: 21 },
    prefix: 'POSEIDON2',
    out: 'poseidon2-babybear.ts',
    diag: {
      16: ['-2', '1', '2', '1/2', '3', '4', '-1/2', '-3', '-4', '1/2^8', '1/4', '1/8', '1/2^27', '-1/2^8', '-1/16', '-1/2^27'],
      24: [
        '-2',
        '1',
        '2',
        '1/2',
        '3',
        '4',
        '-1/2',
        '-3',
        '-4',
        '1/2^8',
        '1/4',
        '1/8',
        '1/16',
        '1/2^7',
        '1/2^9',
        '1/2^27',
        '-1/2^8',
        '-1/4',
        '-1/8',
        '-1/16',
        '-1/32',
        '-1/64',
        '-1/2^7',
        '-1/2^27',
      ],
    },
  },
  koalabear: {
    key: 'koalabear',
    label: 'KoalaBear',
    crate: 'p3-koala-bear',
    p: 2130706433n,
    sbox: 3,
    roundsP: { 16: 20, 24: 23 },
    prefix: 'KB_POSEIDON2',
    out: 'poseidon2-koalabear.ts',
    diag: {
      16: ['-2', '1', '2', '1/2', '3', '4', '-1/2', '-3', '-4', '1/2^8', '1/8', '1/2^24', '-1/2^8', '-1/8', '-1/16', '-1/2^24'],
      24: [
        '-2',
        '1',
        '2',
        '1/2',
        '3',
        '4',
        '-1/2',
        '-3',
        '-4',
        '1/2^8',
        '1/4',
        '1/8',
        '1/16',
        '1/32',
        '1/64',
        '1/2^24',
        '-1/2^8',
        '-1/8',
        '-1/16',
        '-1/32',
        '-1/64',
        '-1/2^7',
        '-1/2^9',
        '-1/2^24',
      ],
    },
  },
};

/** Partial rounds per width (Plonky3 BabyBear: 13 at width 16, 21 at width 24). */
export const ROUNDS_P: Record<16 | 24, number> = FIELD_SPECS.babybear.roundsP;

/**
 * Grain LFSR stream for field_type 1 (prime field), S-box 0 (x^alpha), n = 31 bits, width t,
 * R_F, R_P: 80-bit seed MSB first, then thirty 1-bits; feedback taps 0, 13, 23, 38, 51, 62;
 * 160 burn-in clocks; self-shrinking output (clock a pair, keep b when a = 1); each element
 * is 31 bits MSB first, redrawn while >= p. Order: 4·t external-initial, R_P internal,
 * 4·t external-final (row-major). The seed does not hold alpha, so both fields share it.
 */
export function grainConstants(t: number, rp: number, P = FIELD_SPECS.babybear.p): number[] {
  const s: number[] = [];
  const push = (v: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) s.push((v >>> i) & 1);
  };
  push(1, 2);
  push(0, 4);
  push(31, 12);
  push(t, 12);
  push(ROUNDS_F, 10);
  push(rp, 10);
  push(0x3fffffff, 30);
  let head = 0; // ring buffer over s: avoids an O(80) shift per clock
  const at = (i: number) => s[(head + i) % 80];
  const clock = () => {
    const b = at(0) ^ at(13) ^ at(23) ^ at(38) ^ at(51) ^ at(62);
    s[head] = b;
    head = (head + 1) % 80;
    return b;
  };
  for (let i = 0; i < 160; i++) clock();
  const bit = () => {
    for (;;) {
      const a = clock();
      const b = clock();
      if (a === 1) return b;
    }
  };
  const out: number[] = [];
  while (out.length < 2 * 4 * t + rp) {
    let v = 0n;
    for (let i = 0; i < 31; i++) v = (v << 1n) | BigInt(bit());
    if (v < P) out.push(Number(v));
  }
  return out;
}

function pow(b: bigint, e: bigint, P: bigint): bigint {
  let r = 1n;
  for (b %= P; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) r = (r * b) % P;
  return r;
}

/** '-1/2^8' -> canonical field value. */
export function parseDiag(spec: string, P = FIELD_SPECS.babybear.p): number {
  const m = /^(-?)(\d+)(?:\/(\d+)(?:\^(\d+))?)?$/.exec(spec);
  if (!m) throw new Error(`bad diagonal entry ${spec}`);
  const num = BigInt(m[2]);
  const den = m[3] === undefined ? 1n : BigInt(m[3]) ** BigInt(m[4] ?? '1');
  let v = (num * pow(den, P - 2n, P)) % P;
  if (m[1] === '-') v = (P - v) % P;
  return Number(v);
}

export function diagonal(width: 16 | 24, f: FieldSpec = FIELD_SPECS.babybear): number[] {
  return f.diag[width].map((d) => parseDiag(d, f.p));
}

function rows(xs: number[], w: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < xs.length; i += w) out.push(xs.slice(i, i + w));
  return out;
}

/** The KoalaBear file: its own constants and diagonal, the shared constant-set type from BabyBear's. */
function header(f: FieldSpec): string[] {
  if (f.key === 'babybear') {
    return [
      '/**',
      ' * GENERATED by scripts/gen-poseidon2.ts: do not edit. Poseidon2 over BabyBear as Plonky3',
      ' * 0.9.0-rc.2 `default_babybear_poseidon2_16()` / `_24()` (p3-baby-bear/src/poseidon2.rs):',
      ' * x^7 S-box, 8 external rounds (4 + 4), 13 / 21 internal rounds. Round constants re-derived',
      ' * with the Grain LFSR (eprint 2019/458 App. E; field_type 1, S-box 0, n = 31, t, R_F = 8, R_P);',
      ' * the diagonal V of the internal matrix J + diag(V) from its defining rationals (plonky3.md §2).',
      " * Checked against Plonky3's own dump (test/vectors/poseidon2.json) by test/unit/poseidon2-params.test.ts.",
      ' * All values canonical (not Montgomery form).',
      ' * @module',
      ' */',
      '',
      '/** One Poseidon2 constant set: external rounds are 4 × width each, internal one per partial round. */',
      'export interface Poseidon2Constants {',
      '  readonly externalInitial: readonly (readonly number[])[];',
      '  readonly internal: readonly number[];',
      '  readonly externalFinal: readonly (readonly number[])[];',
      '}',
      '',
      'export const POSEIDON2_ROUNDS_F = 8;',
    ];
  }
  return [
    '/**',
    ` * GENERATED by scripts/gen-poseidon2.ts: do not edit. Poseidon2 over ${f.label} as Plonky3`,
    ` * 0.9.0-rc.2 \`default_${f.key}_poseidon2_16()\` / \`_24()\` (${f.crate}/src/poseidon2.rs):`,
    ` * x^${f.sbox} S-box, 8 external rounds (4 + 4), ${f.roundsP[16]} / ${f.roundsP[24]} internal rounds. Round constants re-derived`,
    ' * with the Grain LFSR (eprint 2019/458 App. E; field_type 1, S-box 0, n = 31, t, R_F = 8, R_P);',
    ' * the diagonal V of the internal matrix J + diag(V) from its defining rationals.',
    " * Checked against the crate's own dump (test/vectors/koalabear.json) by test/unit/koalabear.test.ts.",
    ' * All values canonical (not Montgomery form).',
    ' * @module',
    ' */',
    "import type { Poseidon2Constants } from './poseidon2-babybear.js';",
    '',
    `/** The S-box x^${f.sbox}. */`,
    `export const ${f.prefix}_SBOX_DEGREE = ${f.sbox};`,
  ];
}

export function render(f: FieldSpec = FIELD_SPECS.babybear): string {
  const lines = header(f);
  for (const w of [16, 24] as const) {
    const rp = f.roundsP[w];
    const c = grainConstants(w, rp, f.p);
    const ei = rows(c.slice(0, 4 * w), w);
    const int = c.slice(4 * w, 4 * w + rp);
    const ef = rows(c.slice(4 * w + rp), w);
    const fmt = (r: number[]) => `[${r.join(', ')}]`;
    lines.push(
      '',
      `/** Partial (internal) rounds at width ${w}. */`,
      `export const ${f.prefix}_ROUNDS_P_${w} = ${rp};`,
      '',
      `/** V at width ${w}: ${f.diag[w].join(', ')}. */`,
      `export const ${f.prefix}_DIAG_${w}: readonly number[] = ${fmt(diagonal(w, f))};`,
      '',
      `/** default_${f.key}_poseidon2_${w}() round constants (Grain LFSR, t = ${w}, R_P = ${rp}). */`,
      `export const ${f.prefix}_DEFAULT_${w}: Poseidon2Constants = {`,
      '  externalInitial: [',
      ...ei.map((r) => `    ${fmt(r)},`),
      '  ],',
      `  internal: ${fmt(int)},`,
      '  externalFinal: [',
      ...ef.map((r) => `    ${fmt(r)},`),
      '  ],',
      '};',
    );
  }
  return lines.join('\n') + '\n';
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_PATH = join(ROOT, 'src', 'params', 'poseidon2-babybear.ts');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let stale = false;
  for (const f of Object.values(FIELD_SPECS)) {
    const path = join(ROOT, 'src', 'params', f.out);
    const text = render(f);
    if (process.argv.includes('--check')) {
      let cur = '';
      try {
        cur = readFileSync(path, 'utf8');
      } catch {
        /* missing = stale */
      }
      if (cur !== text) {
        console.error(`${path} is stale: run node --import tsx scripts/gen-poseidon2.ts`);
        stale = true;
      }
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${path}`);
    }
  }
  if (stale) process.exit(1);
}
