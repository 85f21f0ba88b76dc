/**
 * A circom witness as the prover takes it: `count` values of Fr, 8 little-endian u32 words each,
 * normal form (not Montgomery), index 0 the constant 1, then the public signals (outputs first,
 * then public inputs), then the private ones. From a `.wtns` file (circom's witness calculator,
 * `snarkjs wtns calculate`; snarkjs src/wtns_utils.js) or from a bigint[] (circom_runtime's
 * `calculateWitness`). The `.wtns` layout: magic `wtns`, version 2, section 1 = u32 n8 (32),
 * the prime r (n8 bytes), u32 count; section 2 = count values of n8 bytes.
 * @module
 */
import { ProverError } from '../errors.js';
import { FR_R } from '../params/bn254-fr.js';
import { asBytes, expectSize, readBigLE, readBinFile, requireSection, wordsAt } from './binfile.js';
import { firstAtLeastR } from '../field/fr-words.js';

export interface WitnessWords {
  /** 8 words a value, little-endian, each value < r. */
  readonly words: Uint32Array;
  readonly count: number;
}

const SECTION_NAMES: Record<number, string> = { 1: 'header', 2: 'values' };
const N8 = 32;
const WHAT = 'wtns';

/** NON_CANONICAL for the first value >= r, INVALID_ARGUMENT unless w[0] = 1. */
function checkValues(words: Uint32Array, count: number, what: string): void {
  const bad = firstAtLeastR(words, count);
  if (bad >= 0) {
    throw new ProverError('NON_CANONICAL', `${what}: value ${bad} is >= r (the BN254 scalar field's modulus); compute the witness again`);
  }
  if (count > 0) {
    let one = words[0] === 1;
    for (let k = 1; k < 8; k++) one &&= words[k] === 0;
    if (!one) {
      throw new ProverError('INVALID_ARGUMENT', `${what}: value 0 must be 1 (circom's constant signal); this is not a circom witness`);
    }
  }
}

/**
 * Parses a `.wtns` file over BN254's Fr.
 * @param input - the file's bytes; `words` is a view of them when aligned, so keep them unchanged
 * @throws ProverError INVALID_ARGUMENT (not a wtns file, another prime, value 0 not 1),
 *   INVALID_LENGTH (truncated, sections that disagree, no values), NON_CANONICAL (a value >= r; the
 *   message names its index)
 * @example
 * const witness = readWtns(readFileSync('circuit.wtns'));
 */
export function readWtns(input: Uint8Array | ArrayBuffer): WitnessWords {
  const bytes = asBytes(input, WHAT);
  const file = readBinFile(bytes, 'wtns', 2, WHAT, SECTION_NAMES);
  const header = requireSection(file, 1, WHAT, SECTION_NAMES);
  const { view } = file;
  const n8 = header.size >= 4 ? view.getUint32(header.offset, true) : 0;
  const prime = n8 === N8 && header.size >= 4 + n8 ? readBigLE(bytes, header.offset + 4, n8) : -1n;
  if (prime !== FR_R) {
    throw new ProverError(
      'INVALID_ARGUMENT',
      `${WHAT}: not a BN254 witness: its prime is ${prime < 0n ? `${n8} bytes long` : prime}, not r = ${FR_R}; compile the circuit for bn128 (circom's default)`,
    );
  }
  expectSize(header, 4 + N8 + 4, WHAT, SECTION_NAMES, 'n8, the prime and a count');
  const count = view.getUint32(header.offset + 4 + N8, true);
  if (count === 0) throw new ProverError('INVALID_LENGTH', `${WHAT}: the witness has no values; circom's has at least the constant 1`);
  const values = requireSection(file, 2, WHAT, SECTION_NAMES);
  expectSize(values, count * N8, WHAT, SECTION_NAMES, `the header's count of ${count} values`);
  const words = wordsAt(bytes, values.offset, count * 8);
  checkValues(words, count, WHAT);
  return { words, count };
}

/**
 * A witness from its values (circom_runtime's `calculateWitness` result).
 * @throws ProverError INVALID_ARGUMENT (not an array, a value that is not a bigint, w[0] not 1),
 *   INVALID_LENGTH (empty), NON_CANONICAL (a value outside [0, r); the message names its index)
 * @example
 * const witness = witnessFromBigints(await calculator.calculateWitness(input, true));
 */
export function witnessFromBigints(values: readonly bigint[]): WitnessWords {
  const what = 'witness';
  if (!Array.isArray(values)) throw new ProverError('INVALID_ARGUMENT', `${what} must be an array of bigints, got ${typeof values}`);
  if (values.length === 0) throw new ProverError('INVALID_LENGTH', `${what} is empty; circom's has at least the constant 1`);
  const words = new Uint32Array(8 * values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'bigint') throw new ProverError('INVALID_ARGUMENT', `${what}[${i}] must be a bigint, got ${typeof v}`);
    if (v < 0n || v >= FR_R) throw new ProverError('NON_CANONICAL', `${what}[${i}] = ${v} is outside [0, r); reduce it mod r`);
    for (let k = 0, x = v; k < 8; k++, x >>= 32n) words[8 * i + k] = Number(x & 0xffffffffn);
  }
  checkValues(words, values.length, what);
  return { words, count: values.length };
}

/** The witness's values as bigints (the CPU prover's form). */
export function witnessToBigints(witness: WitnessWords): bigint[] {
  const out = new Array<bigint>(witness.count);
  const w = witness.words;
  for (let i = 0; i < witness.count; i++) {
    let x = 0n;
    for (let k = 7; k >= 0; k--) x = (x << 32n) | BigInt(w[8 * i + k]);
    out[i] = x;
  }
  return out;
}
