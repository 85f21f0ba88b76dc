/**
 * Reads a snarkjs Groth16 proving key (`.zkey`, as `snarkjs groth16 setup` / `zkey contribute`
 * write it: snarkjs src/zkey_new.js, zkey_utils.js) into a plain record. Sections:
 *   1 header: u32 protocol (1 = Groth16, 2 = PLONK, 10 = FFLONK)
 *   2 Groth16 header: u32 n8q, q (n8q bytes), u32 n8r, r, u32 nVars, u32 nPublic, u32 domainSize,
 *     then α1 (G1), β1 (G1), β2 (G2), γ2 (G2), δ1 (G1), δ2 (G2)
 *   3 IC: nPublic + 1 G1 points        4 coefficients: u32 count, then count x (u32 matrix
 *   5 A: nVars G1 points                 (0 = A, 1 = B), u32 constraint, u32 signal, 32-byte value)
 *   6 B1: nVars G1 points              7 B2: nVars G2 points
 *   8 C: nVars - nPublic - 1 G1 points (private signals only)
 *   9 H: domainSize G1 points          10 contributions (not read)
 * Points are affine, Montgomery, little-endian, zeros for infinity (point-words.ts). Coefficient
 * values are stored as value·R² mod r (zkey_new.js `writeCoef`; ZKEY_COEF_UNSCALE undoes it).
 *
 * The five point sections stay as word views of the caller's buffer (no copy when aligned, no
 * per-point work: a 2^20 key is ~600 MB); only the 6 key points and IC are decoded and checked.
 * @module
 */
import { ProverError } from '../errors.js';
import { FR_R } from '../params/bn254-fr.js';
import { FQ_P } from '../params/bn254.js';
import type { QapCoefficients } from '../ref/groth16-h.js';
import { asBytes, expectSize, readBigLE, readBinFile, requireSection, wordsAt } from './binfile.js';
import { atLeastR } from '../field/fr-words.js';
import { G1_WORDS, G2_WORDS, g1FromWords, g2FromWords, type G1Point, type G2Point } from './point-words.js';

/** A point section: `count` points of 16 (G1) or 32 (G2) words each. */
export interface PointSection {
  readonly words: Uint32Array;
  readonly count: number;
}

export interface Groth16Zkey {
  /** Signals, the constant 1 (index 0) included. */
  readonly nVars: number;
  /** Public signals (outputs, then public inputs): witness indices 1..nPublic. */
  readonly nPublic: number;
  readonly domainSize: number;
  readonly logN: number;
  readonly alpha1: G1Point;
  readonly beta1: G1Point;
  readonly beta2: G2Point;
  readonly gamma2: G2Point;
  readonly delta1: G1Point;
  readonly delta2: G2Point;
  /** nPublic + 1 points: L = IC[0] + Σ IC[i]·public[i]. */
  readonly ic: readonly G1Point[];
  readonly coefficients: QapCoefficients;
  /** nVars G1 points (section 5). */
  readonly a: PointSection;
  /** nVars G1 points (section 6). */
  readonly b1: PointSection;
  /** nVars G2 points (section 7). */
  readonly b2: PointSection;
  /** nVars - nPublic - 1 G1 points, for the private signals (section 8). */
  readonly c: PointSection;
  /** domainSize G1 points (section 9). */
  readonly h: PointSection;
}

const SECTION_NAMES: Record<number, string> = {
  1: 'header',
  2: 'Groth16 header',
  3: 'IC',
  4: 'coefficients',
  5: 'A points',
  6: 'B1 points',
  7: 'B2 points',
  8: 'C points',
  9: 'H points',
  10: 'contributions',
};
const PROTOCOLS: Record<number, string> = { 1: 'Groth16', 2: 'PLONK', 10: 'FFLONK' };
const GROTH16 = 1;
/** Field elements of BN254's q and r take 32 bytes (ffjavascript's n8 = 8·⌈bits/64⌉). */
const N8 = 32;
const G1_BYTES = 4 * G1_WORDS;
const G2_BYTES = 4 * G2_WORDS;
/** Section 2: n8q, q, n8r, r, nVars, nPublic, domainSize, 3 G1 and 3 G2 points. */
const GROTH16_HEADER_BYTES = 4 + N8 + 4 + N8 + 12 + 3 * G1_BYTES + 3 * G2_BYTES;
/** One coefficient: matrix, constraint, signal (u32 each) and the value. */
const COEF_WORDS = 3 + N8 / 4;
/** ffjavascript's Fr has 2-adicity 28: snarkjs builds no domain past 2^28. */
const MAX_LOG_N = 28;

