/**
 * Per-instance transcript binding: the TS twin of p3-challenger 0.9.0-rc.2
 * `src/fs/domain_separator.rs` (protocol id, instance label, seed bytes) and of the `FieldUnit`
 * seed packing in `src/fs/transcript_field.rs` (`observe_seed`).
 *
 * Seed bytes = `protocol_id(64) ‖ keccak256(pattern render)(32) ‖ u32be(len(label)) ‖ label ‖ 0x80`,
 * protocol_id = `[version, name…, 0…, len(name)]`. A BabyBear sponge absorbs them as
 * `[len(bytes), then one element per 3-byte little-endian chunk]` (3 = (31 - 1) / 8 bytes, so
 * every chunk is < 2^24 < p). A 101-byte seed (empty label) is 1 + 34 = 35 elements:
 * `[101, 3371009, 7697197, …]` for "p3-sumcheck-layout-commitment" v1.
 * @module
 */
import { patternHash, renderPattern, type Interaction } from './pattern.js';

export const PROTOCOL_ID_LEN = 64;
const DOMAIN_TAG = 0x80;
/** BabyBear carries 3 whole bytes per element (`FieldUnit::bytes_per_element`). */
const BYTES_PER_ELEMENT = 3;

/** A finished sub-transcript binding, as the prover needs it. */
export interface DomainSeparator {
  /** The protocol name, e.g. "p3-whir". */
  name: string;
  version: number;
  /** The instance label: concatenated `u32be(len) ‖ bytes` chunks. */
  label: Uint8Array;
  /** The validated step sequence, in order. */
  steps: Interaction[];
  /** `format!("{:#}", pattern)`. */
  pattern: string;
  /** The seed byte stream. */
  seed: Uint8Array;
  /** The BabyBear elements the seed absorbs (canonical). */
  seedElements: number[];
}

/** Builds the instance label chunk by chunk, as `DomainSeparator::instance` does. */
export class LabelBuilder {
  private parts: number[] = [];

  /** One delimited chunk: `u32be(len) ‖ bytes`. */
  chunk(bytes: ArrayLike<number>): this {
    const n = bytes.length;
    this.parts.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
    for (let i = 0; i < n; i++) this.parts.push(bytes[i] & 0xff);
    return this;
  }

  /** A number as Rust's `(value as u64).to_be_bytes()` chunk (8 bytes). */
  u64(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`label: ${value} is not a u64`);
    const b = new Array<number>(8).fill(0);
    let v = BigInt(value);
    for (let i = 7; i >= 0; i--) {
      b[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    return this.chunk(b);
  }

  /** A one-byte chunk (`instance(&[byte])`): booleans and small enums. */
  byte(value: number): this {
    return this.chunk([value]);
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** `[version | name | zero padding | name_len]`. */
export function protocolId(version: number, name: string): Uint8Array {
  const n = new TextEncoder().encode(name);
  if (n.length === 0 || n.length > PROTOCOL_ID_LEN - 2) throw new Error(`protocol name "${name}" must be 1..62 bytes`);
  const id = new Uint8Array(PROTOCOL_ID_LEN);
  id[0] = version;
  id.set(n, 1);
  id[PROTOCOL_ID_LEN - 1] = n.length;
  return id;
}

/** `DomainSeparator::seed_bytes`. */
export function seedBytes(version: number, name: string, render: string, label: Uint8Array): Uint8Array {
  const out = new Uint8Array(PROTOCOL_ID_LEN + 32 + 4 + label.length + 1);
  out.set(protocolId(version, name), 0);
  out.set(patternHash(render), PROTOCOL_ID_LEN);
  new DataView(out.buffer).setUint32(PROTOCOL_ID_LEN + 32, label.length, false);
  out.set(label, PROTOCOL_ID_LEN + 36);
  out[out.length - 1] = DOMAIN_TAG;
  return out;
}

/** `TranscriptField::observe_seed` for BabyBear: `[len, 3-byte LE chunks…]`. */
export function packSeed(bytes: Uint8Array): number[] {
  const out = [bytes.length];
  for (let i = 0; i < bytes.length; i += BYTES_PER_ELEMENT) {
    let acc = 0;
    for (let j = 0; j < BYTES_PER_ELEMENT && i + j < bytes.length; j++) acc |= bytes[i + j] << (8 * j);
    out.push(acc);
  }
  return out;
}

/** Assemble a separator: render the steps, hash, and pack the seed. */
export function domainSeparator(
  version: number,
  name: string,
  steps: Interaction[],
  label: Uint8Array = new Uint8Array(),
): DomainSeparator {
  const pattern = renderPattern(steps);
  const seed = seedBytes(version, name, pattern, label);
  return { name, version, label, steps, pattern, seed, seedElements: packSeed(seed) };
}
