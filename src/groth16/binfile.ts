/**
 * The iden3 "binfile" container that snarkjs's `.zkey`, `.wtns`, `.ptau` and circom's `.r1cs` share
 * (@iden3/binfileutils): 4 magic bytes, u32 version, u32 section count, then that many sections,
 * each a u32 type, a u64 byte size and the bytes. All numbers little-endian. A type may repeat in
 * the format, but the files read here have each section once (snarkjs's `startReadUniqueSection`).
 * @module
 */
import { ProverError } from '../errors.js';

/** One section's place in the file. */
export interface BinSection {
  readonly type: number;
  /** Byte offset of the section's data in the file. */
  readonly offset: number;
  readonly size: number;
}

export interface BinFile {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly version: number;
  /** By type; each type at most once. */
  readonly sections: ReadonlyMap<number, BinSection>;
}

/** Bytes of the file header (magic, version, count) and of each section header (type, size). */
const FILE_HEADER = 12;
const SECTION_HEADER = 12;

/** A Uint8Array over `input` (no copy), or INVALID_ARGUMENT naming `what`. */
export function asBytes(input: unknown, what: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input) || Object.prototype.toString.call(input) === '[object ArrayBuffer]') {
    // Another realm's ArrayBuffer or another typed array: the bytes as they are.
    const v = input as ArrayBufferView | ArrayBuffer;
    return ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(v);
  }
  throw new ProverError('INVALID_ARGUMENT', `${what} must be a Uint8Array or an ArrayBuffer (the file's bytes), got ${describe(input)}`);
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x === 'object') return (x as object).constructor?.name ?? 'an object';
  return typeof x;
}

/**
 * The sections of a binfile whose magic must be `magic`.
 * @param names - section type -> name, for messages
 * @throws ProverError INVALID_ARGUMENT (wrong magic or version, a section twice), INVALID_LENGTH
 *   (the file ends inside a header or a section)
 */
export function readBinFile(bytes: Uint8Array, magic: string, maxVersion: number, what: string, names: Record<number, string>): BinFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = String.fromCharCode(...bytes.subarray(0, 4));
  // A file shorter than the magic that starts like it (empty included) is a cut file, not another format.
  if (head !== magic.slice(0, head.length)) {
    const got = head.replace(/[^\x20-\x7e]/g, '?');
    throw new ProverError('INVALID_ARGUMENT', `${what}: not a .${magic} file (its first 4 bytes are "${got}", not "${magic}")`);
  }
  if (bytes.length < FILE_HEADER) {
    throw new ProverError('INVALID_LENGTH', `${what}: truncated: ${bytes.length} bytes, shorter than the ${FILE_HEADER}-byte file header`);
  }
  const version = view.getUint32(4, true);
  if (version < 1 || version > maxVersion) {
    throw new ProverError('INVALID_ARGUMENT', `${what}: .${magic} version ${version} is not supported (1 to ${maxVersion})`);
  }
  const count = view.getUint32(8, true);
  const sections = new Map<number, BinSection>();
  let pos = FILE_HEADER;
  for (let i = 0; i < count; i++) {
    if (pos + SECTION_HEADER > bytes.length) {
      throw new ProverError(
        'INVALID_LENGTH',
        `${what}: truncated: the file ends at byte ${bytes.length}, inside the header of section ${i + 1} of ${count}`,
      );
    }
    const type = view.getUint32(pos, true);
    const lo = view.getUint32(pos + 4, true);
    const hi = view.getUint32(pos + 8, true);
    const size = hi * 2 ** 32 + lo;
    const offset = pos + SECTION_HEADER;
    const name = sectionName(type, names);
    if (offset + size > bytes.length) {
      throw new ProverError(
        'INVALID_LENGTH',
        `${what}: truncated: ${name} is cut short (it declares ${size} bytes from byte ${offset}, the file ends at ${bytes.length})`,
      );
    }
    if (sections.has(type)) throw new ProverError('INVALID_ARGUMENT', `${what}: ${name} appears twice`);
    sections.set(type, { type, offset, size });
    pos = offset + size;
  }
  return { bytes, view, version, sections };
}

export function sectionName(type: number, names: Record<number, string>): string {
  return `section ${type}${names[type] ? ` (${names[type]})` : ''}`;
}

/** The section of `type`, or INVALID_LENGTH: a file without it is cut short of what its format needs. */
export function requireSection(file: BinFile, type: number, what: string, names: Record<number, string>): BinSection {
  const s = file.sections.get(type);
  if (!s) throw new ProverError('INVALID_LENGTH', `${what}: ${sectionName(type, names)} is missing`);
  return s;
}

/** INVALID_LENGTH unless `section` is exactly `expected` bytes; `why` says where the number comes from. */
export function expectSize(section: BinSection, expected: number, what: string, names: Record<number, string>, why: string): void {
  if (section.size !== expected) {
    throw new ProverError(
      'INVALID_LENGTH',
      `${what}: ${sectionName(section.type, names)} is ${section.size} bytes, but ${why} needs ${expected}; the file is corrupt or cut, export it again`,
    );
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * `count` u32 words from byte `offset`, little-endian: a view of the file's buffer when the
 * offset is 4-aligned (snarkjs's sections are, in a buffer that starts on a 4-byte boundary), a
 * copy otherwise.
 */
export function wordsAt(bytes: Uint8Array, offset: number, count: number): Uint32Array {
  const at = bytes.byteOffset + offset;
  if (LITTLE_ENDIAN && at % 4 === 0) return new Uint32Array(bytes.buffer, at, count);
  const out = new Uint32Array(count);
  const view = new DataView(bytes.buffer, at, count * 4);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(4 * i, true);
  return out;
}

/** The little-endian integer of `n8` bytes at `offset`. */
export function readBigLE(bytes: Uint8Array, offset: number, n8: number): bigint {
  let x = 0n;
  for (let i = n8 - 1; i >= 0; i--) x = (x << 8n) | BigInt(bytes[offset + i]);
  return x;
}