const WHAT = 'zkey';

/**
 * Parses a snarkjs Groth16 `.zkey` over BN254 (bn128).
 * @param input - the file's bytes; the point sections are views of them, so keep them unchanged
 * @returns the key's sizes, its verification points, its coefficients and word views of its points
 * @throws ProverError INVALID_ARGUMENT (not a zkey, not Groth16, not bn128), INVALID_LENGTH (the
 *   file or a section is cut short or disagrees with the header; the message names the section),
 *   NON_CANONICAL (a coefficient >= r or a key coordinate >= p), NOT_ON_CURVE (a key point)
 * @example
 * const zkey = readZkey(new Uint8Array(await (await fetch('circuit.zkey')).arrayBuffer()));
 */
/**
 * A zkey's signals and domain from its header alone, or undefined when it is not one: what a first
 * groth16 call's compiles depend on (kernels/first-call.ts), read before the key itself.
 */
export function zkeyShape(input: unknown): { nVars: number; domainSize: number } | undefined {
  try {
    const bytes = asBytes(input, WHAT);
    const file = readBinFile(bytes, 'zkey', 2, WHAT, SECTION_NAMES);
    const g = requireSection(file, 2, WHAT, SECTION_NAMES);
    const at = g.offset + 4 + N8 + 4 + N8; // past n8q, q, n8r, r
    if (g.size < 4 + N8 + 4 + N8 + 12) return undefined;
    return { nVars: file.view.getUint32(at, true), domainSize: file.view.getUint32(at + 8, true) };
  } catch {
    return undefined;
  }
}

export function readZkey(input: Uint8Array | ArrayBuffer): Groth16Zkey {
  const bytes = asBytes(input, WHAT);
  // snarkjs writes version 1 and its prover reads up to 2 (groth16_prove.js readBinFile(..., 2)).
  const file = readBinFile(bytes, 'zkey', 2, WHAT, SECTION_NAMES);
  const section = (type: number) => requireSection(file, type, WHAT, SECTION_NAMES);
  const { view } = file;

  const header = section(1);
  expectSize(header, 4, WHAT, SECTION_NAMES, 'a protocol id');
  const protocol = view.getUint32(header.offset, true);
  if (protocol !== GROTH16) {
    const name = PROTOCOLS[protocol] ?? `unknown protocol ${protocol}`;
    throw new ProverError('INVALID_ARGUMENT', `${WHAT}: a ${name} key, not Groth16: make it with \`snarkjs groth16 setup\``);
  }

  const g = section(2);
  let pos = g.offset;
  const field = (name: string, modulus: bigint) => {
    if (pos + 4 > g.offset + g.size) return;
    const n8 = view.getUint32(pos, true);
    const value = n8 === N8 && pos + 4 + n8 <= g.offset + g.size ? readBigLE(bytes, pos + 4, n8) : -1n;
    if (value !== modulus) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        `${WHAT}: not a BN254 (bn128) key: its ${name} is ${value < 0n ? `${n8} bytes long` : value}, not ${modulus}; make it with a bn128 powers of tau`,
      );
    }
    pos += 4 + n8;
  };
  field('base field q', FQ_P);
  field('scalar field r', FR_R);
  expectSize(g, GROTH16_HEADER_BYTES, WHAT, SECTION_NAMES, 'a BN254 Groth16 header');
  const nVars = view.getUint32(pos, true);
  const nPublic = view.getUint32(pos + 4, true);
  const domainSize = view.getUint32(pos + 8, true);
  pos += 12;
  const logN = Math.log2(domainSize);
  if (!Number.isInteger(logN) || logN > MAX_LOG_N) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `${WHAT}: domainSize ${domainSize} is not a power of two up to 2^${MAX_LOG_N}; the header is corrupt`,
    );
  }
  if (nVars < nPublic + 1) {
    throw new ProverError('INVALID_ARGUMENT', `${WHAT}: nVars ${nVars} < nPublic ${nPublic} + 1; the header is corrupt`);
  }

  const keyWords = wordsAt(bytes, pos, (GROTH16_HEADER_BYTES - (pos - g.offset)) / 4);
  let at = 0;
  const nextG1 = (name: string) => {
    const p = g1FromWords(keyWords, at, () => `${WHAT}: ${name}`);
    at += G1_WORDS;
    return p;
  };
  const nextG2 = (name: string) => {
    const p = g2FromWords(keyWords, at, () => `${WHAT}: ${name}`);
    at += G2_WORDS;
    return p;
  };
  // The file's order (zkey_utils.js readHeaderGroth16), not the comment above it there.
  const alpha1 = nextG1('alpha1');
  const beta1 = nextG1('beta1');
  const beta2 = nextG2('beta2');
  const gamma2 = nextG2('gamma2');
  const delta1 = nextG1('delta1');
  const delta2 = nextG2('delta2');

  const icSection = section(3);
  expectSize(icSection, (nPublic + 1) * G1_BYTES, WHAT, SECTION_NAMES, `nPublic + 1 = ${nPublic + 1} G1 points`);
  const icWords = wordsAt(bytes, icSection.offset, icSection.size / 4);
  const ic = Array.from({ length: nPublic + 1 }, (_, i) => g1FromWords(icWords, i * G1_WORDS, () => `${WHAT}: IC[${i}]`));

  const coefficients = readCoefficients(file.bytes, view, section(4), nVars, domainSize);

  const points = (type: number, count: number, bytesEach: number, why: string): PointSection => {
    const s = section(type);
    expectSize(s, count * bytesEach, WHAT, SECTION_NAMES, why);
    return { words: wordsAt(bytes, s.offset, s.size / 4), count };
  };
  const nPrivate = nVars - nPublic - 1;
  return {
    nVars,
    nPublic,
    domainSize,
    logN,
    alpha1,
    beta1,
    beta2,
    gamma2,
    delta1,
    delta2,
    ic,
    coefficients,
    a: points(5, nVars, G1_BYTES, `nVars = ${nVars} G1 points`),
    b1: points(6, nVars, G1_BYTES, `nVars = ${nVars} G1 points`),
    b2: points(7, nVars, G2_BYTES, `nVars = ${nVars} G2 points`),
    c: points(8, nPrivate, G1_BYTES, `nVars - nPublic - 1 = ${nPrivate} G1 points`),
    h: points(9, domainSize, G1_BYTES, `domainSize = ${domainSize} G1 points`),
  };
}

/**
 * Section 4 as parallel arrays. Every entry is checked (matrix 0 or 1, constraint < domainSize,
 * signal < nVars, value < r) with word compares only: ~10 ns an entry, so a 2^20 key's few
 * million entries cost tens of ms, and the polynomial stage never indexes out of its arrays.
 */
function readCoefficients(
  bytes: Uint8Array,
  view: DataView,
  s: { type: number; offset: number; size: number },
  nVars: number,
  domainSize: number,
): QapCoefficients {
  if (s.size < 4) expectSize(s, 4, WHAT, SECTION_NAMES, 'a coefficient count');
  const count = view.getUint32(s.offset, true);
  expectSize(s, 4 + count * 4 * COEF_WORDS, WHAT, SECTION_NAMES, `its count of ${count} coefficients`);
  const all = wordsAt(bytes, s.offset + 4, count * COEF_WORDS);
  const matrix = new Uint32Array(count);
  const constraint = new Uint32Array(count);
  const signal = new Uint32Array(count);
  const values = new Uint32Array(8 * count);
  for (let i = 0, w = 0; i < count; i++, w += COEF_WORDS) {
    const m = all[w];
    const c = all[w + 1];
    const sig = all[w + 2];
    if (m > 1 || c >= domainSize || sig >= nVars) {
      throw new ProverError(
        'INVALID_ARGUMENT',
        `${WHAT}: coefficient ${i} (matrix ${m}, constraint ${c}, signal ${sig}) is outside the key (matrix 0 or 1, constraint < ${domainSize}, signal < ${nVars}); the file is corrupt`,
      );
    }
    if (atLeastR(all, w + 3)) {
      throw new ProverError('NON_CANONICAL', `${WHAT}: coefficient ${i}'s value is >= r; the file is corrupt`);
    }
    matrix[i] = m;
    constraint[i] = c;
    signal[i] = sig;
    for (let k = 0; k < 8; k++) values[8 * i + k] = all[w + 3 + k];
  }
  return { count, matrix, constraint, signal, values };
}
